package dev.fieldprof.jobs.io;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import org.apache.kafka.clients.CommonClientConfigs;

/**
 * Reads a Kafka client properties file, as Kafka's own tools read {@code --command-config}: every
 * property passed unchanged to every client, fieldprof adding only the bootstrap servers. The
 * file's contents (passwords) never appear in a message.
 */
public final class KafkaClientSettings {
    private KafkaClientSettings() {}

    /**
     * The properties of {@code file} (none when it is null or blank) with {@code bootstrap.servers}
     * set to {@code bootstrap}.
     *
     * @param option how the user named the file, for the message, e.g. {@code --kafka-properties}
     * @throws IllegalArgumentException naming the option and the file when it cannot be read
     */
    public static Properties load(String file, String option, String bootstrap) {
        Properties properties = new Properties();
        if (file != null && !file.isBlank()) {
            Path path = Path.of(file);
            try (Reader in = Files.newBufferedReader(path)) {
                properties.load(in);
            } catch (IOException | IllegalArgumentException e) {
                throw new IllegalArgumentException(
                        option
                                + ": cannot read "
                                + path
                                + " ("
                                + (e instanceof java.nio.file.NoSuchFileException
                                        ? "no such file"
                                        : e.getClass().getSimpleName())
                                + ")",
                        null);
            }
        }
        properties.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        return properties;
    }

    /** A copy of {@code client} (which {@link #load} made), for one client to add its own to. */
    public static Properties copyOf(Properties client) {
        Properties copy = new Properties();
        copy.putAll(client);
        return copy;
    }
}
