package dev.fieldprof.estimation.evaluation;

import dev.fieldprof.estimation.PartialSum;
import dev.fieldprof.ldp.HypergeometricSampler;
import dev.fieldprof.ldp.LocalRandomizer;
import dev.fieldprof.ldp.PrivacyParameters;
import dev.fieldprof.ldp.RandomSource;
import dev.fieldprof.ldp.SubsetSelection;
import dev.fieldprof.schemas.PrivacyMode;

/**
 * One report per simulated device, made as the device runtime makes it in either mode (ε-t: k
 * events sampled exactly from the epoch and randomized; user-level: one event sampled and reported
 * through the subset-selection oracle, summed as its 0/1 vector), for the studies that compare
 * estimates with the truth.
 */
public final class SimulatedReports {
    private SimulatedReports() {}

    /**
     * Sums one report of every epoch into a new {@link PartialSum}.
     *
     * @param sampledTruth where the ε-t mode's estimand is added (each report's sampled events over
     *     n·k), or null; the user-level mode adds nothing to it
     */
    public static PartialSum sum(
            PrivacyParameters privacy,
            long[][] epochs,
            RandomSource random,
            double[] sampledTruth) {
        int methods = epochs[0].length;
        PartialSum sum = new PartialSum(methods);
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
            }
            return sum;
        }
        LocalRandomizer randomizer = new LocalRandomizer(privacy, random);
        double nk = (double) epochs.length * privacy.k();
        for (long[] epoch : epochs) {
            int[] trace = HypergeometricSampler.sampleMultivariate(random, epoch, privacy.k());
            if (sampledTruth != null) {
                for (int v = 0; v < methods; v++) {
                    sampledTruth[v] += trace[v] / nk;
                }
            }
            sum.add(randomizer.randomize(trace));
        }
        return sum;
    }

    /** The mean over devices of each epoch's shares: what both modes estimate. */
    public static double[] meanShares(long[][] epochs) {
        int methods = epochs[0].length;
        double[] shares = new double[methods];
        for (long[] epoch : epochs) {
            double total = 0;
            for (long c : epoch) {
                total += c;
            }
            for (int v = 0; v < methods; v++) {
                shares[v] += epoch[v] / total / epochs.length;
            }
        }
        return shares;
    }
}
