package dev.fieldprof.cli.options;

import dev.fieldprof.bytecode.instrument.DeviceBudget;
import dev.fieldprof.ldp.PrivacyParameters;
import dev.fieldprof.schemas.PrivacyDefaults;
import java.time.Duration;
import java.util.Locale;
import picocli.CommandLine.Option;

/**
 * The {@code --budget} and {@code --budget-period} options (a picocli mixin): the user-level ε a
 * device may spend per rolling period, by default ln 9 a day.
 */
public final class BudgetOptions {
    @Option(
            names = "--budget",
            defaultValue = PrivacyDefaults.BUDGET_TEXT,
            paramLabel = "EPS|none",
            description =
                    "User-level epsilon a device may spend per --budget-period: a number, ln(x),"
                            + " or none; a report beyond it is refused on the device (default:"
                            + " ${DEFAULT-VALUE}, one user-level report a day at the default"
                            + " epsilon).")
    String budget;

    @Option(
            names = "--budget-period",
            defaultValue = "1d",
            converter = DurationConverter.class,
            description = "The rolling period of --budget (default: ${DEFAULT-VALUE}).")
    Duration period;

    /**
     * The budget given.
     *
     * @throws IllegalArgumentException naming the bad value
     */
    public DeviceBudget budget() {
        double epsilon =
                budget.trim().equalsIgnoreCase(PrivacyDefaults.NO_BUDGET)
                        ? Double.POSITIVE_INFINITY
                        : PrivacyParameters.parseEpsilon(budget);
        return new DeviceBudget(epsilon, period);
    }

    /** {@code user-level eps 2.197 per 1d}, or that there is no bound. */
    public static String describe(DeviceBudget budget) {
        return Double.isInfinite(budget.epsilon())
                ? "none (devices spend without bound)"
                : String.format(
                        Locale.ROOT,
                        "user-level eps %.4g per %s",
                        budget.epsilon(),
                        DurationConverter.format(budget.period()));
    }
}
