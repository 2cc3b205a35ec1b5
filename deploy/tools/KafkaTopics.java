import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;

/**
 * The one Kafka admin step the deploy scripts need, run with Java's source launcher on the broker's
 * classpath (kafka_2.13 4.x ships no topic tool and kafka-tools is not on Maven Central):
 *
 * <pre>
 * java -cp $KAFKA_CP deploy/tools/KafkaTopics.java await BOOTSTRAP
 * java -cp $KAFKA_CP deploy/tools/KafkaTopics.java create BOOTSTRAP PARTITIONS NAME[:compact]...
 * </pre>
 *
 * {@code await} exits 0 once the broker answers a metadata request (exit 1 otherwise, after one
 * request timeout); {@code create} creates the topics that do not exist yet and waits until each
 * partition has a leader.
 */
public final class KafkaTopics {
    private static final long TIMEOUT_MS = 5_000;

    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            System.err.println("usage: KafkaTopics await|create BOOTSTRAP [PARTITIONS NAME[:compact]...]");
            System.exit(2);
        }
        Properties properties = new Properties();
        properties.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, args[1]);
        properties.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, String.valueOf(TIMEOUT_MS));
        properties.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, String.valueOf(TIMEOUT_MS));
        try (Admin admin = Admin.create(properties)) {
            switch (args[0]) {
                case "await":
                    int nodes = admin.describeCluster().nodes().get(TIMEOUT_MS, TimeUnit.MILLISECONDS).size();
                    System.exit(nodes > 0 ? 0 : 1);
                    break;
                case "create":
                    create(admin, Integer.parseInt(args[2]), List.of(args).subList(3, args.length));
                    break;
                default:
                    System.err.println("unknown command " + args[0]);
                    System.exit(2);
            }
        } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
            System.err.println("kafka: " + (e.getCause() != null ? e.getCause() : e));
            System.exit(1);
        }
    }

    private static void create(Admin admin, int partitions, List<String> specs) throws Exception {
        Set<String> existing = admin.listTopics().names().get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
        List<NewTopic> topics = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (String spec : specs) {
            boolean compacted = spec.endsWith(":compact");
            String name = compacted ? spec.substring(0, spec.length() - ":compact".length()) : spec;
            names.add(name);
            if (!existing.contains(name)) {
                topics.add(
                        new NewTopic(name, partitions, (short) 1)
                                .configs(
                                        compacted
                                                // Program models carry every CFG (MBs).
                                                ? Map.of(
                                                        "cleanup.policy", "compact",
                                                        "max.message.bytes", "67108864")
                                                : Map.of("cleanup.policy", "delete")));
            }
        }
        try {
            admin.createTopics(topics).all().get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw e;
            }
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!allLed(admin, names)) {
            if (System.nanoTime() > deadline) {
                System.err.println("kafka: topics without leaders after 30 s: " + names);
                System.exit(1);
            }
            Thread.sleep(100); // polling interval of a real condition
        }
        for (String name : names) {
            System.out.println(name + (existing.contains(name) ? " (existed)" : " (created)"));
        }
    }

    private static boolean allLed(Admin admin, List<String> names) throws Exception {
        try {
            return admin.describeTopics(names).allTopicNames().get(TIMEOUT_MS, TimeUnit.MILLISECONDS).values().stream()
                    .flatMap(d -> d.partitions().stream())
                    .allMatch(p -> p.leader() != null && !p.leader().isEmpty());
        } catch (ExecutionException e) {
            return false; // metadata not propagated yet
        }
    }
}
