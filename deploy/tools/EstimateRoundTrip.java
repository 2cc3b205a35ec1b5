import dev.fieldprof.client.privacy.LocalRandomizer;
import dev.fieldprof.client.privacy.PrivacyParameters;
import dev.fieldprof.client.privacy.SeededRandomSource;
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
 *     feed BOOTSTRAP APP:VERSION REPORTS WINDOW_MS ADVANCE_MS
 * java -cp cli/target/fieldprof-cli.jar deploy/tools/EstimateRoundTrip.java \
 *     check BOOTSTRAP APP:VERSION REPORTS TIMEOUT_S
 * </pre>
 *
 * {@code feed} publishes a program model of five methods and REPORTS reports randomized on the
 * device side (the SDK's LocalRandomizer, ε = 4, t = 1, k = 20, fixed seeds) from one known
 * distribution, all stamped inside one event-time window; then one report per partition stamped
 * ADVANCE_MS later, so that the watermark of every partition passes the window's end and the
 * window closes. {@code check} reads the estimates topic (read_committed) until the window of
 * those reports arrives and checks it: exactly REPORTS reports, consistent estimate summing to 1,
 * within 0.05 (about seven standard errors) of the true shares, method 0 ranked first.
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
            System.err.println("usage: feed BOOTSTRAP APP:VERSION REPORTS WINDOW_MS ADVANCE_MS"
                    + " | check BOOTSTRAP APP:VERSION REPORTS TIMEOUT_S");
            System.exit(2);
        }
        String bootstrap = args[1];
        String app = args[2];
        int reports = Integer.parseInt(args[3]);
        switch (args[0]) {
            case "feed" -> feed(bootstrap, app, reports, Long.parseLong(args[4]), Long.parseLong(args[5]));
            case "check" -> System.exit(check(bootstrap, app, reports, Duration.ofSeconds(Long.parseLong(args[4]))));
            default -> {
                System.err.println("unknown command " + args[0]);
                System.exit(2);
            }
        }
    }

    private static void feed(String bootstrap, String app, int count, long windowMs, long advanceMs)
            throws Exception {
        Properties properties = new Properties();
        properties.put("bootstrap.servers", bootstrap);
        properties.put("acks", "all");
        RecordCodec<ProgramModel> programs = RecordCodec.of(ProgramModel.class);
        RecordCodec<FrequencyReport> codec = RecordCodec.of(FrequencyReport.class);
        // Inside the current window, far enough from its end that no record of it is late.
        long now = System.currentTimeMillis();
        long windowStart = (now / windowMs) * windowMs;
        long reportTime = windowStart + windowMs / 2;
        List<Future<RecordMetadata>> sent = new ArrayList<>();
        try (KafkaProducer<String, byte[]> producer =
                new KafkaProducer<>(properties, new StringSerializer(), new ByteArraySerializer())) {
            sent.add(producer.send(new ProducerRecord<>(
                    Topics.PROGRAMS, null, reportTime - 1, app, programs.encode(program(app)))));
            LocalRandomizer randomizer = null;
            for (int i = 0; i < count; i++) {
                randomizer = new LocalRandomizer(
                        new PrivacyParameters(EPSILON, T, K), new SeededRandomSource(1_000L + i));
                FrequencyReport report = report(app, "device-" + i, app + "/report-" + i, randomizer, reportTime);
                sent.add(producer.send(new ProducerRecord<>(
                        Topics.FREQUENCY_REPORTS, null, reportTime, report.getDeviceId(), codec.encode(report))));
            }
            // One later report per partition moves every partition's watermark past the window.
            List<PartitionInfo> partitions = producer.partitionsFor(Topics.FREQUENCY_REPORTS);
            for (PartitionInfo partition : partitions) {
                String device = "advance-" + partition.partition();
                FrequencyReport report =
                        report(app, device, app + "/advance-" + partition.partition(), randomizer, reportTime + advanceMs);
                sent.add(producer.send(new ProducerRecord<>(
                        Topics.FREQUENCY_REPORTS, partition.partition(), reportTime + advanceMs, device,
                        codec.encode(report))));
            }
            producer.flush();
            for (Future<RecordMetadata> future : sent) {
                future.get();
            }
            System.out.printf("fed a program model, %d reports at %s and %d watermark reports %d ms later%n",
                    count, Instant.ofEpochMilli(reportTime), partitions.size(), advanceMs);
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

    private static FrequencyReport report(
            String app, String device, String id, LocalRandomizer randomizer, long time) {
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
                .setCreatedAtMillis(Instant.ofEpochMilli(time))
                .setCounts(counts)
                .build();
    }

    private static int check(String bootstrap, String app, int count, Duration timeout) {
        Properties properties = new Properties();
        properties.put("bootstrap.servers", bootstrap);
        properties.put("isolation.level", "read_committed");
        properties.put("enable.auto.commit", "false");
        RecordCodec<EstimateWindow> codec = RecordCodec.of(EstimateWindow.class);
        long deadline = System.nanoTime() + timeout.toNanos();
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(properties, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = new ArrayList<>();
            consumer.partitionsFor(Topics.ESTIMATES)
                    .forEach(p -> partitions.add(new TopicPartition(p.topic(), p.partition())));
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            while (System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(500))) {
                    EstimateWindow window = codec.decode(record.value());
                    if (window.getAppVersion().equals(app) && !window.getCumulative()) {
                        return verify(window, count);
                    }
                }
            }
        }
        System.err.printf("no estimate window for %s on %s within %d s%n", app, Topics.ESTIMATES, timeout.toSeconds());
        return 1;
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
