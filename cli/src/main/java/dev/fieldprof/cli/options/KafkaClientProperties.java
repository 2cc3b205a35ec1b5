package dev.fieldprof.cli.options;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import org.apache.kafka.clients.CommonClientConfigs;
import picocli.CommandLine.Option;

/**
 * The {@code --kafka-properties FILE} option (a picocli mixin): Kafka client properties (security,
 * timeouts) passed through unchanged to every client a command opens, like Kafka's own {@code
 * --command-config}.
 */
public final class KafkaClientProperties {
    @Option(
            names = "--kafka-properties",
            paramLabel = "FILE",
            description = "Kafka client properties passed to every client (security, timeouts).")
    Path file;

    /**
     * The file's properties with {@code bootstrap.servers} set to {@code bootstrap}.
     *
     * @throws IllegalArgumentException naming the file (never its contents) when it is unreadable
     */
    public Properties with(String bootstrap) {
        Properties properties = new Properties();
        if (file != null) {
            try (Reader in = Files.newBufferedReader(file)) {
                properties.load(in);
            } catch (IOException e) {
                throw new IllegalArgumentException(
                        "cannot read --kafka-properties " + file + ": " + e.getMessage(), e);
            }
        }
        properties.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        return properties;
    }
}
