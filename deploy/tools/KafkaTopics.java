import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;

/**
 * The readiness probe of start-kafka.sh, run on the broker's classpath before anything else of
 * fieldprof is needed (kafka_2.13 4.x ships no topic tool and kafka-tools is not on Maven Central):
 *
 * <pre>
 * java -cp $KAFKA_CP deploy/tools/KafkaTopics.java await BOOTSTRAP [CLIENT_PROPERTIES]
 * </pre>
 *
 * exits 0 once the broker answers a metadata request (exit 1 otherwise, after one request
 * timeout), with the Kafka client properties of the file when one is given (a secured listener).
 * The topics themselves are created by {@code fieldprof topics create}.
 */
public final class KafkaTopics {
    private static final long TIMEOUT_MS = 5_000;

    public static void main(String[] args) throws Exception {
        if (args.length < 2 || args.length > 3 || !args[0].equals("await")) {
            System.err.println("usage: KafkaTopics await BOOTSTRAP [CLIENT_PROPERTIES]");
            System.exit(2);
        }
        Properties properties = new Properties();
        if (args.length == 3) {
            try (java.io.Reader in = java.nio.file.Files.newBufferedReader(java.nio.file.Path.of(args[2]))) {
                properties.load(in);
            }
        }
        properties.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, args[1]);
        properties.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, String.valueOf(TIMEOUT_MS));
        properties.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, String.valueOf(TIMEOUT_MS));
        try (Admin admin = Admin.create(properties)) {
            int nodes = admin.describeCluster().nodes().get(TIMEOUT_MS, TimeUnit.MILLISECONDS).size();
            System.exit(nodes > 0 ? 0 : 1);
        } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
            System.err.println("kafka: " + (e.getCause() != null ? e.getCause() : e));
            System.exit(1);
        }
    }
}
