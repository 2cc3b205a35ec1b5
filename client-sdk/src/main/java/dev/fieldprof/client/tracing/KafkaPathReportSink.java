package dev.fieldprof.client.tracing;

import dev.fieldprof.client.transport.AsyncPublisher;
import dev.fieldprof.client.transport.DropReason;
import dev.fieldprof.client.transport.kafka.DeviceProducers;
import dev.fieldprof.schemas.PathReport;
import dev.fieldprof.schemas.RecordCodec;
import dev.fieldprof.schemas.Topics;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Publishes path reports to {@code fieldprof.reports.paths} keyed by device id, as {@link
 * RecordCodec} bytes, with an idempotent acks=all producer. The tracer cuts reports on traced
 * (host) threads, so {@link #send} only queues; the producer is created (as the sink starts, with
 * the topic's metadata) and called on the publisher's own thread, where waiting for a dead broker
 * harms nobody. Path reports are best effort: one the broker does not acknowledge within the
 * timeout is dropped and counted (no spool; a lost report breaks no later one, whose header carries
 * the open frames). Thread-safe.
 */
public final class KafkaPathReportSink extends AsyncPublisher<PathReport>
        implements PathReportSink {
    private static final RecordCodec<PathReport> CODEC = RecordCodec.of(PathReport.class);
    private static final int QUEUE_CAPACITY = 256;
    private static final Duration MIN_BACKOFF = Duration.ofMillis(500);
    private static final Duration MAX_BACKOFF = Duration.ofMinutes(1);

    private final Properties producerProperties;
    private final String topic;
    private final Duration timeout;
    private final Function<Properties, Producer<String, byte[]>> producerFactory;
    private final AtomicInteger inFlight = new AtomicInteger();
    private Producer<String, byte[]> producer;
    // While the broker is unreachable reports are dropped at once instead of each waiting for
    // metadata; the wait doubles after every failed try.
    // Written by the publisher thread and by the producer's callbacks.
    private volatile long offlineUntilNanos;
    private Duration backoff = MIN_BACKOFF;

    /** A sink for {@link Topics#PATH_REPORTS}. */
    public KafkaPathReportSink(String bootstrapServers, Duration timeout) {
        this(bootstrapServers, Topics.PATH_REPORTS, timeout);
    }

    /**
     * @param timeout bound of every Kafka wait (metadata, request, delivery), >= 100 ms
     */
    public KafkaPathReportSink(String bootstrapServers, String topic, Duration timeout) {
        this(bootstrapServers, topic, timeout, java.util.Map.of());
    }

    /**
     * @param timeout bound of every Kafka wait (metadata, request, delivery), >= 100 ms
     * @param clientProperties Kafka client properties (security) passed through unchanged
     */
    public KafkaPathReportSink(
            String bootstrapServers,
            String topic,
            Duration timeout,
            java.util.Map<String, String> clientProperties) {
        this(bootstrapServers, topic, timeout, clientProperties, null);
    }

    /**
     * As above, with the producer made by {@code producerFactory} (tests); null = KafkaProducer.
     */
    KafkaPathReportSink(
            String bootstrapServers,
            String topic,
            Duration timeout,
            java.util.Map<String, String> clientProperties,
            Function<Properties, Producer<String, byte[]>> producerFactory) {
        super("paths", QUEUE_CAPACITY, Duration.ofMillis(100));
        if (timeout == null || timeout.toMillis() < 100) {
            throw new IllegalArgumentException("timeout must be >= 100 ms, got " + timeout);
        }
        this.producerProperties =
                DeviceProducers.properties(
                        bootstrapServers, timeout, "fieldprof-device-paths", clientProperties);
        this.topic = topic;
        this.timeout = timeout;
        this.producerFactory = producerFactory != null ? producerFactory : DeviceProducers::create;
        start();
    }

    /** Queues the report and returns at once; a full queue counts a drop. */
    @Override
    public void send(PathReport report) {
        submit(report);
    }

    @Override
    protected void deliver(PathReport report) {
        byte[] value;
        try {
            value = CODEC.encode(report);
        } catch (RuntimeException e) {
            stats.dropped(DropReason.ENCODE_FAILED);
            return;
        }
        if (offlineUntilNanos != 0 && System.nanoTime() - offlineUntilNanos < 0) {
            stats.dropped(DropReason.UNDELIVERED);
            return;
        }
        if (!hasProducer()) {
            stats.dropped(DropReason.UNDELIVERED); // a later report retries
            return;
        }
        inFlight.incrementAndGet();
        try {
            producer.send(
                    new ProducerRecord<>(topic, report.getDeviceId().toString(), value),
                    (metadata, error) -> {
                        if (error == null) {
                            stats.sent();
                            goOnline();
                        } else {
                            stats.dropped(DropReason.UNDELIVERED);
                            failedToReach(error);
                        }
                        inFlight.decrementAndGet();
                        outcomesChanged();
                    });
        } catch (RuntimeException e) {
            // no metadata within the timeout (broker unreachable), or the producer is closed
            inFlight.decrementAndGet();
            stats.dropped(DropReason.UNDELIVERED);
            failedToReach(e);
        }
    }

    /**
     * Creates the producer and fetches the topic's metadata as the publisher thread starts: a
     * short-lived program cuts its reports at exit, which should not wait for the Kafka client to
     * start and reach the broker. A broker unreachable now takes the sink offline at once.
     */
    @Override
    protected void prepare() {
        if (!hasProducer()) {
            return;
        }
        try {
            producer.partitionsFor(topic);
        } catch (RuntimeException e) {
            failedToReach(e);
        }
    }

    /** Creates the producer if need be; false (and offline) if it cannot be created. */
    private boolean hasProducer() {
        if (producer == null) {
            try {
                producer = producerFactory.apply(producerProperties);
            } catch (RuntimeException e) {
                // e.g. an unresolvable bootstrap address
                goOffline();
                return false;
            }
        }
        return true;
    }

    /** The broker was not reached: counted apart if it refused the credentials; offline a while. */
    private void failedToReach(Throwable failure) {
        if (DeviceProducers.isAuthenticationFailure(failure)) {
            stats.authenticationFailed();
        }
        goOffline();
    }

    private synchronized void goOnline() {
        offlineUntilNanos = 0;
        backoff = MIN_BACKOFF;
    }

    private synchronized void goOffline() {
        offlineUntilNanos = System.nanoTime() + backoff.toNanos();
        Duration doubled = backoff.multipliedBy(2);
        backoff = doubled.compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : doubled;
    }

    @Override
    protected boolean awaitingOutcomes() {
        return inFlight.get() > 0;
    }

    /** Waits (at most twice the timeout) until every queued report was acknowledged or dropped. */
    @Override
    public void flush() {
        flush(timeout.multipliedBy(2));
    }

    @Override
    protected void shutdown() {
        DeviceProducers.closeOnPublisherThread(producer, timeout);
    }

    /** Reports the broker acknowledged. */
    public long sent() {
        return counters().sent();
    }

    /** Reports that were not delivered (queue full, not acknowledged, not encodable). */
    public long failed() {
        return counters().droppedTotal();
    }

    @Override
    public void close() {
        close(timeout.multipliedBy(2));
    }
}
