package dev.fieldprof.estimation.plan;

import dev.fieldprof.estimation.ConstraintProjection;
import dev.fieldprof.estimation.FrequencyEstimator;
import dev.fieldprof.estimation.FrequencyMetrics;
import dev.fieldprof.estimation.PartialSum;
import dev.fieldprof.estimation.evaluation.DeviceWorkload;
import dev.fieldprof.estimation.evaluation.SimulatedReports;
import dev.fieldprof.ldp.PrivacyParameters;
import dev.fieldprof.ldp.RandomSource;
import dev.fieldprof.ldp.SeededRandomSource;
import dev.fieldprof.schemas.PrivacyMode;
import java.util.ArrayList;
import java.util.List;

/**
 * Checks {@link PrivacyPlanner}'s predictions against what the real parts do: simulated devices of
 * a workload report through the client SDK's real randomizer (ε-t: k events sampled exactly from
 * the epoch; user-level: one event through the subset-selection oracle), the real estimator sums
 * and estimates them, the real projection makes g*, and the relative errors are measured against
 * the truth each mode estimates (ε-t: the sampled events; user-level: the mean of the devices'
 * epoch shares). The planner is given the devices' mean epoch shares as its profile, so the check
 * is of its error model, not of a guessed profile.
 */
public final class PlanValidation {
    /** A candidate's predicted and simulated relative errors, over all methods. */
    public record Comparison(
            PrivacyPlanner.Prediction predicted, double simulatedRaw, double simulatedProjected) {
        public double rawRatio() {
            return predicted.relativeErrorRaw() / simulatedRaw;
        }

        public double projectedRatio() {
            return predicted.relativeErrorProjected() / simulatedProjected;
        }

        /**
         * One line: the configuration, predicted and simulated RE of ĝ and g*, and their ratios.
         */
        public String describe() {
            PrivacyParameters p = predicted.candidate().privacy();
            return String.format(
                    java.util.Locale.ROOT,
                    "%-10s eps %.4f t %5d k %5d: RE(g^) predicted %.4f simulated %.4f (x%.3f)"
                            + "  RE(g*) predicted %.4f simulated %.4f (x%.3f)",
                    p.mode() == PrivacyMode.USER_LEVEL ? "user-level" : "epsilon-t",
                    p.epsilon(),
                    p.t(),
                    p.k(),
                    predicted.relativeErrorRaw(),
                    simulatedRaw,
                    rawRatio(),
                    predicted.relativeErrorProjected(),
                    simulatedProjected,
                    projectedRatio());
        }
    }

    private PlanValidation() {}

    /**
     * @param devices simulated devices, one report each
     * @param configs the privacy configurations to compare
     * @param repetitions simulations (and planner repetitions) averaged per configuration
     * @param seed fixes the devices' epochs, samples and randomization
     */
    public static List<Comparison> run(
            DeviceWorkload workload,
            int devices,
            List<PrivacyParameters> configs,
            int repetitions,
            long seed) {
        int methods = workload.graph().methods();
        // Epochs of at least 5|V| events, so that rounding the workload's rates into counts keeps
        // the shares (a user-level report samples one event, but from a realistic epoch).
        long minimumEvents = 5L * methods;
        for (PrivacyParameters p : configs) {
            minimumEvents = Math.max(minimumEvents, p.k());
        }
        RandomSource random = new SeededRandomSource(seed);
        long[][] epochs = new long[devices][];
        for (int d = 0; d < devices; d++) {
            epochs[d] = workload.epoch(d, minimumEvents, random);
        }
        double[] profile = SimulatedReports.meanShares(epochs);
        PrivacyPlanner planner =
                new PrivacyPlanner(workload.graph(), profile, devices, 1.0, repetitions, seed);
        ConstraintProjection projection = new ConstraintProjection(workload.graph());
        List<Comparison> out = new ArrayList<>();
        for (PrivacyParameters privacy : configs) {
            double raw = 0;
            double projected = 0;
            for (int r = 0; r < repetitions; r++) {
                // ε-t estimates the reports' sampled events; user-level the mean profile.
                boolean sampled = privacy.mode() != PrivacyMode.USER_LEVEL;
                double[] truth = sampled ? new double[methods] : profile;
                PartialSum sum =
                        SimulatedReports.sum(privacy, epochs, random, sampled ? truth : null);
                double[] estimate = new FrequencyEstimator(privacy).estimate(sum).normalized();
                raw += FrequencyMetrics.relativeError(truth, estimate);
                projected +=
                        FrequencyMetrics.relativeError(
                                truth, projection.project(estimate).solution());
            }
            out.add(
                    new Comparison(
                            planner.predict(new PrivacyPlanner.Candidate(privacy, 1)),
                            raw / repetitions,
                            projected / repetitions));
        }
        return out;
    }
}
