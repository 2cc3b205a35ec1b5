package dev.fieldprof.client;

import dev.fieldprof.client.transport.CallbackReportTransport;
import dev.fieldprof.client.transport.FileReportTransport;
import dev.fieldprof.client.transport.ReportTransport;
import dev.fieldprof.client.transport.kafka.KafkaTransportSettings;

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
                // The settings link no Kafka class; the transport is found by name, so that no
                // Kafka class is linked unless this branch runs.
                KafkaTransportSettings.Builder settings =
                        KafkaTransportSettings.builder(
                                        config.kafkaBootstrapServers(), config.spoolDir())
                                .topic(config.kafkaTopic())
                                .timeout(config.kafkaTimeout())
                                .spoolMaxBytes(config.spoolMaxBytes())
                                .queueCapacity(config.queueCapacity())
                                .clientProperties(config.kafkaClientProperties())
                                .connectAtStart(reportMayBeDue);
                if (config.shuffler().isPresent()) {
                    settings.shuffled(
                            config.configId(),
                            config.analystPublicKeyset(),
                            config.shufflerTopic());
                }
                try {
                    return (ReportTransport)
                            Class.forName(KAFKA_CLASS)
                                    .getConstructor(KafkaTransportSettings.class)
                                    .newInstance(settings.build());
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
