import dev.fieldprof.schemas.DeadLetter;
import dev.fieldprof.schemas.EdgeModel;
import dev.fieldprof.schemas.PathReport;
import dev.fieldprof.schemas.RecordCodec;
import dev.fieldprof.schemas.Topics;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The path side of deploy/test-deploy.sh, run with Java's source launcher on the CLI's classpath:
 *
 * <pre>
 * java -cp cli/target/fieldprof-cli.jar deploy/tools/PathRoundTrip.java models BOOTSTRAP APP:VERSION
 * java -cp cli/target/fieldprof-cli.jar deploy/tools/PathRoundTrip.java reports BOOTSTRAP APP:VERSION
 * </pre>
 *
 * {@code models} prints the versions of the edge models the paths job published for the app (one
 * line, space-separated, empty when none). {@code reports} reads the path report topic and the
 * dead letters from their beginning to their current end and prints three lines: the app's path
 * reports on the topic with how many were coded with each model version, came from each probe plan
 * variant and are in each path format (the coded stream's first byte), the dead letters of the
 * path report topic (with their reasons), and how many reports of the app each device sent, so the
 * script can compare them with what the devices' ledgers say they handed over and with the job's
 * own count of decoded reports.
 */
public final class PathRoundTrip {
    public static void main(String[] args) throws Exception {
        if (args.length != 3 || !List.of("models", "reports").contains(args[0])) {
            System.err.println("usage: PathRoundTrip models|reports BOOTSTRAP APP:VERSION");
            System.exit(2);
        }
        String bootstrap = args[1];
        String app = args[2];
        if (args[0].equals("models")) {
            RecordCodec<EdgeModel> codec = RecordCodec.of(EdgeModel.class);
            TreeSet<Long> versions = new TreeSet<>();
            for (byte[] value : readAll(bootstrap, Topics.EDGE_MODELS)) {
                EdgeModel model = codec.decode(value);
                if (model.getAppVersion().toString().equals(app)) {
                    versions.add(model.getVersion());
                }
            }
            System.out.println(String.join(" ", versions.stream().map(String::valueOf).toList()));
            return;
        }
        RecordCodec<PathReport> reports = RecordCodec.of(PathReport.class);
        Map<Long, Integer> byModel = new TreeMap<>();
        Map<String, Integer> byDevice = new TreeMap<>();
        Map<Integer, Integer> byVariant = new TreeMap<>();
        Map<Integer, Integer> byFormat = new TreeMap<>();
        int count = 0;
        for (byte[] value : readAll(bootstrap, Topics.PATH_REPORTS)) {
            PathReport report = reports.decode(value);
            if (report.getAppVersion().toString().equals(app)) {
                count++;
                byModel.merge(report.getModelVersion(), 1, Integer::sum);
                byDevice.merge(report.getDeviceId().toString(), 1, Integer::sum);
                byVariant.merge(report.getVariant(), 1, Integer::sum);
                ByteBuffer coded = report.getCoded();
                int format = coded.hasRemaining() ? coded.get(coded.position()) & 0xff : -1;
                byFormat.merge(format, 1, Integer::sum);
            }
        }
        RecordCodec<DeadLetter> letters = RecordCodec.of(DeadLetter.class);
        Map<String, Integer> reasons = new TreeMap<>();
        int dead = 0;
        for (byte[] value : readAll(bootstrap, Topics.DEAD_LETTERS)) {
            DeadLetter letter = letters.decode(value);
            if (letter.getSourceTopic().toString().equals(Topics.PATH_REPORTS)) {
                dead++;
                reasons.merge(letter.getReasonCode().toString(), 1, Integer::sum);
            }
        }
        System.out.println(
                "path-reports "
                        + count
                        + " by-model-version "
                        + byModel
                        + " by-variant "
                        + byVariant
                        + " by-format "
                        + byFormat);
        System.out.println("path-dead-letters " + dead + " " + reasons);
        System.out.println("by-device " + byDevice);
    }

    /** Every record value of the topic from its beginning to its end at the time of the call. */
    private static List<byte[]> readAll(String bootstrap, String topic) {
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrap);
        p.put("isolation.level", "read_committed");
        p.put("enable.auto.commit", "false");
        List<byte[]> values = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = new ArrayList<>();
            for (PartitionInfo info : consumer.partitionsFor(topic, Duration.ofSeconds(30))) {
                partitions.add(new TopicPartition(topic, info.partition()));
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions, Duration.ofSeconds(30));
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (partitions.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("could not read " + topic + " to its end in 60 s");
                }
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                    values.add(r.value());
                }
            }
        }
        return values;
    }
}
