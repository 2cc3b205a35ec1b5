import dev.fieldprof.schemas.DeadLetter;
import dev.fieldprof.schemas.EstimateKeys;
import dev.fieldprof.schemas.EstimateWindow;
import dev.fieldprof.schemas.RecordCodec;
import dev.fieldprof.schemas.ShuffledBatch;
import dev.fieldprof.schemas.Topics;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The data side of deploy/test-shuffled.sh, run with Java's source launcher on the CLI's classpath:
 *
 * <pre>
 * java -cp cli/target/fieldprof-cli.jar deploy/tools/ShuffledRoundTrip.java \
 *     check BOOTSTRAP APP:VERSION REPORTS TIMEOUT_S
 * </pre>
 *
 * Reads, read_committed, the shuffled topic (the batches the shuffler released) and the estimates
 * topic until the app's windows (the latest revision of each) hold REPORTS reports, and checks that
 * the shuffler released exactly REPORTS sealed reports of the app, that the windows together hold
 * exactly REPORTS, that each window names its batches' sizes (adding up to its reports) and the
 * central (ε, δ) it holds, that the last cumulative estimate holds them all, and that neither the
 * analyst's nor the shuffler's dead letters hold a record. Prints one line per batch and window.
 */
public final class ShuffledRoundTrip {
    public static void main(String[] args) throws Exception {
        if (args.length != 5 || !args[0].equals("check")) {
            System.err.println("usage: check BOOTSTRAP APP:VERSION REPORTS TIMEOUT_S");
            System.exit(2);
        }
        System.exit(
                check(args[1], args[2], Integer.parseInt(args[3]),
                        Duration.ofSeconds(Long.parseLong(args[4]))));
    }

    private static int check(String bootstrap, String app, int count, Duration timeout) {
        Properties properties = new Properties();
        properties.put("bootstrap.servers", bootstrap);
        properties.put("isolation.level", "read_committed");
        properties.put("enable.auto.commit", "false");
        properties.put("max.partition.fetch.bytes", Integer.toString(Topics.MAX_ESTIMATE_BYTES));
        RecordCodec<EstimateWindow> estimates = RecordCodec.of(EstimateWindow.class);
        RecordCodec<ShuffledBatch> batches = RecordCodec.of(ShuffledBatch.class);
        RecordCodec<DeadLetter> letters = RecordCodec.of(DeadLetter.class);
        List<String> problems = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(properties, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            Map<String, Integer> batchSizes = new HashMap<>();
            long[] released = {0};
            readToEnd(consumer, Topics.SHUFFLED_REPORTS, record -> {
                ShuffledBatch part = batches.decode(record.value());
                if (part.getAppVersion().equals(app)) {
                    released[0] += part.getSealed().size();
                    if (batchSizes.put(part.getBatchId(), part.getBatchSize()) == null) {
                        System.out.printf("batch of %d sealed reports released (%d part(s))%n",
                                part.getBatchSize(), part.getParts());
                    }
                }
            });
            long batched = batchSizes.values().stream().mapToLong(Integer::longValue).sum();
            System.out.printf("the shuffler released %d sealed reports of %s in %d batches%n",
                    released[0], app, batchSizes.size());
            if (released[0] != count || batched != count) {
                problems.add("the shuffler released " + released[0] + " reports in batches of "
                        + batched + ", the devices handed over " + count);
            }

            Map<String, EstimateWindow> windows = new HashMap<>();
            EstimateWindow[] cumulative = {null};
            long deadline = System.nanoTime() + timeout.toNanos();
            List<TopicPartition> partitions = partitionsOf(consumer, Topics.ESTIMATES);
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            while (System.nanoTime() < deadline
                    && (counted(windows) < count || cumulative[0] == null
                            || cumulative[0].getReports() < count)) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(500))) {
                    EstimateWindow window = estimates.decode(record.value());
                    if (!window.getAppVersion().equals(app)) {
                        continue;
                    }
                    if (window.getCumulative()) {
                        cumulative[0] = window;
                        continue;
                    }
                    EstimateWindow held = windows.get(EstimateKeys.of(window));
                    if (held == null || EstimateKeys.supersedes(window, held)) {
                        windows.put(EstimateKeys.of(window), window);
                    }
                }
            }
            for (EstimateWindow window : windows.values()) {
                long inBatches = window.getShuffledBatchSizes().stream().mapToLong(Integer::longValue).sum();
                System.out.printf("window [%s, %s) revision %d: %d reports, batches %s, central epsilon %s"
                                + " at delta %s (epsilon0 %.4f)%n",
                        window.getWindowStartMillis(), window.getWindowEndMillis(), window.getRevision(),
                        window.getReports(), window.getShuffledBatchSizes(), window.getCentralEpsilon(),
                        window.getCentralDelta(), window.getEpsilon());
                if (!(window.getCentralEpsilon() > 0) || !(window.getCentralDelta() > 0)
                        || inBatches != window.getReports()) {
                    problems.add("window " + window.getWindowStartMillis() + " holds " + window.getReports()
                            + " reports, its batches " + window.getShuffledBatchSizes()
                            + ", central epsilon " + window.getCentralEpsilon());
                }
            }
            long counted = counted(windows);
            System.out.printf("%d reports in %d windows; cumulative estimate: %s reports%n", counted,
                    windows.size(), cumulative[0] == null ? "none" : cumulative[0].getReports());
            if (counted != count || cumulative[0] == null || cumulative[0].getReports() != count) {
                problems.add("the windows of " + app + " hold " + counted + " reports (cumulative "
                        + (cumulative[0] == null ? "none" : cumulative[0].getReports()) + "), the devices"
                        + " handed over " + count);
            }

            for (String topic : List.of(Topics.DEAD_LETTERS, Topics.SHUFFLER_DEAD_LETTERS)) {
                int[] found = {0};
                readToEnd(consumer, topic, record -> {
                    DeadLetter letter = letters.decode(record.value());
                    System.err.printf("dead letter on %s: %s %s%n", topic, letter.getReasonCode(),
                            letter.getReason());
                    found[0]++;
                });
                System.out.printf("dead letters on %s: %d%n", topic, found[0]);
                if (found[0] != 0) {
                    problems.add(found[0] + " dead letters on " + topic);
                }
            }
        }
        problems.forEach(problem -> System.err.println("check failed: " + problem));
        return problems.isEmpty() ? 0 : 1;
    }

    private static long counted(Map<String, EstimateWindow> windows) {
        return windows.values().stream().mapToLong(EstimateWindow::getReports).sum();
    }

    /** Every record of {@code topic} up to its end offsets as of now, read_committed. */
    private static void readToEnd(
            KafkaConsumer<byte[], byte[]> consumer, String topic, Consumer<ConsumerRecord<byte[], byte[]>> each) {
        List<TopicPartition> partitions = partitionsOf(consumer, topic);
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
        Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
        Set<TopicPartition> open = new HashSet<>(partitions);
        while (!open.isEmpty()) {
            for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(500))) {
                each.accept(record);
            }
            // The position passes commit markers too, so it reaches the end offset.
            open.removeIf(p -> consumer.position(p) >= ends.get(p));
        }
    }

    private static List<TopicPartition> partitionsOf(KafkaConsumer<byte[], byte[]> consumer, String topic) {
        List<TopicPartition> partitions = new ArrayList<>();
        consumer.partitionsFor(topic).forEach(p -> partitions.add(new TopicPartition(p.topic(), p.partition())));
        return partitions;
    }
}
