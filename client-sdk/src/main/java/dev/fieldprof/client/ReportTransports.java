package dev.fieldprof.client;

import dev.fieldprof.client.transport.CallbackReportTransport;
import dev.fieldprof.client.transport.FileReportTransport;
import dev.fieldprof.client.transport.ReportTransport;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * Builds the transport a {@link ClientConfig} names. The Kafka transport is loaded reflectively, so
 * that the core never links Kafka classes unless {@code transport=kafka} is chosen; it seals the
 * reports of a shuffled configuration (and so is the only transport that loads the sealing
 * library). The file and no-op transports keep reports on the device or drop them: nothing leaves
 * it, sealed or not.
 */
public final class ReportTransports {
    private static final String KAFKA_CLASS =
            "dev.fieldprof.client.transport.kafka.KafkaReportTransport";

    private ReportTransports() {}

    /** The configured transport; fails with a message naming the setting if it cannot be made. */
    public static ReportTransport create(ClientConfig config) {
        return create(config, true);
    }

    /**
     * As above, saying whether a report may be due in this run. A Kafka transport told none is due
     * connects at start only if its spool holds reports of an earlier run, and otherwise only when
     * a report is submitted; the other transports never connect anywhere.
     */
    public static ReportTransport create(ClientConfig config, boolean reportMayBeDue) {
        switch (config.transport()) {
            case NONE:
                return new CallbackReportTransport(report -> {}, config.queueCapacity());
            case FILE:
                return new FileReportTransport(config.reportFile(), config.queueCapacity());
            case KAFKA:
                try {
                    // The transport's own public constructor, found by name: no link to Kafka
                    // classes unless this branch runs.
                    return (ReportTransport)
                            Class.forName(KAFKA_CLASS)
                                    .getConstructor(
                                            String.class,
                                            String.class,
                                            Duration.class,
                                            Path.class,
                                            long.class,
                                            int.class,
                                            Map.class,
                                            boolean.class,
                                            String.class,
                                            Path.class,
                                            String.class)
                                    .newInstance(
                                            config.kafkaBootstrapServers(),
                                            config.kafkaTopic(),
                                            config.kafkaTimeout(),
                                            config.spoolDir(),
                                            config.spoolMaxBytes(),
                                            config.queueCapacity(),
                                            config.kafkaClientProperties(),
                                            reportMayBeDue,
                                            config.shuffler().isPresent()
                                                    ? config.configId()
                                                    : null,
                                            config.analystPublicKeyset(),
                                            config.shufflerTopic());
                } catch (ReflectiveOperationException | LinkageError e) {
                    throw new IllegalStateException(
                            ClientConfig.KEY_TRANSPORT
                                    + "=kafka needs kafka-clients on the classpath: "
                                    + e,
                            e);
                }
            default:
                throw new IllegalStateException("unknown transport " + config.transport());
        }
    }
}
