package dev.fieldprof.client.tracing;

import dev.fieldprof.schemas.PathReport;
import dev.fieldprof.schemas.RecordCodec;
import dev.fieldprof.schemas.Topics;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Publishes path reports to {@code fieldprof.reports.paths} keyed by device id, as {@link
 * RecordCodec} bytes, with an idempotent acks=all producer. Sending is asynchronous; failures are
 * counted in {@link #failed()} (path reports are best effort: a lost one breaks no later report,
 * whose header carries the open frames). Thread-safe.
 */
public final class KafkaPathReportSink implements PathReportSink {
    private static final RecordCodec<PathReport> CODEC = RecordCodec.of(PathReport.class);

    private final KafkaProducer<String, byte[]> producer;
    private final String topic;
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();

    /** A sink for {@link Topics#PATH_REPORTS}. */
    public KafkaPathReportSink(String bootstrapServers, Duration timeout) {
        this(bootstrapServers, Topics.PATH_REPORTS, timeout);
    }

    public KafkaPathReportSink(String bootstrapServers, String topic, Duration timeout) {
        Properties p = new Properties();
        int ms = (int) Math.min(Integer.MAX_VALUE, timeout.toMillis());
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        p.put(ProducerConfig.LINGER_MS_CONFIG, "20");
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, Integer.toString(ms));
        p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, Integer.toString(ms));
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, Integer.toString(ms + 20));
        p.put(ProducerConfig.CLIENT_ID_CONFIG, "fieldprof-device-paths");
        this.producer = new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer());
        this.topic = topic;
    }

    @Override
    public void send(PathReport report) {
        producer.send(
                new ProducerRecord<>(topic, report.getDeviceId().toString(), CODEC.encode(report)),
                (metadata, error) -> (error == null ? sent : failed).incrementAndGet());
    }

    @Override
    public void flush() {
        producer.flush();
    }

    /** Reports the broker acknowledged. */
    public long sent() {
        return sent.get();
    }

    /** Reports that could not be delivered. */
    public long failed() {
        return failed.get();
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(5));
    }
}
