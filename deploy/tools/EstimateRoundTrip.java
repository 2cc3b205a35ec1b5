import dev.fieldprof.ldp.LocalRandomizer;
import dev.fieldprof.ldp.PrivacyParameters;
import dev.fieldprof.ldp.SeededRandomSource;
import dev.fieldprof.schemas.DeadLetter;
import dev.fieldprof.schemas.EstimateKeys;
import dev.fieldprof.schemas.EstimateWindow;
import dev.fieldprof.schemas.FrequencyReport;
import dev.fieldprof.schemas.MethodInfo;
import dev.fieldprof.schemas.OrderPair;
import dev.fieldprof.schemas.PairRule;
import dev.fieldprof.schemas.PrivacyConfig;
import dev.fieldprof.schemas.ProgramModel;
import dev.fieldprof.schemas.RecordCodec;
import dev.fieldprof.schemas.Topics;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Future;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The data side of deploy/test-deploy.sh, run with Java's source launcher on the CLI's classpath:
 *
 * <pre>
 * java -cp cli/target/fieldprof-cli.jar deploy/tools/EstimateRoundTrip.java \
 *     feed BOOTSTRAP APP:VERSION REPORTS BURSTS GAP_MS
 * java -cp cli/target/fieldprof-cli.jar deploy/tools/EstimateRoundTrip.java \
 *     check BOOTSTRAP APP:VERSION REPORTS TIMEOUT_S [--counts-only]
 * </pre>
 *
 * {@code feed} publishes a program model of five methods, then REPORTS reports randomized on the
 * device side (the SDK's LocalRandomizer, ε = 4, t = 1, k = 20, fixed seeds) from one known
 * distribution, in BURSTS bursts separated by GAP_MS of silence, each burst on one partition only
 * (the others stay quiet): the sparse traffic that once lost reports between the job's stages.
 * Nothing else is sent: the report topic is stamped by the broker and quiet partitions follow the
 * wall clock, so the last window closes on its own. {@code check} reads the estimates topic
 * (read_committed) until the windows of the app hold REPORTS reports and checks: the windows
 * together hold exactly REPORTS reports, the last cumulative estimate holds them all, sums to 1,
 * is within 0.05 (about seven standard errors) of the true shares with method 0 ranked first, and
 * no report of the app is in the dead letters. With {@code --counts-only} (reports of a real program
 * that {@code feed} did not make, whose true shares it cannot know) it checks the counts, the dead
 * letters and that the cumulative estimate sums to 1.
 */
public final class EstimateRoundTrip {
    private static final double EPSILON = 4.0;
    private static final int T = 1;
    private static final int K = 20;
    private static final String CONFIG = "deploy-test";
    /** The true events of every device's trace: shares 0.40, 0.30, 0.15, 0.10, 0.05. */
    private static final int[] TRUE_COUNTS = {8, 6, 3, 2, 1};

    public static void main(String[] args) throws Exception {
        if (args.length != 5 && args.length != 6) {
            System.err.println("usage: feed BOOTSTRAP APP:VERSION REPORTS BURSTS GAP_MS"
                    + " | check BOOTSTRAP APP:VERSION REPORTS TIMEOUT_S");
            System.exit(2);
        }
        String bootstrap = args[1];
        String app = args[2];
        int reports = Integer.parseInt(args[3]);
        switch (args[0]) {
            case "feed" -> feed(bootstrap, app, reports, Integer.parseInt(args[4]), Long.parseLong(args[5]));
            case "check" -> System.exit(check(bootstrap, app, reports, Duration.ofSeconds(Long.parseLong(args[4])),
                    args.length > 5 && args[5].equals("--counts-only")));
            default -> {
                System.err.println("unknown command " + args[0]);
                System.exit(2);
            }
        }
    }

    private static void feed(String bootstrap, String app, int count, int bursts, long gapMs)
            throws Exception {
        Properties properties = new Properties();
        properties.put("bootstrap.servers", bootstrap);
        properties.put("acks", "all");
        RecordCodec<ProgramModel> programs = RecordCodec.of(ProgramModel.class);
        RecordCodec<FrequencyReport> codec = RecordCodec.of(FrequencyReport.class);
        try (KafkaProducer<String, byte[]> producer =
                new KafkaProducer<>(properties, new StringSerializer(), new ByteArraySerializer())) {
            producer.send(new ProducerRecord<>(Topics.PROGRAMS, app, programs.encode(program(app)))).get();
            List<PartitionInfo> partitions = producer.partitionsFor(Topics.FREQUENCY_REPORTS);
            int next = 0;
            for (int burst = 0; burst < bursts; burst++) {
                if (burst > 0) {
                    Thread.sleep(gapMs); // the quiet gap of the traffic under test
                }
                int partition = partitions.get(burst % partitions.size()).partition();
                int size = count / bursts + (burst < count % bursts ? 1 : 0);
                List<Future<RecordMetadata>> sent = new ArrayList<>();
                for (int i = next; i < next + size; i++) {
                    LocalRandomizer randomizer = new LocalRandomizer(
                            new PrivacyParameters(EPSILON, T, K), new SeededRandomSource(1_000L + i));
                    FrequencyReport report = report(app, "device-" + i, app + "/report-" + i, randomizer);
                    sent.add(producer.send(new ProducerRecord<>(
                            Topics.FREQUENCY_REPORTS, partition, report.getDeviceId(), codec.encode(report))));
                }
                next += size;
                producer.flush();
                long first = Long.MAX_VALUE;
                long last = Long.MIN_VALUE;
                for (Future<RecordMetadata> future : sent) {
                    long time = future.get().timestamp();
                    first = Math.min(first, time);
                    last = Math.max(last, time);
                }
                System.out.printf("burst %d: %d reports to partition %d, broker times %s .. %s%n",
                        burst + 1, size, partition, Instant.ofEpochMilli(first), Instant.ofEpochMilli(last));
            }
        }
    }

    private static ProgramModel program(String app) {
        List<MethodInfo> methods = new ArrayList<>();
        for (int id = 0; id < TRUE_COUNTS.length; id++) {
            methods.add(MethodInfo.newBuilder().setId(id).setSignature("demo.Main.m" + id + "()V").build());
        }
        // F(m4) <= F(m3) <= F(m2): true of the distribution, so the projection must keep it.
        List<OrderPair> pairs = List.of(
                OrderPair.newBuilder().setLeft(4).setRight(3).setRule(PairRule.OTHER).build(),
                OrderPair.newBuilder().setLeft(3).setRight(2).setRule(PairRule.OTHER).build());
        return ProgramModel.newBuilder()
                .setAppVersion(app)
                .setCreatedAtMillis(Instant.now())
                .setMethods(methods)
                .setPairs(pairs)
                .setPrivacyConfigs(List.of(PrivacyConfig.newBuilder()
                        .setConfigId(CONFIG).setEpsilon(EPSILON).setT(T).setK(K).build()))
                .setAnalysisStats(Map.of())
                .build();
    }

    private static FrequencyReport report(String app, String device, String id, LocalRandomizer randomizer) {
        List<Integer> counts = new ArrayList<>();
        for (int value : randomizer.randomize(TRUE_COUNTS.clone())) {
            counts.add(value);
        }
        return FrequencyReport.newBuilder()
                .setReportId(id)
                .setDeviceId(device)
                .setAppVersion(app)
                .setConfigId(CONFIG)
                .setK(K)
                .setCreatedAtMillis(Instant.now())
                .setCounts(counts)
                .build();
    }

    private static int check(String bootstrap, String app, int count, Duration timeout, boolean countsOnly) {
        Properties properties = new Properties();
        properties.put("bootstrap.servers", bootstrap);
        properties.put("isolation.level", "read_committed");
        properties.put("enable.auto.commit", "false");
        RecordCodec<EstimateWindow> codec = RecordCodec.of(EstimateWindow.class);
        long deadline = System.nanoTime() + timeout.toNanos();
        long counted = 0;
        int windows = 0;
        EstimateWindow lastCumulative = null;
        // A window published again after late reports (a higher revision) replaces its count.
        java.util.Map<String, EstimateWindow> byKey = new java.util.HashMap<>();
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(properties, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = partitionsOf(consumer, Topics.ESTIMATES);
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            while (System.nanoTime() < deadline
                    && (counted < count || lastCumulative == null || lastCumulative.getReports() < count)) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(500))) {
                    EstimateWindow window = codec.decode(record.value());
                    if (!window.getAppVersion().equals(app)) {
                        continue;
                    }
                    if (window.getCumulative()) {
                        lastCumulative = window;
                    } else {
                        EstimateWindow held = byKey.get(EstimateKeys.of(window));
                        if (held != null && !EstimateKeys.supersedes(window, held)) {
                            continue;
                        }
                        byKey.put(EstimateKeys.of(window), window);
                        counted += window.getReports() - (held == null ? 0 : held.getReports());
                        windows += held == null ? 1 : 0;
                        System.out.printf("window [%s, %s) revision %d: %d reports%n",
                                window.getWindowStartMillis(), window.getWindowEndMillis(),
                                window.getRevision(), window.getReports());
                    }
                }
            }
            int lettered = deadLettersOf(consumer, app);
            if (counted != count || lastCumulative == null || lettered != 0) {
                System.err.printf("check failed: %d windows of %s hold %d reports, %d were sent; %d are"
                        + " dead letters%n", windows, app, counted, count, lettered);
                return 1;
            }
            System.out.printf("%d reports in %d windows, none lost, none dead-lettered%n", counted, windows);
        }
        if (countsOnly) {
            double sum = lastCumulative.getConsistent().stream().mapToDouble(Double::doubleValue).sum();
            if (lastCumulative.getReports() != count || Math.abs(sum - 1.0) > 1e-9) {
                System.err.printf("check failed: the cumulative estimate holds %d reports (%d sent) and"
                        + " sums to %s%n", lastCumulative.getReports(), count, sum);
                return 1;
            }
            System.out.printf("cumulative estimate: %d reports, consistent shares sum to 1%n", count);
            return 0;
        }
        return verify(lastCumulative, count);
    }

    /** Dead letters of the report topic whose record was a report of {@code app}. */
    private static int deadLettersOf(KafkaConsumer<byte[], byte[]> consumer, String app) {
        RecordCodec<DeadLetter> letters = RecordCodec.of(DeadLetter.class);
        List<TopicPartition> partitions = partitionsOf(consumer, Topics.DEAD_LETTERS);
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
        Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
        int found = 0;
        while (partitions.stream().anyMatch(p -> consumer.position(p) < ends.get(p))) {
            for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(500))) {
                DeadLetter letter = letters.decode(record.value());
                // A report's letter keeps its bytes until validation; a window sum's letter is
                // keyed by the app version; others name it in the reason.
                boolean ofApp = (letter.getValue() != null
                                && new String(letter.getValue().array(), java.nio.charset.StandardCharsets.ISO_8859_1)
                                        .contains(app))
                        || (letter.getKey() != null
                                && new String(letter.getKey().array(), java.nio.charset.StandardCharsets.UTF_8)
                                        .equals(app))
                        || letter.getReason().toString().contains(app);
                if (letter.getSourceTopic().equals(Topics.FREQUENCY_REPORTS) && ofApp) {
                    System.err.printf("dead letter %s: %s%n", letter.getReasonCode(), letter.getReason());
                    found++;
                }
            }
        }
        return found;
    }

    private static List<TopicPartition> partitionsOf(KafkaConsumer<byte[], byte[]> consumer, String topic) {
        List<TopicPartition> partitions = new ArrayList<>();
        consumer.partitionsFor(topic).forEach(p -> partitions.add(new TopicPartition(p.topic(), p.partition())));
        return partitions;
    }

    private static int verify(EstimateWindow window, int count) {
        List<String> problems = new ArrayList<>();
        if (window.getReports() != count) {
            problems.add("window holds " + window.getReports() + " reports, " + count + " were sent");
        }
        List<Double> consistent = window.getConsistent();
        double sum = consistent.stream().mapToDouble(Double::doubleValue).sum();
        if (Math.abs(sum - 1.0) > 1e-9) {
            problems.add("consistent estimate sums to " + sum + ", not 1");
        }
        int best = 0;
        for (int v = 0; v < consistent.size(); v++) {
            double truth = TRUE_COUNTS[v] / (double) K;
            if (Math.abs(consistent.get(v) - truth) > 0.05) {
                problems.add(String.format("method %d estimated %.4f, true share %.2f", v, consistent.get(v), truth));
            }
            if (consistent.get(v) > consistent.get(best)) {
                best = v;
            }
        }
        if (consistent.size() != TRUE_COUNTS.length) {
            problems.add("estimate has " + consistent.size() + " methods, not " + TRUE_COUNTS.length);
        } else if (best != 0) {
            problems.add("method " + best + " ranked first, not method 0");
        }
        System.out.printf("estimate window [%s, %s): %d reports, g* = %s, standard error %.4f%n",
                window.getWindowStartMillis(), window.getWindowEndMillis(), window.getReports(),
                consistent.stream().map(x -> String.format("%.4f", x)).toList(), window.getStandardError());
        problems.forEach(problem -> System.err.println("check failed: " + problem));
        return problems.isEmpty() ? 0 : 1;
    }
}
