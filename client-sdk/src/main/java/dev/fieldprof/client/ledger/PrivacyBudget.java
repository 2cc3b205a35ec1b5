package dev.fieldprof.client.ledger;

import dev.fieldprof.client.state.AtomicFiles;
import dev.fieldprof.client.state.StateLock;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;

/**
 * A device's budget of user-level privacy loss per rolling period, over every app version and
 * configuration that reports from its state directory: the user-level ε of the reports made in the
 * last {@code period} plus the next one must stay within {@code budget}, or the next report is
 * refused. A report's user-level ε is what hiding the device's whole epoch costs: ε·k/t in the ε-t
 * mode.
 *
 * <p>Fails closed: a report is spent (persisted) before it may leave, and when the budget file
 * cannot be written the report is not sent. A report stays in the window until its time is more
 * than one period before the latest report time seen, so a clock set back never frees budget (a
 * clock set forward does; only the device's own user can set it). Processes and threads sharing a
 * state directory are coordinated by its {@link StateLock}: a caller holds it across {@link
 * #reload()}, {@link #allows} and {@link #spend}, and {@code spend} itself re-reads the file under
 * the lock before it adds the report, so no process writes over another's spending. A file that is
 * not a budget (a missing {@code reports} line, a negative or unreadable ε, a bad time) is refused
 * with the one reason, and no report is made while it stays so.
 *
 * <pre>{@code
 * PrivacyBudget budget = PrivacyBudget.open(stateDir, 8.0, Duration.ofDays(1));
 * try (StateLock lock = StateLock.acquire(stateDir, StateLock.DEFAULT_WAIT)) {
 *     budget.reload();
 *     if (budget.allows(now, reportEpsilon)) { budget.spend(now, reportEpsilon); send(report); }
 * }
 * }</pre>
 */
public final class PrivacyBudget {
    private static final int FORMAT = 1;
    static final String FILE = "privacy-budget.properties";

    private final Path stateDir;
    private final Duration lockWait;
    private final Path file;
    private final double budget;
    private final Duration period;
    // (time millis, epsilon) of the reports still in the window, oldest first.
    private final List<long[]> times = new ArrayList<>();
    private final List<Double> spent = new ArrayList<>();

    private PrivacyBudget(Path stateDir, Duration lockWait, double budget, Duration period) {
        this.stateDir = stateDir;
        this.lockWait = lockWait;
        this.file = stateDir.resolve(FILE);
        this.budget = budget;
        this.period = period;
    }

    /**
     * @param budget user-level ε allowed per period, > 0, or {@code Double.POSITIVE_INFINITY} for
     *     none (the spending is still recorded and shown)
     * @param period the rolling period, >= 1 s
     * @throws IOException if the file cannot be read or is refused
     */
    public static PrivacyBudget open(Path stateDir, double budget, Duration period)
            throws IOException {
        return open(stateDir, budget, period, StateLock.DEFAULT_WAIT);
    }

    /** As above, waiting at most {@code lockWait} for the state directory's lock in a spend. */
    public static PrivacyBudget open(
            Path stateDir, double budget, Duration period, Duration lockWait) throws IOException {
        if (!(budget > 0)) {
            throw new IllegalArgumentException("budget must be > 0 (or none), got " + budget);
        }
        if (period.compareTo(Duration.ofSeconds(1)) < 0) {
            throw new IllegalArgumentException("budget period must be >= 1 s, got " + period);
        }
        PrivacyBudget b = new PrivacyBudget(stateDir, lockWait, budget, period);
        b.reload();
        return b;
    }

    /**
     * Replaces the reports this budget holds with those its file holds now (other processes may
     * have spent since). Call with the state directory's {@link StateLock} held.
     *
     * @throws IOException if the file cannot be read or is refused; what was held is kept
     */
    public synchronized void reload() throws IOException {
        Properties p = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(reader);
        } catch (NoSuchFileException e) {
            times.clear();
            spent.clear();
            return;
        }
        List<long[]> readTimes = new ArrayList<>();
        List<Double> readSpent = new ArrayList<>();
        parseReports(p, readTimes, readSpent);
        times.clear();
        times.addAll(readTimes);
        spent.clear();
        spent.addAll(readSpent);
    }

    private void parseReports(Properties p, List<long[]> readTimes, List<Double> readSpent)
            throws IOException {
        if (!String.valueOf(FORMAT).equals(p.getProperty("format"))) {
            throw refused("unsupported format " + p.getProperty("format"));
        }
        String reports = p.getProperty("reports");
        if (reports == null) {
            throw refused("no reports line");
        }
        reports = reports.trim();
        String[] items = reports.isEmpty() ? new String[0] : reports.split(",", -1);
        for (int i = 0; i < items.length; i++) {
            String[] parts = items[i].split("@", -1);
            double epsilon;
            long time;
            try {
                if (parts.length != 2) {
                    throw new NumberFormatException("not epsilon@time");
                }
                epsilon = Double.parseDouble(parts[0].trim());
                time = Long.parseLong(parts[1].trim());
            } catch (NumberFormatException e) {
                throw refused("report " + (i + 1) + " is not epsilon@time: '" + items[i] + "'");
            }
            if (!(epsilon >= 0) || Double.isInfinite(epsilon)) {
                throw refused("report " + (i + 1) + " has epsilon " + epsilon + ", not >= 0");
            }
            readSpent.add(epsilon);
            readTimes.add(new long[] {time});
        }
    }

    private IOException refused(String reason) {
        return new IOException("privacy budget file " + file + " refused: " + reason);
    }

    /** The budget stored in {@code stateDir} as its device last wrote it, if any (for the CLI). */
    public static java.util.Optional<PrivacyBudget> read(Path stateDir) throws IOException {
        Path file = stateDir.resolve(FILE);
        if (!Files.exists(file)) {
            return java.util.Optional.empty();
        }
        Properties p = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(reader);
        }
        return java.util.Optional.of(
                open(
                        stateDir,
                        Double.parseDouble(p.getProperty("budget", "Infinity")),
                        Duration.parse(p.getProperty("period", "P1D"))));
    }

    /** Whether a report costing {@code epsilon} at {@code now} stays within the budget. */
    public synchronized boolean allows(Instant now, double epsilon) {
        return spentWithin(now) + epsilon <= budget * (1 + 1e-12);
    }

    /**
     * Enters a report costing {@code epsilon} at {@code now} and persists it, under the state
     * directory's lock on the spending as the file holds it; call before the report leaves, and
     * send nothing if this throws ({@link StateLock.Busy} when the lock was not obtained in time).
     */
    public void spend(Instant now, double epsilon) throws IOException {
        // The directory's lock before this budget's monitor, always.
        try (StateLock lock = StateLock.acquire(stateDir, lockWait)) {
            synchronized (this) {
                reload();
                long horizon = horizon(now);
                forgetBefore(horizon);
                // Never earlier than the latest time seen: a report made while the clock is set
                // back stays in the window as long as the reports before it.
                times.add(new long[] {horizon + period.toMillis()});
                spent.add(epsilon);
                persist();
            }
        }
    }

    /** User-level ε of the reports in the period that ends at {@code now}. */
    public synchronized double spentWithin(Instant now) {
        long horizon = horizon(now);
        double sum = 0;
        for (int i = 0; i < times.size(); i++) {
            if (times.get(i)[0] > horizon) {
                sum += spent.get(i);
            }
        }
        return sum;
    }

    public double budget() {
        return budget;
    }

    public Duration period() {
        return period;
    }

    /** One line for the ledger's display. */
    public synchronized String describe(Instant now) {
        return String.format(
                Locale.ROOT,
                "user-level-epsilon-in-period %.6f of %s per %s",
                spentWithin(now),
                Double.isInfinite(budget)
                        ? "no budget"
                        : String.format(Locale.ROOT, "budget %.6f", budget),
                period);
    }

    /** Reports at or before this time are out of the window: one period before the latest time. */
    private long horizon(Instant now) {
        long latest = now.toEpochMilli();
        for (long[] t : times) {
            latest = Math.max(latest, t[0]);
        }
        return latest - period.toMillis();
    }

    private void forgetBefore(long horizon) {
        for (int i = times.size() - 1; i >= 0; i--) {
            if (times.get(i)[0] <= horizon) {
                times.remove(i);
                spent.remove(i);
            }
        }
    }

    private void persist() throws IOException {
        Properties p = new Properties();
        p.setProperty("format", String.valueOf(FORMAT));
        p.setProperty("budget", Double.toString(budget));
        p.setProperty("period", period.toString());
        StringBuilder reports = new StringBuilder();
        for (int i = 0; i < times.size(); i++) {
            reports.append(i == 0 ? "" : ",")
                    .append(spent.get(i))
                    .append('@')
                    .append(times.get(i)[0]);
        }
        p.setProperty("reports", reports.toString());
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        p.store(bytes, "fieldprof privacy budget: user-level epsilon@time of recent reports");
        AtomicFiles.write(file, bytes.toByteArray());
    }
}
