package dev.fieldprof.client.ledger;

import dev.fieldprof.client.state.AtomicFiles;
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
 * clock set forward does; only the device's own user can set it). Thread-safe within one JVM; two
 * processes sharing a state directory are not coordinated.
 *
 * <pre>{@code
 * PrivacyBudget budget = PrivacyBudget.open(stateDir, 8.0, Duration.ofDays(1));
 * if (budget.allows(now, reportEpsilon)) { budget.spend(now, reportEpsilon); send(report); }
 * }</pre>
 */
public final class PrivacyBudget {
    private static final int FORMAT = 1;
    static final String FILE = "privacy-budget.properties";

    private final Path file;
    private final double budget;
    private final Duration period;
    // (time millis, epsilon) of the reports still in the window, oldest first.
    private final List<long[]> times = new ArrayList<>();
    private final List<Double> spent = new ArrayList<>();

    private PrivacyBudget(Path file, double budget, Duration period) {
        this.file = file;
        this.budget = budget;
        this.period = period;
    }

    /**
     * @param budget user-level ε allowed per period, > 0, or {@code Double.POSITIVE_INFINITY} for
     *     none (the spending is still recorded and shown)
     * @param period the rolling period, >= 1 s
     */
    public static PrivacyBudget open(Path stateDir, double budget, Duration period)
            throws IOException {
        if (!(budget > 0)) {
            throw new IllegalArgumentException("budget must be > 0 (or none), got " + budget);
        }
        if (period.compareTo(Duration.ofSeconds(1)) < 0) {
            throw new IllegalArgumentException("budget period must be >= 1 s, got " + period);
        }
        PrivacyBudget b = new PrivacyBudget(stateDir.resolve(FILE), budget, period);
        Properties p = new Properties();
        try (Reader reader = Files.newBufferedReader(b.file, StandardCharsets.UTF_8)) {
            p.load(reader);
        } catch (NoSuchFileException e) {
            return b;
        }
        if (!String.valueOf(FORMAT).equals(p.getProperty("format"))) {
            throw new IOException("unsupported budget format in " + b.file);
        }
        String reports = p.getProperty("reports", "");
        for (String item : reports.isEmpty() ? new String[0] : reports.split(",")) {
            String[] parts = item.split("@");
            b.spent.add(Double.parseDouble(parts[0]));
            b.times.add(new long[] {Long.parseLong(parts[1])});
        }
        return b;
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
     * Enters a report costing {@code epsilon} at {@code now} and persists it; call before the
     * report leaves, and send nothing if this throws.
     */
    public synchronized void spend(Instant now, double epsilon) throws IOException {
        long horizon = horizon(now);
        forgetBefore(horizon);
        // Never earlier than the latest time seen: a report made while the clock is set back
        // stays in the window as long as the reports before it.
        times.add(new long[] {horizon + period.toMillis()});
        spent.add(epsilon);
        persist();
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
