package dev.fieldprof.estimation.evaluation;

import dev.fieldprof.estimation.ConstraintProjection;
import dev.fieldprof.estimation.FrequencyEstimator;
import dev.fieldprof.estimation.FrequencyMetrics;
import dev.fieldprof.estimation.PartialSum;
import dev.fieldprof.ldp.PrivacyParameters;
import dev.fieldprof.ldp.RandomSource;
import dev.fieldprof.ldp.SeededRandomSource;
import dev.fieldprof.schemas.PrivacyMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The comparison that decides fieldprof's defaults: the two privacy modes at equal per-report
 * user-level ε, on the same simulated devices, through the real randomizers and the real estimator
 * and projection. In ε-t mode a report costs ε·k/t of user-level privacy and its randomizer depends
 * only on ε/t, so every (ε, t) with ε·k/t = E is the same randomizer: it is run at t = k, ε = E,
 * for k = 1 (one event, a randomized histogram of |V| cells) and for the accuracy study's k =
 * 5·|V|. In user-level mode a report costs ε = E and samples one event through the subset-selection
 * oracle.
 *
 * <p>Both modes estimate the devices' mean share profile (an ε-t report's k events are a uniform
 * sample of its epoch), so both are measured against that same truth: the mean over devices of each
 * epoch's shares.
 */
public final class ModeComparison {
    /** One configuration's mean figures over the repetitions. */
    public record Row(
            double userLevelEpsilon,
            String mode,
            int k,
            double relativeErrorRaw,
            double relativeErrorProjected,
            double hotCoverageProjected) {}

    private ModeComparison() {}

    /**
     * @param epsilons per-report user-level ε of each comparison
     * @param devices simulated devices, one report each per repetition
     * @param hotThreshold ℓ of HMC
     */
    public static List<Row> run(
            DeviceWorkload workload,
            double[] epsilons,
            int devices,
            int repetitions,
            double hotThreshold,
            long seed) {
        int methods = workload.graph().methods();
        int studyK = Math.multiplyExact(5, methods);
        ConstraintProjection projection = new ConstraintProjection(workload.graph());
        RandomSource random = new SeededRandomSource(seed);
        long[][] epochs = new long[devices][];
        for (int d = 0; d < devices; d++) {
            epochs[d] = workload.epoch(d, studyK, random);
        }
        double[] truth = SimulatedReports.meanShares(epochs);
        List<Row> rows = new ArrayList<>();
        for (double epsilon : epsilons) {
            List<PrivacyParameters> configs =
                    List.of(
                            new PrivacyParameters(epsilon, 1, 1),
                            new PrivacyParameters(epsilon, studyK, studyK),
                            new PrivacyParameters(PrivacyMode.USER_LEVEL, epsilon, 1, 1));
            for (PrivacyParameters privacy : configs) {
                double raw = 0;
                double projected = 0;
                double hot = 0;
                for (int r = 0; r < repetitions; r++) {
                    PartialSum sum = SimulatedReports.sum(privacy, epochs, random, null);
                    double[] estimate = new FrequencyEstimator(privacy).estimate(sum).normalized();
                    double[] consistent = projection.project(estimate).solution();
                    raw += FrequencyMetrics.relativeError(truth, estimate);
                    projected += FrequencyMetrics.relativeError(truth, consistent);
                    hot += FrequencyMetrics.hotMethodCoverage(truth, consistent, hotThreshold);
                }
                rows.add(
                        new Row(
                                epsilon,
                                privacy.mode() == PrivacyMode.USER_LEVEL
                                        ? "user-level"
                                        : "epsilon-t",
                                privacy.k(),
                                raw / repetitions,
                                projected / repetitions,
                                hot / repetitions));
            }
        }
        return rows;
    }

    /** The rows as a table, one block per ε. */
    public static String table(String program, int methods, int devices, List<Row> rows) {
        StringBuilder out = new StringBuilder();
        out.append(
                String.format(
                        Locale.ROOT,
                        "== %s: |V| = %d, %d devices, one report each; truth = the devices' mean"
                                + " share profile%n",
                        program,
                        methods,
                        devices));
        out.append(
                String.format(
                        Locale.ROOT,
                        "%-9s %-10s %7s %9s %9s %9s%n",
                        "eps/rep",
                        "mode",
                        "k",
                        "RE(g^)",
                        "RE(g*)",
                        "HMC g*"));
        for (Row r : rows) {
            out.append(
                    String.format(
                            Locale.ROOT,
                            "%-9.4f %-10s %7d %9.4f %9.4f %9.3f%n",
                            r.userLevelEpsilon(),
                            r.mode(),
                            r.k(),
                            r.relativeErrorRaw(),
                            r.relativeErrorProjected(),
                            r.hotCoverageProjected()));
        }
        return out.toString();
    }
}
