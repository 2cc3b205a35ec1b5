package dev.fieldprof.client.ledger;

import dev.fieldprof.client.state.AtomicFiles;
import dev.fieldprof.client.state.StateLock;
import dev.fieldprof.ldp.PrivacyParameters;
import dev.fieldprof.schemas.ShufflerTerms;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;

/**
 * The privacy ledger of one device and app version: how much it has reported and what that costs.
 * By the guarantee of the randomizer (docs/architecture.md, "The privacy contract": traces at
 * distance d give output probabilities within e^(ε·d/t)), one report of k events protects each t
 * changed events at ε, and the report's whole content (d = k) at ε·k/t. Across reports the losses
 * add (sequential composition), so the <em>user-level bound</em> for hiding everything the device
 * ever reported is Σ over reports of ε_i·k_i/t_i = ε·(events reported)/t for a fixed configuration.
 * Sampling k of an epoch's events can only lower the loss; the ledger ignores that gain and stays
 * an upper bound. A report is entered before it is handed to the transport, so a crash can only
 * over-count. A per-day cap (UTC days of the device clock; a clock set back to an earlier day stays
 * on the latest day seen) stops reporting when reached. Stored as a versioned properties file,
 * written atomically. Every write re-reads the file under the state directory's {@link StateLock}
 * and changes what it holds, so processes of the same app version sharing the directory count each
 * other's reports and never number two alike; a write that cannot get the lock in time fails (and a
 * report it was for is not made).
 *
 * <p>The ledger also shows whether path tracing is on and how many path reports (and bytes of path
 * data) the device has handed over for sending. <b>Path reports are not randomized</b>: they carry
 * the paths the traced methods took exactly as they ran, so no ε bounds them and they are not in
 * the user-level bound above; opting in to path tracing means sharing those paths. Path counts are
 * kept in memory as reports leave (the traced thread must not wait for a disk write) and persisted
 * with the next frequency report, epoch end or close, so a crash can lose the most recent ones.
 *
 * <p>In the shuffled mode a configuration's ε is each report's local ε₀: what holds for every
 * report whoever sees it, and what the bounds above add up. The central guarantee the analyst's
 * estimates state is much smaller, but it rests on the shuffler not colluding with the analyst and
 * on its minimum batch size (at the configuration's δ); the ledger names those terms apart and
 * never counts the central figure.
 */
public final class PrivacyLedger {
    private static final int FORMAT = 1;
    private static final String PREFIX = "ledger-";
    private static final String SUFFIX = ".properties";

    private final Path stateDir;
    private final Duration lockWait;
    private final Path file;
    private final String deviceId;
    private final String appVersion;
    private final String configId;
    private final PrivacyParameters parameters;
    private final int reportsPerDayCap;
    private final ShufflerTerms shuffler;
    private long reports;
    private long eventsReported;
    private double userLevelEpsilon;
    private LocalDate day;
    private int reportsOnDay;
    private long epochsSkippedByCap;
    private long epochsSkippedByBudget;
    private long lastReportMillis;
    private boolean pathTracing;
    private long pathReports;
    private long pathBytes;
    // Path reports counted since the last write, added to the file's counts at the next one.
    private long unsavedPathReports;
    private long unsavedPathBytes;

    /**
     * A read-only view of one ledger.
     *
     * @param pathTracing whether path tracing was on when the ledger was last written
     * @param pathReports path reports handed over for sending (not randomized)
     * @param pathBytes bytes of path data in them: coded paths, plus raw events in debug mode
     * @param shuffler the shuffled mode's terms, or null for a local-only configuration
     */
    public record Entry(
            String deviceId,
            String appVersion,
            String configId,
            double epsilon,
            int t,
            int k,
            long reports,
            long eventsReported,
            double userLevelEpsilon,
            int reportsPerDayCap,
            LocalDate day,
            int reportsOnDay,
            long epochsSkippedByCap,
            long epochsSkippedByBudget,
            long lastReportMillis,
            boolean pathTracing,
            long pathReports,
            long pathBytes,
            ShufflerTerms shuffler) {

        /** ε per t changed events: the event-level guarantee of every report. */
        public double epsilonPerTEvents() {
            return epsilon;
        }

        /** Lines for the CLI: {@code key value}. */
        public List<String> format() {
            List<String> lines = new ArrayList<>();
            lines.add("device " + deviceId);
            lines.add("app-version " + appVersion);
            lines.add("config " + configId);
            lines.add(
                    String.format(
                            Locale.ROOT, "epsilon-per-t-events %.6f (t=%d, k=%d)", epsilon, t, k));
            // What one whole report costs the device: the figure its budget counts.
            lines.add(
                    String.format(
                            Locale.ROOT, "user-level-epsilon-per-report %.6f", epsilon * k / t));
            if (shuffler != null) {
                lines.addAll(shuffledLines());
            }
            lines.add("reports " + reports);
            lines.add("events-reported " + eventsReported);
            lines.add(String.format(Locale.ROOT, "user-level-epsilon %.6f", userLevelEpsilon));
            lines.add(
                    "reports-on-day "
                            + reportsOnDay
                            + " of "
                            + reportsPerDayCap
                            + " ("
                            + (day == null ? "none yet" : day)
                            + ")");
            lines.add("epochs-skipped-by-cap " + epochsSkippedByCap);
            lines.add("epochs-skipped-by-budget " + epochsSkippedByBudget);
            lines.add(
                    "last-report "
                            + (lastReportMillis == 0
                                    ? "never"
                                    : Instant.ofEpochMilli(lastReportMillis)));
            lines.add(
                    "path-tracing "
                            + (pathTracing
                                    ? "on (path reports are NOT randomized: the paths are shared"
                                            + " as they ran, no epsilon applies)"
                                    : "off"));
            lines.add("path-reports " + pathReports);
            lines.add("path-bytes " + pathBytes);
            return lines;
        }

        /**
         * The shuffled mode: ε₀ is what every report holds on its own; the central guarantee is
         * stated apart, with what it depends on.
         */
        private List<String> shuffledLines() {
            return List.of(
                    "mode shuffled (reports leave sealed to the analyst's key, through the"
                            + " shuffler)",
                    String.format(
                            Locale.ROOT,
                            "epsilon0-per-report %.6f (local: holds for each report whoever sees"
                                    + " it; the figures below add it up)",
                            epsilon * k / t),
                    "central-guarantee-depends-on the shuffler not colluding with the analyst"
                            + " (if it does, only epsilon0 per report holds)",
                    "central-guarantee-min-batch-size " + shuffler.getMinBatchSize(),
                    "central-guarantee-delta " + shuffler.getDelta());
        }
    }

    private PrivacyLedger(
            Path stateDir,
            Duration lockWait,
            Path file,
            String deviceId,
            String appVersion,
            String configId,
            PrivacyParameters parameters,
            int reportsPerDayCap,
            ShufflerTerms shuffler) {
        this.stateDir = stateDir;
        this.lockWait = lockWait;
        this.file = file;
        this.deviceId = deviceId;
        this.appVersion = appVersion;
        this.configId = configId;
        this.parameters = parameters;
        this.reportsPerDayCap = reportsPerDayCap;
        this.shuffler = shuffler;
    }

    /**
     * Opens (or starts) the ledger of {@code appVersion} in {@code stateDir}, waiting at most
     * {@link StateLock#DEFAULT_WAIT} for the directory's lock. Thread-safe.
     *
     * <pre>{@code
     * PrivacyLedger ledger = PrivacyLedger.open(dir, "device-1", "demo:1.0", "default",
     *         new PrivacyParameters(PrivacyMode.USER_LEVEL, Math.log(9), 1, 1), 24);
     * }</pre>
     *
     * @param reportsPerDayCap reports allowed per UTC day, >= 1
     */
    public static PrivacyLedger open(
            Path stateDir,
            String deviceId,
            String appVersion,
            String configId,
            PrivacyParameters parameters,
            int reportsPerDayCap)
            throws IOException {
        return open(
                stateDir,
                deviceId,
                appVersion,
                configId,
                parameters,
                reportsPerDayCap,
                StateLock.DEFAULT_WAIT);
    }

    /**
     * As above, waiting at most {@code lockWait} for the state directory's lock whenever the ledger
     * is written.
     *
     * @throws StateLock.Busy if the lock was not obtained in time
     */
    public static PrivacyLedger open(
            Path stateDir,
            String deviceId,
            String appVersion,
            String configId,
            PrivacyParameters parameters,
            int reportsPerDayCap,
            Duration lockWait)
            throws IOException {
        return open(
                stateDir,
                deviceId,
                appVersion,
                configId,
                parameters,
                reportsPerDayCap,
                lockWait,
                null);
    }

    /**
     * As above, for a configuration of the shuffled mode when {@code shuffler} is set: the ledger
     * then names the terms its central guarantee depends on.
     *
     * @param shuffler the shuffled mode's terms, or null for a local-only configuration
     */
    public static PrivacyLedger open(
            Path stateDir,
            String deviceId,
            String appVersion,
            String configId,
            PrivacyParameters parameters,
            int reportsPerDayCap,
            Duration lockWait,
            ShufflerTerms shuffler)
            throws IOException {
        if (reportsPerDayCap < 1) {
            throw new IllegalArgumentException(
                    "reportsPerDayCap must be >= 1, got " + reportsPerDayCap);
        }
        PrivacyLedger ledger =
                new PrivacyLedger(
                        stateDir,
                        lockWait,
                        stateDir.resolve(fileName(appVersion)),
                        deviceId,
                        appVersion,
                        configId,
                        parameters,
                        reportsPerDayCap,
                        shuffler);
        try (StateLock lock = StateLock.acquire(stateDir, lockWait)) {
            if (!ledger.reload()) {
                ledger.persist(); // so that the CLI lists a device that has not reported yet
            }
        }
        return ledger;
    }

    /**
     * Replaces what this ledger holds with what its file holds now (another process of the same app
     * version may have reported since), keeping the path counts not yet written. Call with the
     * state directory's {@link StateLock} held.
     *
     * @return false if there is no file yet
     * @throws IOException if the file cannot be read or is not a ledger
     */
    public synchronized boolean reload() throws IOException {
        Properties stored = load(file);
        if (stored == null) {
            return false;
        }
        try {
            reports = Long.parseLong(stored.getProperty("reports", "0"));
            eventsReported = Long.parseLong(stored.getProperty("eventsReported", "0"));
            userLevelEpsilon = Double.parseDouble(stored.getProperty("userLevelEpsilon", "0"));
            String storedDay = stored.getProperty("day", "");
            day = storedDay.isEmpty() ? null : LocalDate.parse(storedDay);
            reportsOnDay = Integer.parseInt(stored.getProperty("reportsOnDay", "0"));
            epochsSkippedByCap = Long.parseLong(stored.getProperty("epochsSkippedByCap", "0"));
            epochsSkippedByBudget =
                    Long.parseLong(stored.getProperty("epochsSkippedByBudget", "0"));
            lastReportMillis = Long.parseLong(stored.getProperty("lastReportMillis", "0"));
            // Absent in ledgers written before path tracing existed: nothing was shared then.
            pathTracing = Boolean.parseBoolean(stored.getProperty("pathTracing", "false"));
            pathReports = Long.parseLong(stored.getProperty("pathReports", "0"));
            pathBytes = Long.parseLong(stored.getProperty("pathBytes", "0"));
        } catch (RuntimeException e) {
            throw new IOException("unreadable ledger " + file + ": " + e.getMessage(), e);
        }
        return true;
    }

    static String fileName(String appVersion) {
        String safe = appVersion.replaceAll("[^A-Za-z0-9._-]", "_");
        return PREFIX + safe + "-" + Integer.toHexString(appVersion.hashCode()) + SUFFIX;
    }

    private static Properties load(Path file) throws IOException {
        Properties p = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(reader);
        } catch (NoSuchFileException e) {
            return null;
        }
        String format = p.getProperty("format");
        if (!String.valueOf(FORMAT).equals(format)) {
            throw new IOException("unsupported ledger format " + format + " in " + file);
        }
        return p;
    }

    /**
     * Whether another report fits under the cap. The cap's day only moves forward: a clock set back
     * to an earlier day counts against the latest day the ledger has seen, so setting the clock
     * back never frees the cap.
     */
    public synchronized boolean mayReport(Instant now) {
        return startsNewDay(now) || reportsOnDay < reportsPerDayCap;
    }

    private boolean startsNewDay(Instant now) {
        return day == null || LocalDate.ofInstant(now, ZoneOffset.UTC).isAfter(day);
    }

    /**
     * Enters one report of k events and persists the ledger before the report may leave: under the
     * state directory's lock, on the ledger as its file holds it, so that the report's number
     * ({@link Entry#reports()}) is never one another process of the same app version used.
     *
     * @throws StateLock.Busy if the lock was not obtained in time (nothing is entered)
     */
    public Entry recordReport(Instant now) throws IOException {
        return update(
                () -> {
                    if (startsNewDay(now)) {
                        day = LocalDate.ofInstant(now, ZoneOffset.UTC);
                        reportsOnDay = 0;
                    }
                    reportsOnDay++;
                    reports++;
                    eventsReported += parameters.k();
                    userLevelEpsilon += userLevelEpsilonPerReport();
                    lastReportMillis = now.toEpochMilli();
                });
    }

    /** Enters one epoch that ended without a report because the privacy budget was spent. */
    public Entry recordSkippedByBudget() throws IOException {
        return update(() -> epochsSkippedByBudget++);
    }

    /** Under the lock: re-read, change, write; the file is left as it was if this throws. */
    private Entry update(Runnable change) throws IOException {
        // The directory's lock before this ledger's monitor, always: a thread holding the
        // monitor never waits for the lock.
        try (StateLock lock = StateLock.acquire(stateDir, lockWait)) {
            synchronized (this) {
                reload();
                change.run();
                persist();
                return entry();
            }
        }
    }

    /**
     * The user-level ε of one report of this configuration: ε·k/t in ε-t mode (the whole report's
     * events), ε in user-level mode ({@link PrivacyParameters#userLevelEpsilonPerReport()}).
     */
    public double userLevelEpsilonPerReport() {
        return parameters.userLevelEpsilonPerReport();
    }

    /** Enters one epoch that ended without a report because the cap was reached. */
    public Entry recordSkippedByCap() throws IOException {
        return update(() -> epochsSkippedByCap++);
    }

    /**
     * Records whether path tracing is on for this device and app version, and persists it (a
     * runtime start that changes nothing writes nothing).
     */
    public Entry recordPathTracing(boolean on) throws IOException {
        synchronized (this) {
            if (pathTracing == on) {
                return entry();
            }
        }
        return update(() -> pathTracing = on);
    }

    /**
     * Counts one path report of {@code bytes} bytes of path data handed over for sending; kept in
     * memory until {@link #persistPathCounts()} (or any other write). Never blocks on the disk.
     */
    public synchronized void recordPathReport(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("bytes must be >= 0, got " + bytes);
        }
        unsavedPathReports++;
        unsavedPathBytes += bytes;
    }

    /** Writes the path counts if they changed since the last write. */
    public void persistPathCounts() throws IOException {
        synchronized (this) {
            if (unsavedPathReports == 0 && unsavedPathBytes == 0) {
                return;
            }
        }
        update(() -> {});
    }

    public synchronized Entry entry() {
        return new Entry(
                deviceId,
                appVersion,
                configId,
                parameters.epsilon(),
                parameters.t(),
                parameters.k(),
                reports,
                eventsReported,
                userLevelEpsilon,
                reportsPerDayCap,
                day,
                reportsOnDay,
                epochsSkippedByCap,
                epochsSkippedByBudget,
                lastReportMillis,
                pathTracing,
                pathReports + unsavedPathReports,
                pathBytes + unsavedPathBytes,
                shuffler);
    }

    private void persist() throws IOException {
        Properties p = new Properties();
        p.setProperty("format", String.valueOf(FORMAT));
        p.setProperty("deviceId", deviceId);
        p.setProperty("appVersion", appVersion);
        p.setProperty("configId", configId);
        p.setProperty("epsilon", Double.toString(parameters.epsilon()));
        p.setProperty("t", Integer.toString(parameters.t()));
        p.setProperty("k", Integer.toString(parameters.k()));
        p.setProperty("reports", Long.toString(reports));
        p.setProperty("eventsReported", Long.toString(eventsReported));
        p.setProperty("userLevelEpsilon", Double.toString(userLevelEpsilon));
        p.setProperty("reportsPerDayCap", Integer.toString(reportsPerDayCap));
        p.setProperty("day", day == null ? "" : day.toString());
        p.setProperty("reportsOnDay", Integer.toString(reportsOnDay));
        p.setProperty("epochsSkippedByCap", Long.toString(epochsSkippedByCap));
        p.setProperty("epochsSkippedByBudget", Long.toString(epochsSkippedByBudget));
        p.setProperty("lastReportMillis", Long.toString(lastReportMillis));
        p.setProperty("pathTracing", Boolean.toString(pathTracing));
        p.setProperty("pathReports", Long.toString(pathReports + unsavedPathReports));
        p.setProperty("pathBytes", Long.toString(pathBytes + unsavedPathBytes));
        if (shuffler != null) {
            p.setProperty("shufflerMinBatchSize", Integer.toString(shuffler.getMinBatchSize()));
            p.setProperty("shufflerDelta", Double.toString(shuffler.getDelta()));
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        p.store(bytes, "fieldprof privacy ledger");
        AtomicFiles.write(file, bytes.toByteArray());
        pathReports += unsavedPathReports;
        pathBytes += unsavedPathBytes;
        unsavedPathReports = 0;
        unsavedPathBytes = 0;
    }

    /** The shuffled mode's terms a ledger file holds; null for a local-only configuration. */
    private static ShufflerTerms shufflerTerms(Properties p) {
        String minBatch = p.getProperty("shufflerMinBatchSize");
        if (minBatch == null) {
            return null;
        }
        return new ShufflerTerms(
                Integer.parseInt(minBatch), Double.parseDouble(p.getProperty("shufflerDelta")));
    }

    /** Reads every ledger in {@code stateDir}, as stored (for the CLI). */
    public static List<Entry> readAll(Path stateDir) throws IOException {
        List<Entry> entries = new ArrayList<>();
        if (!Files.isDirectory(stateDir)) {
            throw new NoSuchFileException(stateDir.toString(), null, "not a directory");
        }
        try (DirectoryStream<Path> files =
                Files.newDirectoryStream(stateDir, PREFIX + "*" + SUFFIX)) {
            for (Path file : files) {
                Properties p = new Properties();
                try (InputStream in = Files.newInputStream(file)) {
                    p.load(in);
                }
                if (!String.valueOf(FORMAT).equals(p.getProperty("format"))) {
                    throw new IOException("unsupported ledger format in " + file);
                }
                String day = p.getProperty("day", "");
                entries.add(
                        new Entry(
                                p.getProperty("deviceId"),
                                p.getProperty("appVersion"),
                                p.getProperty("configId"),
                                Double.parseDouble(p.getProperty("epsilon")),
                                Integer.parseInt(p.getProperty("t")),
                                Integer.parseInt(p.getProperty("k")),
                                Long.parseLong(p.getProperty("reports")),
                                Long.parseLong(p.getProperty("eventsReported")),
                                Double.parseDouble(p.getProperty("userLevelEpsilon")),
                                Integer.parseInt(p.getProperty("reportsPerDayCap")),
                                day.isEmpty() ? null : LocalDate.parse(day),
                                Integer.parseInt(p.getProperty("reportsOnDay")),
                                Long.parseLong(p.getProperty("epochsSkippedByCap")),
                                Long.parseLong(p.getProperty("epochsSkippedByBudget", "0")),
                                Long.parseLong(p.getProperty("lastReportMillis")),
                                Boolean.parseBoolean(p.getProperty("pathTracing", "false")),
                                Long.parseLong(p.getProperty("pathReports", "0")),
                                Long.parseLong(p.getProperty("pathBytes", "0")),
                                shufflerTerms(p)));
            }
        }
        entries.sort((a, b) -> a.appVersion().compareTo(b.appVersion()));
        return entries;
    }
}
