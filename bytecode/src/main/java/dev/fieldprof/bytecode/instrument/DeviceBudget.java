package dev.fieldprof.bytecode.instrument;

import dev.fieldprof.schemas.PrivacyConfig;
import dev.fieldprof.schemas.PrivacyDefaults;
import dev.fieldprof.schemas.PrivacyMode;
import java.time.Duration;
import java.util.Locale;

/**
 * The privacy budget an instrumented jar gives its devices: the user-level ε a device may spend per
 * rolling period; a report that would go beyond it is refused on the device. Written into the jar's
 * client properties ({@code privacy.budget}, {@code privacy.budget.period}), where a device's
 * {@code -Dfieldprof.privacy.budget} can still override it.
 *
 * @param epsilon user-level ε per period, > 0; {@code Double.POSITIVE_INFINITY} for no bound
 * @param period the rolling period, at least 1 s
 */
public record DeviceBudget(double epsilon, Duration period) {

    /** ε = ln 9 a day: one user-level report a day at the default ε ({@link PrivacyDefaults}). */
    public static final DeviceBudget DEFAULT =
            new DeviceBudget(PrivacyDefaults.BUDGET, PrivacyDefaults.BUDGET_PERIOD);

    /** No bound: devices spend what their reports cost. */
    public static final DeviceBudget NONE =
            new DeviceBudget(Double.POSITIVE_INFINITY, Duration.ofDays(1));

    /**
     * @throws IllegalArgumentException naming the constraint
     */
    public DeviceBudget {
        if (!(epsilon > 0) || Double.isNaN(epsilon)) {
            throw new IllegalArgumentException("the budget must be > 0 or none, got " + epsilon);
        }
        if (period == null || period.compareTo(Duration.ofSeconds(1)) < 0) {
            throw new IllegalArgumentException(
                    "the budget period must be at least 1 s, got " + period);
        }
    }

    /**
     * Refuses a privacy configuration whose every report costs more than the whole budget: no
     * device could ever report under it.
     *
     * @throws IllegalArgumentException naming the cost, the budget and the ways out
     */
    public void checkAffords(PrivacyConfig config) {
        // The user-level ε of one report, as the device's ledger adds it up: the whole report's k
        // events at ε per t in the epsilon-t mode, ε in the user-level mode.
        boolean userLevel = config.getMode() == PrivacyMode.USER_LEVEL;
        double perReport =
                userLevel
                        ? config.getEpsilon()
                        : config.getEpsilon() * config.getK() / config.getT();
        if (!affords(perReport)) {
            boolean shuffled = config.getShuffler() != null;
            throw new IllegalArgumentException(
                    String.format(
                            Locale.ROOT,
                            "each report of privacy configuration '%s' costs user-level eps %.4g"
                                    + " (%s), more than the device budget eps %.4g per %s: no"
                                    + " device could ever report; raise --budget, give --budget"
                                    + " none, or %s",
                            config.getConfigId(),
                            perReport,
                            shuffled
                                    ? "shuffled mode: epsilon0 per report"
                                    : userLevel
                                            ? "user-level mode"
                                            : "epsilon-t: eps*k/t with k="
                                                    + config.getK()
                                                    + ", t="
                                                    + config.getT(),
                            epsilon,
                            period,
                            // The shuffled mode's epsilon0 is large by design: the central
                            // guarantee is what the shuffler adds, the budget bounds epsilon0.
                            shuffled
                                    ? "analyze with a smaller --epsilon (epsilon0)"
                                    : "use --privacy-mode user-level"));
        }
    }

    /**
     * Whether one report costing {@code perReport} of user-level ε fits in the budget, with the
     * device's own rounding margin (a report of exactly the budget fits).
     */
    public boolean affords(double perReport) {
        return perReport <= epsilon * (1 + 1e-12);
    }

    /** The client-properties lines that give devices this budget. */
    String properties() {
        return "privacy.budget="
                + (Double.isInfinite(epsilon)
                        ? PrivacyDefaults.NO_BUDGET
                        : Double.toString(epsilon))
                + "\nprivacy.budget.period="
                + period
                + "\n";
    }
}
