package dev.fieldprof.cli.demo;

import dev.fieldprof.cli.options.DurationConverter;
import dev.fieldprof.client.privacy.PrivacyParameters;
import dev.fieldprof.schemas.PrivacyConfig;
import dev.fieldprof.schemas.PrivacyMode;
import dev.fieldprof.schemas.ProgramModel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The demo's privacy settings: the mode and ε every report is randomized with, and the budget every
 * simulated device enforces. The defaults are what a privacy reviewer can sign: each report
 * protects a device's whole run at ε = ln 9 (user-level mode), and a device spends at most ln 9 a
 * day, so one report a day.
 *
 * @param mode how a report is randomized
 * @param epsilon ε of every report (per t changed events in EPSILON_T mode)
 * @param budget user-level ε a device may spend per {@code budgetPeriod}; Double.POSITIVE_INFINITY
 *     for no bound
 * @param budgetPeriod the rolling period of the budget
 */
public record DemoPrivacy(PrivacyMode mode, double epsilon, double budget, Duration budgetPeriod) {

    /** User-level reports at ε = ln 9, at most ln 9 a day. */
    public static final DemoPrivacy DEFAULT =
            new DemoPrivacy(PrivacyMode.USER_LEVEL, Math.log(9), Math.log(9), Duration.ofDays(1));

    /**
     * @throws IllegalArgumentException when the budget is not > 0 or the period shorter than 1 s
     */
    public DemoPrivacy {
        if (!(budget > 0)) {
            throw new IllegalArgumentException("the budget must be > 0 or none, got " + budget);
        }
        if (budgetPeriod.compareTo(Duration.ofSeconds(1)) < 0) {
            throw new IllegalArgumentException(
                    "the budget period must be at least 1 s, got " + budgetPeriod);
        }
    }

    /**
     * The analyzed model with this mode and ε in each of its privacy configurations (the demo's
     * analysis leaves the mode and ε at the analyzer's defaults; k of EPSILON_T mode stays as
     * analyzed).
     *
     * @throws IllegalArgumentException when ε is out of the mode's range, or when one report would
     *     cost more than the whole budget, so that no device could ever report
     */
    public ProgramModel applyTo(ProgramModel model) {
        List<PrivacyConfig> configs = new ArrayList<>();
        for (PrivacyConfig config : model.getPrivacyConfigs()) {
            PrivacyConfig.Builder changed =
                    PrivacyConfig.newBuilder(config).setMode(mode).setEpsilon(epsilon);
            if (mode == PrivacyMode.USER_LEVEL) {
                changed.setK(1).setT(1);
            }
            PrivacyConfig result = changed.build();
            double perReport = PrivacyParameters.of(result).userLevelEpsilonPerReport();
            if (perReport > budget) {
                throw new IllegalArgumentException(
                        String.format(
                                Locale.ROOT,
                                "each %s report costs user-level eps %.4g (eps*k/t with k=%d,"
                                        + " t=%d), more than the budget eps %.4g per %s: no device"
                                        + " could ever report; pass a larger --budget, --budget"
                                        + " none, or --privacy-mode user-level",
                                modeName(),
                                perReport,
                                result.getK(),
                                result.getT(),
                                budget,
                                DurationConverter.format(budgetPeriod)));
            }
            configs.add(result);
        }
        return ProgramModel.newBuilder(model).setPrivacyConfigs(configs).build();
    }

    /** {@code user-level} or {@code epsilon-t}, as the CLI spells the modes. */
    public String modeName() {
        return mode == PrivacyMode.USER_LEVEL ? "user-level" : "epsilon-t";
    }

    /** Whether devices spend without bound. */
    public boolean unbounded() {
        return Double.isInfinite(budget);
    }
}
