package dev.fieldprof.client.tracing;

import dev.fieldprof.client.transport.DropReason;
import dev.fieldprof.client.transport.kafka.KafkaSpoolingPublisher;
import dev.fieldprof.schemas.PathReport;
import dev.fieldprof.schemas.RecordCodec;
import dev.fieldprof.schemas.Topics;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.function.Function;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Publishes path reports to {@code fieldprof.reports.paths} keyed by device id, as {@link
 * RecordCodec} bytes, with an idempotent acks=all producer. The tracer cuts reports on traced
 * (host) threads, so {@link #send} only queues (at most {@value #QUEUE_CAPACITY} reports in
 * memory); the producer is created (as the sink starts, with the topic's metadata) and called on
 * the publisher's own thread. A report the broker cannot take yet (not reachable, the producer
 * still connecting, a send not acknowledged within the timeout) waits in a bounded on-disk spool,
 * as frequency reports do ({@link KafkaSpoolingPublisher}), and is sent once the broker answers, or
 * by the next run; only a full queue ({@link DropReason#QUEUE_FULL}) or spool ({@link
 * DropReason#SPOOL_FULL}, the oldest first) drops one, counted. Thread-safe.
 *
 * <pre>{@code
 * PathReportSink sink = new KafkaPathReportSink("broker:9092", Topics.PATH_REPORTS,
 *         Duration.ofSeconds(30), Path.of("state/paths-spool"), 16 << 20);
 * }</pre>
 */
public final class KafkaPathReportSink extends KafkaSpoolingPublisher<PathReport>
        implements PathReportSink {
    /** Path reports waiting in memory for the publisher thread at most. */
    public static final int QUEUE_CAPACITY = 256;

    private static final RecordCodec<PathReport> CODEC = RecordCodec.of(PathReport.class);

    private final String topic;

    /** A sink for {@link Topics#PATH_REPORTS}; see the constructor below. */
    public KafkaPathReportSink(
            String bootstrapServers, Duration timeout, Path spoolDir, long spoolMaxBytes) {
        this(bootstrapServers, Topics.PATH_REPORTS, timeout, spoolDir, spoolMaxBytes);
    }

    /**
     * @param bootstrapServers host:port list, non-empty
     * @param topic the path reports topic, non-empty
     * @param timeout bound of every Kafka wait (metadata, request, delivery), >= 100 ms
     * @param spoolDir where reports wait while the broker cannot take them (path reports only)
     * @param spoolMaxBytes bytes the spool holds at most, >= 1
     */
    public KafkaPathReportSink(
            String bootstrapServers,
            String topic,
            Duration timeout,
            Path spoolDir,
            long spoolMaxBytes) {
        this(bootstrapServers, topic, timeout, spoolDir, spoolMaxBytes, Map.of());
    }

    /**
     * As above, with Kafka client properties (security) passed through unchanged.
     *
     * @param clientProperties Kafka producer properties, none of them required
     */
    public KafkaPathReportSink(
            String bootstrapServers,
            String topic,
            Duration timeout,
            Path spoolDir,
            long spoolMaxBytes,
            Map<String, String> clientProperties) {
        this(bootstrapServers, topic, timeout, spoolDir, spoolMaxBytes, clientProperties, null);
    }

    /**
     * As above, with the producer made by {@code producerFactory} (tests); null = KafkaProducer.
     */
    KafkaPathReportSink(
            String bootstrapServers,
            String topic,
            Duration timeout,
            Path spoolDir,
            long spoolMaxBytes,
            Map<String, String> clientProperties,
            Function<Properties, Producer<String, byte[]>> producerFactory) {
        super(
                "paths",
                "fieldprof-device-paths",
                bootstrapServers,
                topic,
                timeout,
                spoolDir,
                spoolMaxBytes,
                QUEUE_CAPACITY,
                clientProperties,
                true,
                producerFactory,
                CODEC);
        this.topic = topic;
        start();
    }

    /** Queues the report and returns at once; a full queue counts a drop. */
    @Override
    public void send(PathReport report) {
        submit(report);
    }

    @Override
    protected ProducerRecord<String, byte[]> record(PathReport report) {
        return new ProducerRecord<>(topic, report.getDeviceId().toString(), CODEC.encode(report));
    }

    /** Waits (at most twice the timeout) until every queued report was acknowledged or spooled. */
    @Override
    public void flush() {
        flush(timeout().multipliedBy(2));
    }

    /** Reports the broker acknowledged. */
    public long sent() {
        return counters().sent();
    }

    /** Reports that were dropped (queue or spool full, rejected, not encodable). */
    public long failed() {
        return counters().droppedTotal();
    }

    @Override
    public void close() {
        close(timeout().multipliedBy(2));
    }
}
