package dev.fieldprof.client.transport;

import dev.fieldprof.schemas.FrequencyReport;
import java.time.Duration;

/**
 * Where a device's randomized reports go. Implementations publish on their own background thread
 * from a bounded queue: {@link #submit} never blocks and never throws, and every failure ends in a
 * counter ({@link #counters()}), never in the host program.
 */
public interface ReportTransport extends AutoCloseable {

    /** Hands one report over; returns at once. A full queue or a closed transport counts a drop. */
    void submit(FrequencyReport report);

    /** Sent, spooled and dropped-by-reason counts so far. */
    TransportCounters counters();

    /**
     * Waits until every report submitted before the call has been sent, spooled or dropped, or the
     * timeout passed; returns whether it got there. For tests and orderly shutdown, never for host
     * threads.
     */
    boolean flush(Duration timeout);

    /**
     * At process exit, when {@link #flush} could not deliver everything in time: writes what is
     * still queued or in flight to durable storage, so that the next run of the program sends it,
     * and waits at most {@code timeout} for that. Returns whether nothing is left only in memory.
     * Transports without durable storage answer whether everything was delivered.
     */
    default boolean persistUndelivered(Duration timeout) {
        return flush(timeout);
    }

    /**
     * Whether this transport contacts a broker as it starts, before any report: false for
     * transports that never connect anywhere (a file, a callback), and for a Kafka transport told
     * that no report is due in this run whose spool is empty.
     */
    default boolean connectsAtStart() {
        return false;
    }

    /**
     * Stops the background thread after a bounded attempt to deliver what is queued. Idempotent.
     */
    @Override
    void close();
}
