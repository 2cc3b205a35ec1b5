package dev.fieldprof.agent;

import dev.fieldprof.bytecode.instrument.DeviceBudget;
import dev.fieldprof.bytecode.instrument.JarInstrumenter;
import dev.fieldprof.bytecode.instrument.PathProbeInstrumenter;
import dev.fieldprof.bytecode.instrument.ProbeTransform;
import dev.fieldprof.bytecode.model.ProgramModels;
import dev.fieldprof.client.ClientConfig;
import dev.fieldprof.client.LoadTimeInstrumentation;
import dev.fieldprof.paths.BranchTable;
import dev.fieldprof.paths.ProbePlanText;
import dev.fieldprof.paths.ProgramModelBranches;
import dev.fieldprof.schemas.MethodInfo;
import dev.fieldprof.schemas.ProgramModel;
import java.io.IOException;
import java.io.StringReader;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;

/**
 * From the agent's options to its transformer: reads the program model, describes the program to
 * the SDK ({@link LoadTimeInstrumentation}: what an instrumented jar's resources would say), and
 * picks the methods that get path probes: none unless this device will trace paths, and with a
 * probe plan only the methods of this device's variant (a method outside it would cost its probes'
 * site checks for nothing).
 */
final class AgentSetup {
    private AgentSetup() {}

    /** Why the agent cannot start; its message is the agent's one line on stderr. */
    static final class AgentStartException extends Exception {
        private static final long serialVersionUID = 1L;

        AgentStartException(String message) {
            super(message);
        }
    }

    /** The transformer for {@code options}, with the program described to the SDK. */
    static ModelClassTransformer transformer(AgentOptions options) throws AgentStartException {
        ProgramModel model;
        BranchTable branches;
        Properties client;
        try {
            model = ProgramModels.read(options.model());
            branches =
                    ProgramModelBranches.hasCfgs(model) ? ProgramModelBranches.table(model) : null;
            client = new Properties();
            // The budget fieldprof instrument writes by default; -Dfieldprof.privacy.budget wins.
            client.load(
                    new StringReader(
                            JarInstrumenter.clientProperties(model, DeviceBudget.DEFAULT)));
        } catch (IllegalArgumentException | IOException e) {
            throw new AgentStartException(e.getMessage());
        }
        // The agent's options are on the command line the program is started with: like a
        // system property (which wins over them), they may turn path tracing on.
        Properties commandLine = new Properties();
        if (options.paths()) {
            commandLine.setProperty(ClientConfig.KEY_PATHS_ENABLED, "true");
        }
        ProbePlanText plan = ProbePlanText.of(model);
        LoadTimeInstrumentation.describeProgram(client, commandLine, branches, plan);
        ClientConfig config;
        try {
            config = LoadTimeInstrumentation.config().orElseThrow();
        } catch (IllegalArgumentException e) {
            throw new AgentStartException("invalid device setting: " + e.getMessage());
        }
        double perReport = config.privacy().userLevelEpsilonPerReport();
        if (!new DeviceBudget(config.budget(), config.budgetPeriod()).affords(perReport)) {
            // No report could ever leave: better said once than counted silently forever.
            throw new AgentStartException(
                    String.format(
                            java.util.Locale.ROOT,
                            "each report of %s costs user-level eps %.4g, more than the device"
                                    + " budget eps %.4g per %s: none could ever be sent; set"
                                    + " -Dfieldprof.privacy.budget (a larger eps, or none)",
                            config.appVersion(),
                            perReport,
                            config.budget(),
                            config.budgetPeriod()));
        }
        PathProbeInstrumenter paths = null;
        if (LoadTimeInstrumentation.tracesPaths(config, branches)) {
            int variant;
            try {
                variant =
                        plan == null ? 0 : plan.variantOf(LoadTimeInstrumentation.deviceId(config));
            } catch (IOException e) {
                throw new AgentStartException(
                        "cannot keep the device id in "
                                + config.stateDir()
                                + ": "
                                + e.getMessage());
            }
            paths = new PathProbeInstrumenter(tracedMethods(model, plan, variant));
        }
        return new ModelClassTransformer(new ProbeTransform(model, paths));
    }

    /**
     * Signature → id of the methods a device of {@code variant} path-traces: every method without a
     * plan, else the variant's.
     */
    static Map<String, Integer> tracedMethods(ProgramModel model, ProbePlanText plan, int variant) {
        boolean[] traced = plan == null ? null : plan.traced(variant);
        Map<String, Integer> ids = new HashMap<>();
        for (MethodInfo method : model.getMethods()) {
            int id = method.getId();
            if (traced == null || (id < traced.length && traced[id])) {
                ids.put(method.getSignature().toString(), id);
            }
        }
        return ids;
    }
}
