package dev.fieldprof.cli.diff;

import dev.fieldprof.diff.estimates.ReleaseEstimate;
import dev.fieldprof.estimation.FrequencyEstimate;
import dev.fieldprof.estimation.FrequencyEstimator;
import dev.fieldprof.estimation.PartialSum;
import dev.fieldprof.ldp.LocalRandomizer;
import dev.fieldprof.ldp.PrivacyParameters;
import dev.fieldprof.ldp.SeededRandomSource;
import dev.fieldprof.schemas.EstimateWindow;
import dev.fieldprof.schemas.RankedMethod;
import dev.fieldprof.schemas.SolveStats;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Field estimates of a simulated release, made by the real pipeline: every device's trace of k
 * method entries goes through the client SDK's {@link LocalRandomizer} (seeded), the reports are
 * summed in a {@link PartialSum} and estimated by the frequency job's {@link FrequencyEstimator}.
 *
 * <p>Every device runs the same trace (the counts given), so the true share of method v is exactly
 * counts[v] / k and the only noise is the randomization, which is what the estimates' standard
 * error describes (device-to-device variation is not part of it, see EstimateDiffer).
 */
final class SimulatedRelease {
    /** ε = ln 9, t = 1: a = 3, p = 3/4. */
    static final double EPSILON = Math.log(9);

    private SimulatedRelease() {}

    /**
     * The estimate of {@code reports} devices each running the trace {@code counts} (summing to k).
     */
    static FrequencyEstimate estimate(int[] counts, int reports, long seed) {
        int k = Arrays.stream(counts).sum();
        PrivacyParameters parameters = new PrivacyParameters(EPSILON, 1, k);
        LocalRandomizer randomizer = new LocalRandomizer(parameters, new SeededRandomSource(seed));
        PartialSum sum = new PartialSum(counts.length);
        for (int i = 0; i < reports; i++) {
            sum.add(randomizer.randomize(counts));
        }
        return new FrequencyEstimator(parameters).estimate(sum);
    }

    /** As a ReleaseEstimate; g* is ĝ clipped at 0 and renormalized (no order pairs). */
    static ReleaseEstimate release(
            String appVersion, List<String> signatures, int[] counts, int reports, long seed) {
        FrequencyEstimate e = estimate(counts, reports, seed);
        return new ReleaseEstimate(
                appVersion,
                "default",
                reports,
                signatures,
                e.normalized(),
                consistent(e.normalized()),
                e.standardError());
    }

    /** As the EstimateWindow the frequency job would write (cumulative). */
    static EstimateWindow window(
            String appVersion, List<String> signatures, int[] counts, int reports, long seed) {
        FrequencyEstimate e = estimate(counts, reports, seed);
        double[] g = consistent(e.normalized());
        List<Double> normalized = new ArrayList<>();
        List<Double> consistent = new ArrayList<>();
        for (int v = 0; v < counts.length; v++) {
            normalized.add(e.normalized()[v]);
            consistent.add(g[v]);
        }
        return EstimateWindow.newBuilder()
                .setAppVersion(appVersion)
                .setConfigId("default")
                .setWindowStartMillis(Instant.EPOCH)
                .setWindowEndMillis(Instant.ofEpochSecond(3600))
                .setCumulative(true)
                .setReports(reports)
                .setK(Arrays.stream(counts).sum())
                .setEpsilon(EPSILON)
                .setT(1)
                .setNormalized(normalized)
                .setStandardError(e.standardError())
                .setConsistent(consistent)
                .setHotThreshold(0.5)
                .setHotMethods(List.of())
                .setTop(List.<RankedMethod>of())
                .setSolve(
                        SolveStats.newBuilder()
                                .setMillis(0)
                                .setKktResidual(0)
                                .setRounds(0)
                                .setMaxViolation(0)
                                .build())
                .setEmittedAtMillis(Instant.ofEpochSecond(3600))
                .build();
    }

    /** The projection of ĝ onto the simplex (the job's g* when there are no order pairs). */
    static double[] consistent(double[] g) {
        double[] sorted = g.clone();
        Arrays.sort(sorted);
        double cumulative = 0;
        double shift = 0;
        for (int i = sorted.length - 1; i >= 0; i--) {
            cumulative += sorted[i];
            double candidate = (cumulative - 1) / (sorted.length - i);
            if (i == 0 || sorted[i - 1] <= candidate) {
                shift = candidate;
                break;
            }
        }
        double[] out = new double[g.length];
        for (int v = 0; v < g.length; v++) {
            out[v] = Math.max(0, g[v] - shift);
        }
        return out;
    }
}
