package dev.fieldprof.client.transport.kafka;

import dev.fieldprof.client.transport.AsyncPublisher;
import dev.fieldprof.client.transport.DropReason;
import dev.fieldprof.client.transport.ReportSpool;
import dev.fieldprof.schemas.RecordCodec;
import dev.fieldprof.sealing.SealingException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.apache.avro.specific.SpecificRecordBase;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.RetriableException;

/**
 * The Kafka half every device-side publisher of records that must not be lost shares (frequency
 * reports, path reports): an idempotent acks=all producer created and called on the publisher
 * thread only, and a bounded on-disk {@link ReportSpool} where records wait while the broker is
 * unreachable (or slow to answer: a send not acknowledged within the timeout is spooled too). The
 * oldest spooled record is retried with exponential backoff, and once one gets through the spool
 * drains in order. Only a full spool drops ({@link DropReason#SPOOL_FULL}, the oldest first), and
 * only a permanent refusal ({@link DropReason#REJECTED}). At process exit {@link
 * #persistUndelivered} writes what is queued or in flight to the spool for the next run.
 *
 * <p>Subclasses say what record a report is sent as ({@link #record}) and call {@link #start()} at
 * the end of their constructor, once their own fields are set.
 *
 * @param <R> the records published
 */
public abstract class KafkaSpoolingPublisher<R extends SpecificRecordBase>
        extends AsyncPublisher<R> {
    private static final Duration MIN_BACKOFF = Duration.ofMillis(200);
    private static final Duration MAX_BACKOFF = Duration.ofMinutes(1);

    private final Function<Properties, Producer<String, byte[]>> producerFactory;
    private final Properties producerProperties;
    private final String topic;
    private final Duration timeout;
    private final ReportSpool<R> spool;
    // Whether prepare() connects: a record may be due in this run, or the spool holds some.
    private final boolean connectAtStart;
    private final ConcurrentLinkedQueue<R> failed = new ConcurrentLinkedQueue<>();
    // Sends whose callback has not run yet; a flush is not done while any is in flight.
    private final Set<R> inFlight = ConcurrentHashMap.newKeySet();
    // Sends in flight that the exit path spooled, and where: an acknowledgement still to come
    // removes the spooled copy. The lock orders a send's outcome against its spooling at exit.
    private final Map<R, Long> spooledAtExit = new ConcurrentHashMap<>();
    private final Object exitHandover = new Object();
    // Set at process exit: records are written to the spool instead of sent, and the sends in
    // flight are spooled too (the next run sends them; the jobs count a numbered report once).
    private volatile boolean persisting;
    // Written on the publisher thread only; read by connected() from any thread.
    private volatile Producer<String, byte[]> producer;
    // Read by flush callers (the exiting thread) as well as the publisher thread.
    private volatile long retryAtNanos;
    private Duration backoff = MIN_BACKOFF;

    /**
     * Checks the arguments and opens the spool; the producer is created on the publisher thread,
     * which the subclass starts.
     *
     * @param name suffix of the publisher thread's name
     * @param clientId the producer's client id
     * @param bootstrapServers host:port list, non-empty
     * @param topic the topic whose metadata the producer fetches as it starts, non-empty
     * @param timeout bound of every Kafka wait (metadata, request, delivery), >= 100 ms
     * @param spoolDir where records wait while the broker is unreachable
     * @param spoolMaxBytes spool cap in bytes, >= 1
     * @param queueCapacity in-memory queue, >= 1
     * @param clientProperties Kafka producer properties passed through unchanged
     * @param connectAtStart whether to connect as the publisher starts even with an empty spool
     * @param producerFactory makes the producer (tests); null = KafkaProducer
     * @param codec how a record is written to the spool and read back
     */
    protected KafkaSpoolingPublisher(
            String name,
            String clientId,
            String bootstrapServers,
            String topic,
            Duration timeout,
            Path spoolDir,
            long spoolMaxBytes,
            int queueCapacity,
            Map<String, String> clientProperties,
            boolean connectAtStart,
            Function<Properties, Producer<String, byte[]>> producerFactory,
            RecordCodec<R> codec) {
        super(name, queueCapacity, Duration.ofMillis(100));
        if (bootstrapServers == null || bootstrapServers.isBlank()) {
            throw new IllegalArgumentException(
                    "bootstrapServers must be a non-empty host:port list");
        }
        if (topic == null || topic.isBlank()) {
            throw new IllegalArgumentException("topic must be non-empty");
        }
        if (timeout == null || timeout.toMillis() < 100) {
            throw new IllegalArgumentException("timeout must be >= 100 ms, got " + timeout);
        }
        if (spoolDir == null) {
            throw new IllegalArgumentException("spoolDir must be a directory path, got null");
        }
        this.topic = topic;
        this.timeout = timeout;
        this.producerProperties =
                DeviceProducers.properties(bootstrapServers, timeout, clientId, clientProperties);
        this.producerFactory = producerFactory != null ? producerFactory : DeviceProducers::create;
        this.spool = new ReportSpool<>(spoolDir, spoolMaxBytes, stats, codec);
        // Decided once, on the spool as this run finds it.
        this.connectAtStart = connectAtStart || !spool.isEmpty();
    }

    /**
     * The record {@code report} is sent as.
     *
     * @throws SealingException when it must be sealed and cannot be (dropped as {@link
     *     DropReason#UNSEALABLE})
     * @throws RuntimeException when it cannot be encoded (dropped as {@link
     *     DropReason#ENCODE_FAILED})
     */
    protected abstract ProducerRecord<String, byte[]> record(R report) throws SealingException;

    /** The bound of every Kafka wait. */
    protected final Duration timeout() {
        return timeout;
    }

    /** The producer settings in use (for tests and diagnostics). */
    public Properties producerProperties() {
        Properties copy = new Properties();
        copy.putAll(producerProperties);
        return copy;
    }

    private Optional<Producer<String, byte[]>> producer() {
        if (producer == null) {
            try {
                producer = producerFactory.apply(producerProperties);
            } catch (RuntimeException e) {
                // e.g. no resolvable bootstrap address yet: stay offline and retry later
                goOffline();
                return Optional.empty();
            }
        }
        return Optional.of(producer);
    }

    private boolean offline() {
        return retryAtNanos != 0;
    }

    private void goOffline() {
        retryAtNanos = System.nanoTime() + backoff.toNanos();
        backoff =
                backoff.multipliedBy(2).compareTo(MAX_BACKOFF) > 0
                        ? MAX_BACKOFF
                        : backoff.multipliedBy(2);
    }

    private void goOnline() {
        retryAtNanos = 0;
        backoff = MIN_BACKOFF;
    }

    @Override
    protected final void deliver(R report) {
        // In flight from the moment the publisher holds it until its outcome: if the program
        // exits meanwhile (creating the producer can take seconds on a loaded machine), the
        // exiting thread spools it. Whoever removes it from inFlight owns its outcome; a report
        // both sent and spooled is sent again by the next run and counted once (numbered).
        inFlight.add(report);
        spoolFailures();
        if (persisting) {
            spoolInFlight();
            return;
        }
        if (offline() || !spool.isEmpty()) {
            // Keep order and never wait on a dead broker per report: queue behind the spool.
            spoolIfOwned(report);
            retrySpool();
            return;
        }
        send(report);
    }

    /** Spools the report unless the exit path already did. */
    private void spoolIfOwned(R report) {
        if (inFlight.remove(report)) {
            spool.add(report);
            outcomesChanged();
        }
    }

    private void send(R report) {
        ProducerRecord<String, byte[]> record;
        try {
            record = record(report);
        } catch (SealingException e) {
            if (inFlight.remove(report)) {
                stats.dropped(DropReason.UNSEALABLE);
                outcomesChanged();
            }
            return;
        } catch (RuntimeException e) {
            if (inFlight.remove(report)) {
                stats.dropped(DropReason.ENCODE_FAILED);
                outcomesChanged();
            }
            return;
        }
        Optional<Producer<String, byte[]>> p = producer();
        if (p.isEmpty()) {
            spoolIfOwned(report);
            return;
        }
        try {
            p.get()
                    .send(
                            record,
                            (metadata, exception) -> {
                                outcome(report, exception);
                                outcomesChanged();
                            });
        } catch (RuntimeException e) {
            if (permanent(e)) {
                if (inFlight.remove(report)) {
                    stats.dropped(DropReason.REJECTED);
                    outcomesChanged();
                }
            } else {
                spoolIfOwned(report);
                failedToReach(e);
            }
        }
    }

    /**
     * The producer's answer for a send in flight (on its I/O thread). If the exit path spooled the
     * report meanwhile, a success takes it out of the spool again (the next run must not send it
     * twice: the paths job does not deduplicate), and a failure leaves it there.
     */
    private void outcome(R report, Exception exception) {
        synchronized (exitHandover) {
            if (exception == null) {
                stats.sent();
                if (!inFlight.remove(report)) {
                    Long sequence = spooledAtExit.remove(report);
                    if (sequence != null) {
                        spool.remove(sequence);
                    }
                }
            } else if (inFlight.contains(report)) {
                if (permanent(exception)) {
                    stats.dropped(DropReason.REJECTED);
                } else {
                    countAuthenticationFailure(exception);
                    failed.add(report); // spooled by the publisher thread
                }
                inFlight.remove(report);
            }
        }
    }

    /**
     * The broker was not reached: counted apart if it refused the credentials; offline a while, so
     * exit no longer waits for the spool (hence the outcome change).
     */
    private void failedToReach(Throwable failure) {
        countAuthenticationFailure(failure);
        goOffline();
        outcomesChanged();
    }

    private void countAuthenticationFailure(Throwable failure) {
        if (DeviceProducers.isAuthenticationFailure(failure)) {
            stats.authenticationFailed();
        }
    }

    /**
     * Whether a synchronous send failed for good: the broker's answer (the cause of an {@link
     * ExecutionException}) or the send call itself was a permanent refusal, not a retriable one.
     */
    private static boolean rejected(Exception e) {
        if (e instanceof ExecutionException) {
            return e.getCause() instanceof Exception cause && permanent(cause);
        }
        return !(e instanceof RetriableException) && e instanceof RuntimeException && permanent(e);
    }

    private static boolean permanent(Exception e) {
        return e instanceof RecordTooLargeException
                || e instanceof AuthorizationException
                || e instanceof InvalidTopicException;
    }

    private void spoolFailures() {
        R report;
        boolean any = false;
        while ((report = failed.poll()) != null) {
            spool.add(report);
            any = true;
        }
        if (any && !offline()) {
            goOffline();
        }
        if (any) {
            outcomesChanged();
        }
    }

    /**
     * Sends in flight, or failed ones not yet in the spool, have no outcome yet; nor has a spool
     * the broker has not refused yet. Waiting for the spool too is what lets a short-lived program
     * (a command-line run of a few seconds) deliver at exit what an earlier run spooled: without
     * it, every run found the spool, queued its own report behind it and left before the
     * publisher's first retry, and a device's reports reached the broker only once a run happened
     * to last longer. Once a retry fails the publisher is offline and exit does not wait for the
     * spool.
     */
    @Override
    protected final boolean awaitingOutcomes() {
        return !inFlight.isEmpty()
                || !failed.isEmpty()
                || (!persisting && !offline() && !spool.isEmpty());
    }

    @Override
    protected final void idle() {
        spoolFailures();
        if (persisting) {
            spoolInFlight();
            return;
        }
        retrySpool();
    }

    /**
     * As the publisher starts: creates the producer and fetches the topic's metadata while the
     * program runs. A short-lived program reports at its exit, and creating the Kafka client and
     * reaching the broker then took longer than the exit wait (2 s) on a cold JVM on a loaded
     * machine: the report waited in the spool for the next run. A broker that cannot be reached
     * takes the publisher offline, as a failed send would. Skipped when no record is due in this
     * run and the spool is empty: then nothing tells the broker of the run (its address, start and,
     * through metadata refreshes, length), and a record made after all (a long run reaching a new
     * budget period) creates the producer as it is sent.
     */
    @Override
    protected final void prepare() {
        if (!connectAtStart) {
            return;
        }
        Optional<Producer<String, byte[]>> p = producer();
        if (p.isEmpty()) {
            return;
        }
        try {
            p.get().partitionsFor(topic);
        } catch (RuntimeException e) {
            failedToReach(e);
        }
    }

    /**
     * At process exit: from now on records go to the on-disk spool, and so do the sends still in
     * flight; one of those the broker still acknowledges before the JVM halts is taken out of the
     * spool again. Waits at most {@code timeout} for the publisher thread to write them. Returns
     * whether nothing is left only in memory.
     */
    public boolean persistUndelivered(Duration timeout) {
        persisting = true;
        // On this (exiting) thread: the publisher thread may be stuck creating its producer or in
        // a send waiting for metadata from a broker it has not reached yet.
        spoolInFlight();
        spoolFailedSends();
        drainQueued(spool::add);
        boolean settled = flush(timeout);
        spoolInFlight(); // what the publisher thread sent meanwhile
        spoolFailedSends();
        return settled || !awaitingOutcomes();
    }

    /** Moves sends the broker failed, not yet spooled by the publisher, into the spool. */
    private void spoolFailedSends() {
        R report;
        while ((report = failed.poll()) != null) {
            spool.add(report);
        }
        outcomesChanged();
    }

    /**
     * Moves every send in flight into the spool (the spool is thread-safe), remembering where, so
     * that an acknowledgement still to come takes it out again.
     */
    private void spoolInFlight() {
        for (R report : List.copyOf(inFlight)) {
            synchronized (exitHandover) {
                if (inFlight.remove(report)) {
                    long sequence = spool.add(report);
                    if (sequence >= 0) {
                        spooledAtExit.put(report, sequence);
                    }
                }
            }
        }
        outcomesChanged();
    }

    /** Sends spooled records in order, synchronously, while the broker accepts them. */
    private void retrySpool() {
        if (spool.isEmpty()) {
            return;
        }
        if (offline() && System.nanoTime() - retryAtNanos < 0) {
            return;
        }
        while (true) {
            Optional<ReportSpool.Spooled<R>> next = spool.oldest();
            if (next.isEmpty()) {
                goOnline();
                return;
            }
            Optional<Producer<String, byte[]>> p = producer();
            if (p.isEmpty()) {
                outcomesChanged(); // producer() went offline: exit need not wait for the spool
                return;
            }
            R report = next.get().report();
            ProducerRecord<String, byte[]> record;
            try {
                record = record(report);
            } catch (SealingException | RuntimeException e) {
                spool.remove(next.get().sequence());
                stats.dropped(
                        e instanceof SealingException
                                ? DropReason.UNSEALABLE
                                : DropReason.ENCODE_FAILED);
                outcomesChanged();
                continue;
            }
            try {
                p.get().send(record).get(timeout.toMillis() * 2, TimeUnit.MILLISECONDS);
                spool.remove(next.get().sequence());
                stats.sent();
                goOnline();
                outcomesChanged();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (Exception e) {
                if (rejected(e)) {
                    spool.remove(next.get().sequence());
                    stats.dropped(DropReason.REJECTED);
                    continue;
                }
                failedToReach(e);
                return;
            }
        }
    }

    /**
     * Whether the publisher connects as it starts: a record may be due in this run, or the spool
     * holds records of an earlier run.
     */
    public boolean connectsAtStart() {
        return connectAtStart;
    }

    /** Whether the publisher has created its Kafka client (and so contacted the broker). */
    public boolean connected() {
        return producer != null;
    }

    @Override
    protected final void shutdown() {
        DeviceProducers.closeOnPublisherThread(producer, timeout);
        spoolFailures();
    }

    /** Records waiting in the spool right now. */
    public int spooled() {
        return spool.size();
    }
}
