package dev.fieldprof.client.transport.kafka;

import dev.fieldprof.client.transport.DropReason;
import dev.fieldprof.client.transport.ReportSpool;
import dev.fieldprof.client.transport.ReportTransport;
import dev.fieldprof.schemas.FrequencyReport;
import dev.fieldprof.schemas.RecordCodec;
import dev.fieldprof.sealing.SealingException;
import java.util.Optional;
import java.util.Properties;
import java.util.function.Function;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Sends reports to Kafka (topic {@code fieldprof.reports.frequency} by default; key = device id,
 * value = {@link RecordCodec} bytes) with an idempotent producer, acks=all and lz4 compression. All
 * Kafka calls run on the transport's background thread. While the broker is unreachable reports go
 * to a bounded on-disk {@link ReportSpool}; the oldest spooled report is retried with exponential
 * backoff, and once one gets through the spool drains in order. A report id makes the rare re-send
 * after a crash harmless (the estimator counts a report id once).
 *
 * <p>When it connects is the caller's choice, made as the transport starts. By default it connects
 * at once, so that a short-lived program's report at its exit finds the client ready. A transport
 * told that no report is due in this run ({@code connectAtStart = false}: the device's budget is
 * spent) connects at start only if its spool holds reports of an earlier run, and otherwise not
 * before a report is submitted: a run that makes no report never contacts the broker.
 *
 * <p>What it sends to, and how, is one {@link KafkaTransportSettings}.
 *
 * <p>In the shuffled mode ({@link SealedReports}) a report of the shuffled configuration leaves
 * only sealed, to the shuffler's topic; one that cannot be sealed is dropped ({@link
 * DropReason#UNSEALABLE}). Reports wait in the spool as they were made and are sealed as they are
 * sent: the spool is the device's own storage, and each re-send is sealed afresh.
 */
public final class KafkaReportTransport extends KafkaSpoolingPublisher<FrequencyReport>
        implements ReportTransport {
    private static final RecordCodec<FrequencyReport> CODEC = RecordCodec.of(FrequencyReport.class);

    private final String topic;
    // The shuffled mode's sealing and topic; null: every report goes to `topic` as it is.
    private final SealedReports sealing;
    private final String shufflerTopic;

    /**
     * Creates the transport and starts its thread; the producer itself is created on that thread,
     * so an unresolvable or dead broker never delays the caller. Thread-safe.
     *
     * <pre>{@code
     * ReportTransport transport = new KafkaReportTransport(
     *         KafkaTransportSettings.builder("broker:9092", Path.of("spool")).build());
     * }</pre>
     *
     * @param settings checked by {@link KafkaTransportSettings.Builder#build()}, non-null
     */
    public KafkaReportTransport(KafkaTransportSettings settings) {
        this(settings, null);
    }

    /**
     * As above, with the producer made by {@code producerFactory} (tests); null = KafkaProducer.
     */
    KafkaReportTransport(
            KafkaTransportSettings settings,
            Function<Properties, Producer<String, byte[]>> producerFactory) {
        super(
                "kafka",
                "fieldprof-device",
                checked(settings).bootstrapServers(),
                settings.topic(),
                settings.timeout(),
                settings.spoolDir(),
                settings.spoolMaxBytes(),
                settings.queueCapacity(),
                settings.clientProperties(),
                settings.connectAtStart(),
                producerFactory,
                CODEC);
        this.topic = settings.topic();
        this.sealing =
                settings.shuffledConfigId()
                        .map(
                                configId ->
                                        new SealedReports(
                                                configId,
                                                settings.analystPublicKeyset().orElse(null)))
                        .orElse(null);
        this.shufflerTopic = settings.shufflerTopic().orElse(null);
        start();
    }

    private static KafkaTransportSettings checked(KafkaTransportSettings settings) {
        if (settings == null) {
            throw new IllegalArgumentException(
                    "settings must be given (KafkaTransportSettings.builder(...).build())");
        }
        return settings;
    }

    /**
     * The record {@code report} is sent as, keyed by its device id: sealed to the shuffler's topic
     * when it is of the shuffled configuration, else as it is to the reports topic.
     *
     * @throws SealingException when it must be sealed and cannot be
     */
    @Override
    protected ProducerRecord<String, byte[]> record(FrequencyReport report)
            throws SealingException {
        if (sealing != null && sealing.seals(report)) {
            return new ProducerRecord<>(shufflerTopic, report.getDeviceId(), sealing.seal(report));
        }
        return new ProducerRecord<>(topic, report.getDeviceId(), CODEC.encode(report));
    }

    /** The shuffled mode's sealing, when this device's configuration is shuffled. */
    public Optional<SealedReports> sealing() {
        return Optional.ofNullable(sealing);
    }
}
