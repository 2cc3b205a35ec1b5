package dev.fieldprof.cli.demo;

import dev.fieldprof.bytecode.instrument.DeviceBudget;
import dev.fieldprof.bytecode.model.ProgramModels;
import dev.fieldprof.schemas.PrivacyConfig;
import dev.fieldprof.schemas.PrivacyMode;
import dev.fieldprof.schemas.ProgramModel;
import java.util.ArrayList;
import java.util.List;

/**
 * The demo's privacy settings: the mode and ε every report is randomized with, and the budget every
 * simulated device enforces. The defaults are what a privacy reviewer can sign: each report
 * protects a device's whole run at ε = ln 9 (user-level mode), and a device spends at most ln 9 a
 * day, so it reports at most once a day.
 *
 * @param mode how a report is randomized
 * @param epsilon ε of every report (per t changed events in EPSILON_T mode)
 * @param budget what a device may spend per period
 */
public record DemoPrivacy(PrivacyMode mode, double epsilon, DeviceBudget budget) {

    /** User-level reports at ε = ln 9, at most ln 9 a day. */
    public static final DemoPrivacy DEFAULT =
            new DemoPrivacy(
                    dev.fieldprof.schemas.PrivacyDefaults.MODE,
                    dev.fieldprof.schemas.PrivacyDefaults.EPSILON,
                    DeviceBudget.DEFAULT);

    /**
     * The analyzed model with this mode and ε in each of its privacy configurations (the demo's
     * analysis leaves the mode and ε at the analyzer's defaults; k of EPSILON_T mode stays as
     * analyzed).
     *
     * @throws IllegalArgumentException when one report would cost more than the whole budget, so
     *     that no device could ever report
     */
    public ProgramModel applyTo(ProgramModel model) {
        ProgramModel moded =
                mode == PrivacyMode.USER_LEVEL ? ProgramModels.userLevel(model) : model;
        List<PrivacyConfig> configs = new ArrayList<>();
        for (PrivacyConfig config : moded.getPrivacyConfigs()) {
            PrivacyConfig result =
                    PrivacyConfig.newBuilder(config).setMode(mode).setEpsilon(epsilon).build();
            budget.checkAffords(result);
            configs.add(result);
        }
        return ProgramModel.newBuilder(moded).setPrivacyConfigs(configs).build();
    }

    /** Whether devices spend without bound. */
    public boolean unbounded() {
        return Double.isInfinite(budget.epsilon());
    }
}
