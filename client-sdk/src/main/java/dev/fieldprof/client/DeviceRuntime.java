package dev.fieldprof.client;

import dev.fieldprof.client.ledger.PrivacyBudget;
import dev.fieldprof.client.ledger.PrivacyLedger;
import dev.fieldprof.client.state.AtomicFiles;
import dev.fieldprof.client.state.EpochState;
import dev.fieldprof.client.state.StateLock;
import dev.fieldprof.client.tracing.DevicePathTracer;
import dev.fieldprof.client.tracing.PathReportSink;
import dev.fieldprof.client.transport.ReportTransport;
import dev.fieldprof.client.transport.TransportCounters;
import dev.fieldprof.ldp.ChaCha20RandomSource;
import dev.fieldprof.ldp.HypergeometricSampler;
import dev.fieldprof.ldp.LocalRandomizer;
import dev.fieldprof.ldp.RandomSource;
import dev.fieldprof.ldp.SubsetSelection;
import dev.fieldprof.paths.BranchTable;
import dev.fieldprof.paths.ProbePlanText;
import dev.fieldprof.schemas.FrequencyReport;
import dev.fieldprof.schemas.PrivacyMode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * One device's profiling runtime: exact event counts by epoch, at most one report per epoch of
 * exactly k events (an exact uniform sample of the epoch's events, then the ε-t randomizer), the
 * privacy ledger, and the transport (docs/architecture.md, "The privacy contract"; section 4.1 of
 * frequency profiling, docs/references.md). In the user-level mode ({@link
 * dev.fieldprof.ldp.PrivacyParameters}) k = 1 and the one sampled event is reported through the
 * {@link SubsetSelection} oracle instead. An epoch that saw fewer than k events carries its counts
 * forward, persisted atomically in the state directory, and is never sent early. The carried epoch
 * is claimed (read into memory) and handed back (written, memory emptied) under the state
 * directory's lock at each epoch end and checkpoint, so processes of one app version that overlap
 * share it: each carried event is in one runtime's memory or in the file, never in both, and only
 * one process reports it. Epochs end on {@link #endEpoch()} or, with a configured span, on a shared
 * daemon scheduler thread. Instrumented code reaches it through {@link Probes}.
 *
 * <p>A runtime that makes its own transport ({@link #start(ClientConfig)}) decides as it starts
 * whether a report may be due in this run: when its budget or the day's cap is spent, its Kafka
 * transport does not connect unless the spool holds reports of an earlier run, so the broker learns
 * nothing of a run that cannot report.
 *
 * <p>Path tracing is opt-in ({@link ClientConfig#pathsEnabled()}, off by default): then a {@link
 * DevicePathTracer} ({@link ClientConfig#pathTracer()} says which) is installed into {@link
 * PathProbes}, following the edge model topic when the transport is Kafka, its reports cut at each
 * epoch end and at close. Path reports are <b>not randomized</b>: they carry the traced methods'
 * paths as they ran; the ledger shows that path tracing is on and counts them.
 */
public final class DeviceRuntime implements AutoCloseable {
    private static final Set<DeviceRuntime> OPEN = ConcurrentHashMap.newKeySet();
    private static volatile ScheduledExecutorService scheduler;
    private static final java.util.concurrent.atomic.AtomicBoolean EXIT_HOOK =
            new java.util.concurrent.atomic.AtomicBoolean();

    private final ClientConfig config;
    private final String deviceId;
    private final EventCounters counters;
    private final RandomSource random;
    private final LocalRandomizer randomizer;

    /** The user-level mode's oracle, null in ε-t mode. */
    private final SubsetSelection oracle;

    private final ReportTransport transport;
    private final boolean ownsTransport;
    private final boolean reportMayBeDueAtStart;
    private final PrivacyLedger ledger;
    private final PrivacyBudget budget;
    private volatile javax.management.ObjectName jmxName;
    private final Clock clock;
    private final Path stateFile;
    private final List<ScheduledFuture<?>> tasks = new ArrayList<>();
    private volatile DevicePaths paths;
    private final java.util.concurrent.atomic.AtomicLong schedulerFailures =
            new java.util.concurrent.atomic.AtomicLong();
    private volatile String pathsOff;

    // Guarded by this.
    private long[] pending;
    private long pendingTotal;
    private long epochStartMillis;
    private long droppedEvents;
    private long reportsMade;
    private long epochsCarried;
    private long stateWriteFailures;
    private long stateLockTimeouts;
    private String lastStateFailure;
    private long epochFailures;
    private String stateDiscarded;
    private boolean pendingDirty;
    private boolean closed;

    /** What {@link #endEpoch()} did. */
    public enum Outcome {
        /** A report of k sampled, randomized events went to the transport. */
        REPORTED,
        /** Fewer than k events so far: the counts carry forward (persisted), nothing is sent. */
        CARRIED_FORWARD,
        /** The reports-per-day cap was reached: the epoch's events were discarded unsent. */
        SKIPPED_BY_CAP,
        /**
         * The report would exceed the device's privacy budget for the period: the epoch's events
         * were discarded unsent.
         */
        SKIPPED_BY_BUDGET,
        /** An internal failure (counted); the counts carry forward. */
        FAILED,
        /** The runtime is closed. */
        CLOSED
    }

    /**
     * The result of ending one epoch. It holds no event count: raw counts never leave the runtime,
     * not even in its results, counters or messages (a host may log or export them).
     *
     * @param reportId the report's id when one was made
     */
    public record EpochResult(Outcome outcome, Optional<String> reportId) {}

    /**
     * Counters of the runtime itself (the transport has its own): what happened to epochs and
     * reports, never how many events the program ran.
     *
     * @param stateWriteFailures state files that could not be written or read (a report it was for
     *     was not made)
     * @param stateLockTimeouts epoch ends refused (nothing reported or carried: the events stay in
     *     memory for the next) and checkpoints deferred because the state directory's lock was not
     *     obtained within {@link ClientConfig#stateLockWait()}
     * @param lastStateFailure what the latest of those two was
     */
    public record RuntimeCounters(
            long reportsMade,
            long epochsCarried,
            long droppedEvents,
            long stateWriteFailures,
            long epochFailures,
            Optional<String> stateDiscarded,
            long stateLockTimeouts,
            Optional<String> lastStateFailure) {}

    /** Makes the runtime's transport once the runtime knows whether a report may be due. */
    @FunctionalInterface
    private interface TransportFor {
        ReportTransport create(boolean reportMayBeDue);
    }

    private DeviceRuntime(
            ClientConfig config,
            TransportFor transportFor,
            boolean ownsTransport,
            RandomSource random,
            Clock clock)
            throws IOException {
        this.config = config;
        this.clock = clock;
        this.random = random;
        this.ownsTransport = ownsTransport;
        AtomicFiles.createPrivateDirectories(config.stateDir());
        this.deviceId = deviceIdOf(config);
        this.counters = new EventCounters(config.methodCount());
        this.randomizer = new LocalRandomizer(config.privacy(), random);
        this.oracle =
                config.privacy().mode() == PrivacyMode.USER_LEVEL
                        ? new SubsetSelection(config.methodCount(), config.privacy().epsilon())
                        : null;
        this.ledger =
                PrivacyLedger.open(
                        config.stateDir(),
                        deviceId,
                        config.appVersion(),
                        config.configId(),
                        config.privacy(),
                        config.reportsPerDayCap(),
                        config.stateLockWait(),
                        config.shuffler().orElse(null));
        this.budget =
                PrivacyBudget.open(
                        config.stateDir(),
                        config.budget(),
                        config.budgetPeriod(),
                        config.stateLockWait());
        this.stateFile = config.stateDir().resolve(stateFileName(config.appVersion()));
        loadPending();
        this.reportMayBeDueAtStart = reportMayBeDue(clock.instant());
        // Last: nothing above may fail after the transport (and its thread) exists.
        this.transport = transportFor.create(reportMayBeDueAtStart);
    }

    /**
     * Whether a report may be due at {@code now} as far as the ledger and budget tell before any
     * event: the day's cap and the budget allow one more report. When not, this run's own Kafka
     * transport does not connect at start (only a spool left by an earlier run makes it), so the
     * broker learns nothing of a run that cannot report: not its address, start or length.
     */
    private boolean reportMayBeDue(Instant now) {
        return ledger.mayReport(now) && budget.allows(now, ledger.userLevelEpsilonPerReport());
    }

    /**
     * Starts a runtime with the transport the configuration names and a cryptographically secure
     * generator, a {@link ChaCha20RandomSource} keyed from the JDK's DRBG (per report it costs
     * about a quarter of a millisecond less than drawing from the DRBG itself; pass a {@link
     * dev.fieldprof.ldp.SecureRandomSource} to the other {@code start} for that). Thread-safe:
     * counting from any thread, epochs end one at a time, so the runtime's own generator is only
     * drawn from under its lock.
     *
     * <pre>{@code
     * DeviceRuntime runtime = DeviceRuntime.start(ClientConfig.builder()
     *         .appVersion("demo:1.0").methodCount(120) // user-level, ln 9 a report and a day
     *         .stateDir(Path.of("state")).build());
     * Probes.install(runtime);
     * }</pre>
     *
     * @throws IOException if the state directory cannot be created or read
     */
    public static DeviceRuntime start(ClientConfig config) throws IOException {
        if (config == null) {
            throw new IllegalArgumentException("config is required");
        }
        return start(
                config,
                reportMayBeDue -> ReportTransports.create(config, reportMayBeDue),
                true,
                new ChaCha20RandomSource(),
                Clock.systemUTC(),
                null);
    }

    /**
     * Starts a runtime with a given transport (not closed by the runtime, so simulators may share
     * one), randomness (seeded only in tests and simulations) and clock.
     */
    public static DeviceRuntime start(
            ClientConfig config, ReportTransport transport, RandomSource random, Clock clock)
            throws IOException {
        return start(config, transport, false, random, clock);
    }

    /**
     * As above, with path reports going to {@code pathSink} (not closed by the runtime) instead of
     * Kafka, when the configuration opts in to path tracing ({@link ClientConfig#pathsEnabled()})
     * and the program carries its branch description. Path reports are not randomized.
     */
    public static DeviceRuntime start(
            ClientConfig config,
            ReportTransport transport,
            RandomSource random,
            Clock clock,
            PathReportSink pathSink)
            throws IOException {
        return start(config, transport, false, random, clock, pathSink);
    }

    private static DeviceRuntime start(
            ClientConfig config,
            ReportTransport transport,
            boolean ownsTransport,
            RandomSource random,
            Clock clock)
            throws IOException {
        return start(config, transport, ownsTransport, random, clock, null);
    }

    private static DeviceRuntime start(
            ClientConfig config,
            ReportTransport transport,
            boolean ownsTransport,
            RandomSource random,
            Clock clock,
            PathReportSink pathSink)
            throws IOException {
        if (transport == null) {
            throw new IllegalArgumentException("config, transport, random and clock are required");
        }
        return start(config, reportMayBeDue -> transport, ownsTransport, random, clock, pathSink);
    }

    private static DeviceRuntime start(
            ClientConfig config,
            TransportFor transportFor,
            boolean ownsTransport,
            RandomSource random,
            Clock clock,
            PathReportSink pathSink)
            throws IOException {
        if (config == null || random == null || clock == null) {
            throw new IllegalArgumentException("config, transport, random and clock are required");
        }
        DeviceRuntime runtime =
                new DeviceRuntime(config, transportFor, ownsTransport, random, clock);
        try {
            runtime.startPaths(pathSink);
            runtime.schedule();
        } catch (IOException | RuntimeException e) {
            if (ownsTransport) {
                runtime.transport.close();
            }
            throw e;
        }
        OPEN.add(runtime);
        runtime.jmxName = DeviceMetrics.register(runtime, config.appVersion());
        if (EXIT_HOOK.compareAndSet(false, true)) {
            Runtime.getRuntime()
                    .addShutdownHook(new Thread(DeviceRuntime::atExit, "fieldprof-exit"));
        }
        return runtime;
    }

    /** Path tracing if the configuration opts in; a failure leaves it off, never the host down. */
    private void startPaths(PathReportSink pathSink) throws IOException {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        ClassLoader from = loader != null ? loader : DeviceRuntime.class.getClassLoader();
        boolean agent = LoadTimeInstrumentation.described();
        BranchTable table =
                agent ? LoadTimeInstrumentation.branches() : DevicePaths.tableOnClasspath(from);
        try {
            ProbePlanText plan =
                    agent ? LoadTimeInstrumentation.plan() : ProbePlanText.fromClasspath(from);
            paths = DevicePaths.start(config, deviceId, ledger, table, plan, pathSink);
            pathsOff = paths == null ? DevicePaths.whyOff(config, table, pathSink) : null;
        } catch (RuntimeException e) {
            paths = null;
            pathsOff = "could not start: " + e;
            ledger.recordPathTracing(false);
        }
    }

    /**
     * The device id of a runtime of {@code config}: the configured one, else the one kept in its
     * state directory, created there on first use.
     */
    static String deviceIdOf(ClientConfig config) throws IOException {
        if (config.deviceId().isPresent()) {
            return config.deviceId().get();
        }
        AtomicFiles.createPrivateDirectories(config.stateDir());
        return persistentDeviceId(config.stateDir());
    }

    private static String persistentDeviceId(Path stateDir) throws IOException {
        Path file = stateDir.resolve("device-id");
        try {
            String stored = Files.readString(file, StandardCharsets.UTF_8).trim();
            if (!stored.isEmpty()) {
                return stored;
            }
        } catch (NoSuchFileException e) {
            // first start on this device
        }
        String id = UUID.randomUUID().toString();
        AtomicFiles.write(file, id.getBytes(StandardCharsets.UTF_8));
        return id;
    }

    /**
     * Events of the open epoch, in memory and carried in the state file: for the SDK's own tests,
     * never for output.
     */
    synchronized long openEpochEvents() {
        absorb();
        long carried = 0;
        try {
            EpochState state = EpochState.readFrom(stateFile);
            if (state != null && matches(state)) {
                carried = state.total();
            }
        } catch (IOException | RuntimeException e) {
            // unreadable: nothing carried
        }
        return pendingTotal + carried;
    }

    /**
     * Where a runtime of {@code config} keeps its open epoch's counts (readable by the device's
     * user only): for tools that inspect a device's state, with {@link
     * dev.fieldprof.client.state.EpochState#readFrom}.
     */
    public static Path epochStateFile(ClientConfig config) {
        return config.stateDir().resolve(stateFileName(config.appVersion()));
    }

    static String stateFileName(String appVersion) {
        return "epoch-"
                + appVersion.replaceAll("[^A-Za-z0-9._-]", "_")
                + "-"
                + Integer.toHexString(appVersion.hashCode())
                + ".state";
    }

    /**
     * Starts with an empty open epoch in memory; the epoch carried in the state file stays there
     * until an epoch end or checkpoint claims it ({@link #claimCarried()}), and only its start is
     * read now, so that the first epoch end comes a span after it.
     */
    private void loadPending() {
        pending = new long[config.methodCount()];
        epochStartMillis = clock.millis();
        try {
            EpochState state = EpochState.readFrom(stateFile);
            if (state == null) {
                return;
            }
            if (matches(state)) {
                epochStartMillis = state.epochStartMillis();
            } else {
                stateDiscarded = "configuration changed: " + state;
                pendingDirty = true; // overwrite it at the next checkpoint
            }
        } catch (IOException | RuntimeException e) {
            stateDiscarded = "unreadable epoch state: " + e.getMessage();
            pendingDirty = true;
        }
    }

    private boolean matches(EpochState state) {
        return state.matches(
                config.appVersion(), config.configId(), config.privacy().k(), config.methodCount());
    }

    /** The counts {@link #claimCarried()} took from the state file, to give back on a failure. */
    private record Claimed(long[] counts, long total, long previousStartMillis) {}

    /**
     * Takes the epoch carried in the state file into this runtime's open epoch. Call with the state
     * directory's lock held, and before it is released either write the file ({@link #handOver()}:
     * the claimed events then live in the file or in this runtime's memory, never in both) or give
     * them back ({@link #unclaim}): so two processes of the app version that overlap never both
     * report them. A file of another configuration, or one that cannot be read, is claimed as empty
     * and replaced by the next write.
     *
     * @return what was claimed, or null
     */
    private Claimed claimCarried() {
        EpochState state;
        try {
            state = EpochState.readFrom(stateFile);
        } catch (IOException | RuntimeException e) {
            stateDiscarded = "unreadable epoch state: " + e.getMessage();
            return null;
        }
        if (state == null) {
            return null;
        }
        if (!matches(state)) {
            stateDiscarded = "configuration changed: " + state;
            return null;
        }
        Claimed claimed = new Claimed(state.counts(), state.total(), epochStartMillis);
        for (int v = 0; v < claimed.counts().length; v++) {
            pending[v] += claimed.counts()[v];
        }
        pendingTotal += claimed.total();
        epochStartMillis = Math.min(epochStartMillis, state.epochStartMillis());
        return claimed;
    }

    /** Gives back what {@link #claimCarried()} took: the file, not written, still holds it. */
    private void unclaim(Claimed claimed) {
        if (claimed == null) {
            return;
        }
        for (int v = 0; v < claimed.counts().length; v++) {
            pending[v] -= claimed.counts()[v];
        }
        pendingTotal -= claimed.total();
        epochStartMillis = claimed.previousStartMillis();
    }

    /**
     * Writes this runtime's open epoch to the state file (atomically, replacing it) and empties it
     * in memory. Call with the state directory's lock held, after {@link #claimCarried()}: from
     * then on the events are carried, for whichever runtime of the app version claims them next
     * (this one at its next epoch end or checkpoint, or a later run). A failed write leaves the
     * memory as it was.
     */
    private void handOver() throws IOException {
        new EpochState(
                        config.appVersion(),
                        config.configId(),
                        config.privacy().k(),
                        epochStartMillis,
                        pending)
                .writeTo(stateFile);
        pending = new long[config.methodCount()];
        pendingTotal = 0;
        pendingDirty = false;
    }

    /**
     * {@link #handOver()} after the claimed epoch was used up (reported, or discarded by the cap or
     * the budget): a failure is counted, and the file that still holds the used epoch is deleted so
     * that no later run uses it again.
     */
    private void handOverUsedUp() {
        try {
            handOver();
        } catch (IOException | RuntimeException e) {
            stateWriteFailures++;
            try {
                Files.deleteIfExists(stateFile);
            } catch (IOException | RuntimeException ignored) {
                // counted above; nothing else can be done for it here
            }
        }
    }

    /** {@link #handOver()} of an epoch carried on; on a failure the claim is given back. */
    private void handOverOrUnclaim(Claimed claimed) {
        try {
            handOver();
        } catch (IOException | RuntimeException e) {
            stateWriteFailures++;
            unclaim(claimed);
        }
    }

    private void schedule() {
        Optional<Duration> span = config.epochSpan();
        Optional<Duration> checkpoint = config.checkpointInterval();
        if (span.isEmpty() && checkpoint.isEmpty()) {
            return;
        }
        ScheduledExecutorService executor = scheduler();
        synchronized (this) {
            // The epoch began when its first event was kept, maybe in an earlier run of the
            // program: it ends a span after that, not a span after this start (else a program that
            // always runs less than a span would never report).
            span.ifPresent(
                    s ->
                            tasks.add(
                                    executor.scheduleAtFixedRate(
                                            this::endEpochQuietly,
                                            firstEpochEndDelayMillis(s),
                                            s.toMillis(),
                                            TimeUnit.MILLISECONDS)));
            checkpoint.ifPresent(
                    c ->
                            tasks.add(
                                    executor.scheduleWithFixedDelay(
                                            this::checkpointQuietly,
                                            c.toMillis(),
                                            c.toMillis(),
                                            TimeUnit.MILLISECONDS)));
        }
    }

    /** Milliseconds from now to the end of the epoch carried over (0 if it is already over). */
    long firstEpochEndDelayMillis(Duration span) {
        long end = epochStartMillis + span.toMillis();
        return Math.max(0, Math.min(span.toMillis(), end - clock.millis()));
    }

    private static ScheduledExecutorService scheduler() {
        ScheduledExecutorService s = scheduler;
        if (s == null) {
            synchronized (DeviceRuntime.class) {
                s = scheduler;
                if (s == null) {
                    ScheduledThreadPoolExecutor executor =
                            new ScheduledThreadPoolExecutor(
                                    1,
                                    runnable -> {
                                        Thread thread = new Thread(runnable, "fieldprof-epochs");
                                        thread.setDaemon(true);
                                        return thread;
                                    });
                    executor.setRemoveOnCancelPolicy(true);
                    scheduler = s = executor;
                }
            }
        }
        return s;
    }

    /**
     * At JVM exit every open runtime either ends its epoch (epoch = one program run) and gives its
     * own transport a bounded moment to deliver, or persists the open epoch for the next run.
     */
    private static void atExit() {
        for (DeviceRuntime runtime : OPEN) {
            try {
                if (runtime.config.endEpochAtExit()) {
                    runtime.endEpoch();
                    // A report the ledger counts must not vanish with the JVM: what the broker
                    // has not taken within the moment given goes to the spool for the next run.
                    if (runtime.ownsTransport
                            && !runtime.transport.flush(runtime.config.exitWait())) {
                        runtime.transport.persistUndelivered(Duration.ofSeconds(1));
                    }
                    // The path reports the epoch's end just cut are queued on their own sink.
                    DevicePaths paths = runtime.paths;
                    if (paths != null) {
                        paths.flushAtExit(runtime.config.exitWait());
                    }
                } else {
                    runtime.checkpoint();
                }
            } catch (Throwable ignored) {
                // exit must go on for the host; whatever is unsaved is lost, never half-written
            }
        }
    }

    EventCounters counters() {
        return counters;
    }

    /** Counts one event from the calling thread, as {@link Probes#enter} would. Never throws. */
    public void record(int methodId) {
        try {
            Probes.enter(this, methodId);
        } catch (Throwable ignored) {
            // same contract as Probes.enter
        }
    }

    private void endEpochQuietly() {
        try {
            endEpoch();
        } catch (Throwable e) {
            // The scheduler thread must survive (a task that throws is never run again).
            schedulerFailures.incrementAndGet();
        }
    }

    private void checkpointQuietly() {
        try {
            checkpoint();
        } catch (Throwable e) {
            schedulerFailures.incrementAndGet();
        }
    }

    /**
     * The counts of path tracing's sink: path reports sent, waiting in its spool, dropped by reason
     * (all zero when path tracing is off).
     */
    public TransportCounters pathReportCounters() {
        DevicePaths p = paths;
        return p == null ? TransportCounters.sum(List.of()) : p.reportCounters();
    }

    /** Path reports dropped by path tracing's sink (0 when path tracing is off). */
    public long pathReportsDropped() {
        return pathReportCounters().droppedTotal();
    }

    /**
     * Failures the device's background threads caught and survived: its epoch scheduler, its own
     * transport's publisher, and path tracing's model feed and sink. None dies of one or prints.
     */
    public long backgroundFailures() {
        DevicePaths p = paths;
        return schedulerFailures.get()
                + (transport instanceof dev.fieldprof.client.transport.AsyncPublisher<?> publisher
                        ? publisher.threadFailures()
                        : 0)
                + (p == null ? 0 : p.backgroundFailures());
    }

    /**
     * The start of the UTC day of {@code instant}: what a report says of when it was made. No job
     * reads the field (windows use the Kafka record timestamp); the exact time would tell the
     * collector when each run of the program ended.
     */
    static Instant dayOf(Instant instant) {
        return instant.truncatedTo(ChronoUnit.DAYS);
    }

    /**
     * Ends the current epoch now: with at least k events (counted plus carried), samples exactly k
     * uniformly, randomizes them and hands one report to the transport; with fewer, persists the
     * counts and sends nothing. Does not throw on I/O failures (they are counted).
     */
    public synchronized EpochResult endEpoch() {
        if (closed) {
            return new EpochResult(Outcome.CLOSED, Optional.empty());
        }
        DevicePaths p = paths;
        if (p != null) {
            p.endEpoch(); // path reports end with the epoch too (they are not randomized)
        }
        absorb();
        int k = config.privacy().k();
        try {
            Instant now = clock.instant();
            double reportEpsilon = ledger.userLevelEpsilonPerReport();
            List<Integer> counts = new ArrayList<>();
            List<Integer> subset = new ArrayList<>();
            long sequence;
            // Every program reporting from this state directory (by default every process and
            // version of this app; a configured one may be shared) checks and spends under its
            // lock, on the ledger and budget as the files hold
            // them now: none reports on spending it has not seen, none numbers a report alike.
            // The epoch carried in the state file is claimed under the same lock, so that of two
            // processes of this app version only one reports its events.
            Claimed claimed = null;
            try (StateLock lock = StateLock.acquire(config.stateDir(), config.stateLockWait())) {
                claimed = claimCarried();
                if (pendingTotal < k) {
                    epochsCarried++;
                    handOverOrUnclaim(claimed);
                    return new EpochResult(Outcome.CARRIED_FORWARD, Optional.empty());
                }
                ledger.reload();
                budget.reload();
                if (!ledger.mayReport(now)) {
                    resetPending(now);
                    claimed = null; // used up
                    handOverUsedUp();
                    try {
                        ledger.recordSkippedByCap();
                    } catch (IOException e) {
                        stateFailed(e);
                    }
                    return new EpochResult(Outcome.SKIPPED_BY_CAP, Optional.empty());
                }
                if (!budget.allows(now, reportEpsilon)) {
                    resetPending(now);
                    claimed = null; // used up
                    handOverUsedUp();
                    try {
                        ledger.recordSkippedByBudget();
                    } catch (IOException e) {
                        stateFailed(e);
                    }
                    return new EpochResult(Outcome.SKIPPED_BY_BUDGET, Optional.empty());
                }
                randomize(k, counts, subset);
                // The ledger is written before the report can leave (a crash only over-counts),
                // and numbers the report: a report the ledger could not record does not leave
                // (fail closed) and its events stay pending for the next epoch end.
                budget.spend(now, reportEpsilon);
                sequence = ledger.recordReport(now).reports();
                resetPending(now);
                claimed = null; // used up
                handOverUsedUp(); // the new, empty epoch and its start
            } catch (RuntimeException e) {
                unclaim(claimed); // as below
                throw e;
            } catch (IOException e) {
                // Nothing was reported: the carried events stay in the file, not also here.
                unclaim(claimed);
                stateFailed(e);
                return new EpochResult(Outcome.FAILED, Optional.empty());
            }
            String reportId = UUID.randomUUID().toString();
            FrequencyReport report =
                    FrequencyReport.newBuilder()
                            .setReportId(reportId)
                            .setDeviceId(deviceId)
                            .setAppVersion(config.appVersion())
                            .setConfigId(config.configId())
                            .setK(k)
                            .setCreatedAtMillis(dayOf(now))
                            .setCounts(counts)
                            .setSequence(sequence)
                            .setSubset(subset)
                            .setEpsilon(config.privacy().epsilon())
                            .setT(config.privacy().t())
                            .build();
            reportsMade++;
            transport.submit(report);
            return new EpochResult(Outcome.REPORTED, Optional.of(reportId));
        } catch (RuntimeException e) {
            epochFailures++;
            return new EpochResult(Outcome.FAILED, Optional.empty());
        }
    }

    /**
     * Samples exactly k of the pending events and randomizes them into {@code counts} (ε-t mode) or
     * {@code subset} (user-level mode: the one sampled event through the oracle).
     */
    private void randomize(int k, List<Integer> counts, List<Integer> subset) {
        int[] sample = HypergeometricSampler.sampleMultivariate(random, pending, k);
        if (oracle == null) {
            for (int z : randomizer.randomize(sample)) {
                counts.add(z);
            }
        } else {
            // k = 1: the one sampled event, uniform over the epoch's events.
            int event = 0;
            while (sample[event] == 0) {
                event++;
            }
            for (int z : oracle.randomize(random, event)) {
                subset.add(z);
            }
        }
    }

    /**
     * Counts a state failure: the lock not obtained in time, or a file unreadable or unwritable.
     */
    private void stateFailed(IOException e) {
        if (e instanceof StateLock.Busy) {
            stateLockTimeouts++;
        } else {
            stateWriteFailures++;
        }
        lastStateFailure = e.getMessage();
    }

    /** Moves the counters' new events into the pending counts; returns how many. */
    private long absorb() {
        EventCounters.Delta delta = counters.drain();
        droppedEvents += delta.dropped();
        long[] d = delta.counts();
        for (int v = 0; v < d.length; v++) {
            pending[v] += d[v];
        }
        pendingTotal += delta.total();
        if (delta.total() > 0) {
            pendingDirty = true;
        }
        return delta.total();
    }

    private void resetPending(Instant now) {
        pending = new long[config.methodCount()];
        pendingTotal = 0;
        epochStartMillis = now.toEpochMilli();
        pendingDirty = true;
    }

    /**
     * Persists the open epoch's counts without ending it, so that a kill -9 loses at most the
     * events since the last checkpoint: under the state directory's lock, the events in memory join
     * the epoch carried in the state file (see {@link #handOver()}). Runs periodically and at JVM
     * shutdown. Never throws; a lock not obtained in time defers it (counted).
     */
    public synchronized void checkpoint() {
        if (closed) {
            return;
        }
        try {
            absorb();
            if (!pendingDirty) {
                return; // nothing new since the last write: spare the disk an fsync
            }
            try (StateLock lock = StateLock.acquire(config.stateDir(), config.stateLockWait())) {
                Claimed claimed = claimCarried();
                try {
                    handOver();
                } catch (IOException | RuntimeException e) {
                    unclaim(claimed);
                    throw e;
                }
            } catch (IOException e) {
                stateFailed(e);
            }
        } catch (RuntimeException e) {
            epochFailures++;
        }
    }

    public ClientConfig config() {
        return config;
    }

    /** The device id reports carry (configured, or created once in the state directory). */
    public String deviceId() {
        return deviceId;
    }

    /** This device's privacy ledger for the configured app version. */
    /** The device's privacy budget over all its app versions (see {@link PrivacyBudget}). */
    public PrivacyBudget budget() {
        return budget;
    }

    public PrivacyLedger.Entry ledger() {
        return ledger.entry();
    }

    /** The path tracer when the device opted in to path tracing and it runs. */
    public Optional<DevicePathTracer> pathTracer() {
        DevicePaths p = paths;
        return p == null ? Optional.empty() : Optional.of(p.tracer());
    }

    /** Why path tracing is off on this runtime, or empty when it runs. */
    public Optional<String> pathTracingOffReason() {
        return Optional.ofNullable(pathsOff);
    }

    /**
     * Whether this run started with a report possibly due: the day's cap and the budget allowed one
     * more report. When not, the runtime's own Kafka transport did not connect at start unless its
     * spool held reports of an earlier run.
     */
    public boolean reportMayBeDueAtStart() {
        return reportMayBeDueAtStart;
    }

    /**
     * Whether this run started without contacting a broker because no report could be due: no
     * report was due and its transport did not connect at start (a transport that never connects,
     * such as a file, counts too when no report was due).
     */
    public boolean startedWithoutConnection() {
        return !reportMayBeDueAtStart && !transport.connectsAtStart();
    }

    public TransportCounters transportCounters() {
        return transport.counters();
    }

    public ReportTransport transport() {
        return transport;
    }

    public synchronized RuntimeCounters counters(boolean includeOpenEpoch) {
        if (includeOpenEpoch && !closed) {
            absorb();
        }
        return new RuntimeCounters(
                reportsMade,
                epochsCarried,
                droppedEvents,
                stateWriteFailures,
                epochFailures,
                Optional.ofNullable(stateDiscarded),
                stateLockTimeouts,
                Optional.ofNullable(lastStateFailure));
    }

    /**
     * Stops the epoch timer, persists the open epoch (it is not ended: fewer than k events are
     * never sent early), and closes the transport if the runtime created it. Idempotent.
     */
    @Override
    public void close() {
        List<ScheduledFuture<?>> cancelled;
        synchronized (this) {
            if (closed) {
                return;
            }
            checkpoint();
            closed = true;
            cancelled = new ArrayList<>(tasks);
            tasks.clear();
        }
        for (ScheduledFuture<?> task : cancelled) {
            task.cancel(false);
        }
        OPEN.remove(this);
        DeviceMetrics.unregister(jmxName);
        DevicePaths p = paths;
        if (p != null) {
            p.close();
        }
        if (ownsTransport) {
            transport.close();
        }
    }

    @Override
    public String toString() {
        return "DeviceRuntime(" + deviceId + ", " + config + ")";
    }
}
