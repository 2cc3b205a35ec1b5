package dev.fieldprof.client.transport.kafka;

import dev.fieldprof.client.transport.AsyncReportTransport;
import dev.fieldprof.client.transport.DropReason;
import dev.fieldprof.client.transport.ReportSpool;
import dev.fieldprof.schemas.FrequencyReport;
import dev.fieldprof.schemas.RecordCodec;
import dev.fieldprof.sealing.SealingException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.RetriableException;

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
public final class KafkaReportTransport extends AsyncReportTransport {
    private static final RecordCodec<FrequencyReport> CODEC = RecordCodec.of(FrequencyReport.class);
    private static final Duration MIN_BACKOFF = Duration.ofMillis(200);
    private static final Duration MAX_BACKOFF = Duration.ofMinutes(1);

    private final Function<Properties, Producer<String, byte[]>> producerFactory;
    private final Properties producerProperties;
    private final String topic;
    private final Duration timeout;
    private final ReportSpool spool;
    // The shuffled mode's sealing and topic; null: every report goes to `topic` as it is.
    private final SealedReports sealing;
    private final String shufflerTopic;
    // Whether prepare() connects: a report may be due in this run, or the spool holds some.
    private final boolean connectAtStart;
    private final ConcurrentLinkedQueue<FrequencyReport> failed = new ConcurrentLinkedQueue<>();
    // Sends whose callback has not run yet; a flush is not done while any is in flight.
    private final Set<FrequencyReport> inFlight = ConcurrentHashMap.newKeySet();
    // Set at process exit: reports are written to the spool instead of sent, and the sends in
    // flight are spooled too (the next run sends them; the job counts a numbered report once).
    private volatile boolean persisting;
    // Written on the publisher thread only; read by connected() from any thread.
    private volatile Producer<String, byte[]> producer;
    // Read by flush callers (the exiting thread) as well as the publisher thread.
    private volatile long retryAtNanos;
    private Duration backoff = MIN_BACKOFF;

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
        super("kafka", checked(settings).queueCapacity(), Duration.ofMillis(100));
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
        this.timeout = settings.timeout();
        this.producerProperties =
                DeviceProducers.properties(
                        settings.bootstrapServers(),
                        timeout,
                        "fieldprof-device",
                        settings.clientProperties());
        this.producerFactory = producerFactory != null ? producerFactory : DeviceProducers::create;
        this.spool = new ReportSpool(settings.spoolDir(), settings.spoolMaxBytes(), stats);
        // Decided once, on the spool as this run finds it.
        this.connectAtStart = settings.connectAtStart() || !spool.isEmpty();
        start();
    }

    private static KafkaTransportSettings checked(KafkaTransportSettings settings) {
        if (settings == null) {
            throw new IllegalArgumentException(
                    "settings must be given (KafkaTransportSettings.builder(...).build())");
        }
        return settings;
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
    protected void deliver(FrequencyReport report) {
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
    private void spoolIfOwned(FrequencyReport report) {
        if (inFlight.remove(report)) {
            spool.add(report);
            outcomesChanged();
        }
    }

    private void send(FrequencyReport report) {
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
                                if (exception == null) {
                                    stats.sent();
                                } else if (permanent(exception)) {
                                    stats.dropped(DropReason.REJECTED);
                                } else {
                                    countAuthenticationFailure(exception);
                                    failed.add(report); // spooled by the publisher thread
                                }
                                inFlight.remove(report);
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
     * The record {@code report} is sent as, keyed by its device id: sealed to the shuffler's topic
     * when it is of the shuffled configuration, else as it is to the reports topic.
     *
     * @throws SealingException when it must be sealed and cannot be
     */
    private ProducerRecord<String, byte[]> record(FrequencyReport report) throws SealingException {
        if (sealing != null && sealing.seals(report)) {
            return new ProducerRecord<>(shufflerTopic, report.getDeviceId(), sealing.seal(report));
        }
        return new ProducerRecord<>(topic, report.getDeviceId(), CODEC.encode(report));
    }

    /** The shuffled mode's sealing, when this device's configuration is shuffled. */
    public Optional<SealedReports> sealing() {
        return Optional.ofNullable(sealing);
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
        FrequencyReport report;
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
     * to last longer. Once a retry fails the transport is offline and exit does not wait for the
     * spool.
     */
    @Override
    protected boolean awaitingOutcomes() {
        return !inFlight.isEmpty()
                || !failed.isEmpty()
                || (!persisting && !offline() && !spool.isEmpty());
    }

    @Override
    protected void idle() {
        spoolFailures();
        if (persisting) {
            spoolInFlight();
            return;
        }
        retrySpool();
    }

    /**
     * As the transport starts: creates the producer and fetches the topic's metadata while the
     * program runs. A short-lived program reports at its exit, and creating the Kafka client and
     * reaching the broker then took longer than the exit wait (2 s) on a cold JVM on a loaded
     * machine: the report waited in the spool for the next run. A broker that cannot be reached
     * takes the transport offline, as a failed send would. Skipped when no report is due in this
     * run and the spool is empty: then nothing tells the broker of the run (its address, start and,
     * through metadata refreshes, length), and a report made after all (a long run reaching a new
     * budget period) creates the producer as it is sent.
     */
    @Override
    protected void prepare() {
        if (!connectsAtStart()) {
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
     * At process exit: from now on reports go to the on-disk spool, and so do the sends still in
     * flight (the producer may yet deliver them before the JVM halts: a numbered report sent twice
     * counts once). Waits at most {@code timeout} for the publisher thread to write them.
     */
    @Override
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
        FrequencyReport report;
        while ((report = failed.poll()) != null) {
            spool.add(report);
        }
        outcomesChanged();
    }

    /** Moves every send in flight into the spool (the spool is thread-safe). */
    private void spoolInFlight() {
        for (FrequencyReport report : List.copyOf(inFlight)) {
            if (inFlight.remove(report)) {
                spool.add(report);
            }
        }
        outcomesChanged();
    }

    /** Sends spooled reports in order, synchronously, while the broker accepts them. */
    private void retrySpool() {
        if (spool.isEmpty()) {
            return;
        }
        if (offline() && System.nanoTime() - retryAtNanos < 0) {
            return;
        }
        while (true) {
            Optional<ReportSpool.Spooled> next = spool.oldest();
            if (next.isEmpty()) {
                goOnline();
                return;
            }
            Optional<Producer<String, byte[]>> p = producer();
            if (p.isEmpty()) {
                outcomesChanged(); // producer() went offline: exit need not wait for the spool
                return;
            }
            FrequencyReport report = next.get().report();
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
     * Whether the transport connects as it starts: a report may be due in this run, or the spool
     * holds reports of an earlier run.
     */
    @Override
    public boolean connectsAtStart() {
        return connectAtStart;
    }

    /** Whether the transport has created its Kafka client (and so contacted the broker). */
    public boolean connected() {
        return producer != null;
    }

    @Override
    protected void shutdown() {
        DeviceProducers.closeOnPublisherThread(producer, timeout);
        spoolFailures();
    }

    /** Reports waiting in the spool right now. */
    public int spooled() {
        return spool.size();
    }
}
