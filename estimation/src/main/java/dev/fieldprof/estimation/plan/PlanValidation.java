package dev.fieldprof.estimation.plan;

import dev.fieldprof.client.privacy.HypergeometricSampler;
import dev.fieldprof.client.privacy.LocalRandomizer;
import dev.fieldprof.client.privacy.PrivacyParameters;
import dev.fieldprof.client.privacy.RandomSource;
import dev.fieldprof.client.privacy.SeededRandomSource;
import dev.fieldprof.client.privacy.SubsetSelection;
import dev.fieldprof.estimation.ConstraintProjection;
import dev.fieldprof.estimation.FrequencyEstimator;
import dev.fieldprof.estimation.FrequencyMetrics;
import dev.fieldprof.estimation.PartialSum;
import dev.fieldprof.estimation.evaluation.DeviceWorkload;
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
        long minimumEvents = 1;
        for (PrivacyParameters p : configs) {
            minimumEvents = Math.max(minimumEvents, p.k());
        }
        RandomSource random = new SeededRandomSource(seed);
        long[][] epochs = new long[devices][];
        double[] profile = new double[methods];
        for (int d = 0; d < devices; d++) {
            epochs[d] = workload.epoch(d, minimumEvents, random);
            double total = 0;
            for (long c : epochs[d]) {
                total += c;
            }
            for (int v = 0; v < methods; v++) {
                profile[v] += epochs[d][v] / total / devices;
            }
        }
        PrivacyPlanner planner =
                new PrivacyPlanner(workload.graph(), profile, devices, 1.0, repetitions, seed);
        ConstraintProjection projection = new ConstraintProjection(workload.graph());
        List<Comparison> out = new ArrayList<>();
        for (PrivacyParameters privacy : configs) {
            double raw = 0;
            double projected = 0;
            for (int r = 0; r < repetitions; r++) {
                double[] truth = new double[methods];
                PartialSum sum = new PartialSum(methods);
                simulate(privacy, epochs, random, truth, sum);
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

    /** One report per device into {@code sum}; the truth the mode estimates into {@code truth}. */
    private static void simulate(
            PrivacyParameters privacy,
            long[][] epochs,
            RandomSource random,
            double[] truth,
            PartialSum sum) {
        int methods = truth.length;
        int devices = epochs.length;
        if (privacy.mode() == PrivacyMode.USER_LEVEL) {
            SubsetSelection oracle = new SubsetSelection(methods, privacy.epsilon());
            for (long[] epoch : epochs) {
                int[] one = HypergeometricSampler.sampleMultivariate(random, epoch, 1);
                int event = 0;
                while (one[event] == 0) {
                    event++;
                }
                int[] indicators = new int[methods];
                for (int z : oracle.randomize(random, event)) {
                    indicators[z] = 1;
                }
                sum.add(indicators);
                double total = 0;
                for (long c : epoch) {
                    total += c;
                }
                for (int v = 0; v < methods; v++) {
                    truth[v] += epoch[v] / total / devices;
                }
            }
            return;
        }
        LocalRandomizer randomizer = new LocalRandomizer(privacy, random);
        double nk = (double) devices * privacy.k();
        for (long[] epoch : epochs) {
            int[] trace = HypergeometricSampler.sampleMultivariate(random, epoch, privacy.k());
            for (int v = 0; v < methods; v++) {
                truth[v] += trace[v] / nk;
            }
            sum.add(randomizer.randomize(trace));
        }
    }
}
