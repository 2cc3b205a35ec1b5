package dev.fieldprof.jobs.io;

import dev.fieldprof.schemas.Topics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * Compares a topic's settings on the broker with what fieldprof needs ({@link
 * Topics#settings(String)}), so that a job reading a report topic that keeps the producers' clocks
 * says so when it starts, and {@code fieldprof topics} can show and fix the difference.
 */
public final class TopicSettings {
    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    private TopicSettings() {}

    /**
     * Each required setting the topic has otherwise, as {@code name is X, fieldprof needs Y}; empty
     * when all match. Settings the topic has beyond {@code required} are not compared.
     *
     * @throws UnknownTopicOrPartitionException (as the cause of an ExecutionException) when the
     *     topic does not exist
     */
    public static List<String> differences(Admin admin, String topic, Map<String, String> required)
            throws ExecutionException, InterruptedException, TimeoutException {
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        Config config =
                admin.describeConfigs(List.of(resource))
                        .all()
                        .get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                        .get(resource);
        List<String> differences = new ArrayList<>();
        for (Map.Entry<String, String> setting : new TreeMap<>(required).entrySet()) {
            ConfigEntry entry = config.get(setting.getKey());
            String actual = entry == null ? null : entry.value();
            if (!setting.getValue().equals(actual)) {
                differences.add(
                        setting.getKey()
                                + " is "
                                + actual
                                + ", fieldprof needs "
                                + setting.getValue());
            }
        }
        return differences;
    }

    /**
     * What a job reading reports from {@code topic} should warn about at start: a topic that keeps
     * the producers' time (device clocks then steer the windows), a missing topic, or a broker that
     * could not be asked. Empty when the topic is stamped by the broker.
     */
    public static Optional<String> reportTopicWarning(String bootstrap, String topic) {
        Properties client = new Properties();
        client.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        return reportTopicWarning(client, topic);
    }

    /** As above, with the user's Kafka client properties (security) and bootstrap servers. */
    public static Optional<String> reportTopicWarning(Properties client, String topic) {
        String bootstrap = client.getProperty(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG);
        Properties properties = KafkaClientSettings.copyOf(client);
        properties.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) TIMEOUT.toMillis());
        properties.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) TIMEOUT.toMillis());
        try (Admin admin = Admin.create(properties)) {
            List<String> differences =
                    differences(
                            admin, topic, Map.of(Topics.TIMESTAMP_TYPE, Topics.LOG_APPEND_TIME));
            if (differences.isEmpty()) {
                return Optional.empty();
            }
            return Optional.of(
                    "report topic "
                            + topic
                            + ": "
                            + differences.get(0)
                            + ". Its record times are the devices' clocks: a device clock behind"
                            + " the job's by more than the out-of-orderness loses its reports"
                            + " (LATE dead letters). Fix it with 'fieldprof topics create"
                            + " --bootstrap "
                            + bootstrap
                            + " --fix'.");
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                return Optional.of(
                        "report topic "
                                + topic
                                + " does not exist: create it with 'fieldprof topics create'"
                                + " (a topic the broker creates on first use keeps the"
                                + " producers' clocks)");
            }
            if (e.getCause() instanceof org.apache.kafka.common.errors.TimeoutException) {
                return Optional.of(noAnswer(bootstrap, topic));
            }
            return Optional.of(
                    "could not check the settings of report topic "
                            + topic
                            + ": "
                            + e.getCause().getMessage());
        } catch (TimeoutException e) {
            return Optional.of(noAnswer(bootstrap, topic));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.of("could not check the settings of report topic " + topic);
        } catch (RuntimeException e) {
            return Optional.of(
                    "could not check the settings of report topic "
                            + topic
                            + ": "
                            + e.getMessage());
        }
    }

    private static String noAnswer(String bootstrap, String topic) {
        return "could not check the settings of report topic "
                + topic
                + ": the broker at "
                + bootstrap
                + " did not answer within "
                + TIMEOUT.toSeconds()
                + " s";
    }
}
