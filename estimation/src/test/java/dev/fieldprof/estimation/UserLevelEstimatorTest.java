package dev.fieldprof.estimation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.ldp.HypergeometricSampler;
import dev.fieldprof.ldp.PrivacyParameters;
import dev.fieldprof.ldp.RandomSource;
import dev.fieldprof.ldp.SeededRandomSource;
import dev.fieldprof.ldp.SubsetSelection;
import dev.fieldprof.schemas.PrivacyMode;
import java.util.Locale;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The user-level estimator on reports from the real device path: exact counts of simulated epochs,
 * one event drawn by {@link HypergeometricSampler}, randomized by {@link SubsetSelection}, summed
 * in a {@link PartialSum} and estimated by {@link FrequencyEstimator}.
 */
class UserLevelEstimatorTest {

    /**
     * ĝ(v) is unbiased for g(v) = (1/n) Σ_i C_i(v)/N_i within its exact standard error. ĝ(v) − g(v)
     * is a sum of n independent zero-mean terms (Y_i − μ_i)/(n(p − q)), each bounded by M = 1/(n(p
     * − q)), with variance σ_v² = Σ_i μ_i(1 − μ_i)/(n(p − q))². Bernstein's inequality gives
     * Pr[|ĝ(v) − g(v)| ≥ δ] ≤ 2·exp(−δ²/(2(σ_v² + Mδ/3))); δ_v solves it at α/|V| and the union
     * bound over V makes the false-failure probability at most α = 1e-6, with no normal
     * approximation. δ_v is printed in units of σ_v (about 5.4 here). A method of share 0 checks
     * the stated standard error against σ_v exactly.
     */
    @ParameterizedTest
    @CsvSource({"20, 1.0986122886681098, 200000, 11", "12, 8, 50000, 12", "300, 4, 100000, 13"})
    void estimatesTheShareProfileWithoutBiasWithinItsStandardError(
            int d, double epsilon, int n, long seed) {
        double alpha = 1e-6;
        RandomSource random = new SeededRandomSource(seed);
        java.util.Random profiles = new java.util.Random(seed);
        PrivacyParameters parameters = new PrivacyParameters(PrivacyMode.USER_LEVEL, epsilon, 1, 1);
        FrequencyEstimator estimator = new FrequencyEstimator(parameters);
        SubsetSelection oracle = estimator.oracle(d);
        double p = oracle.p();
        double q = oracle.q();
        // Four kinds of devices with different profiles; method d-1 is never run (share 0).
        long[][] kinds = new long[4][d];
        for (long[] kind : kinds) {
            for (int v = 0; v < d - 1; v++) {
                kind[v] = profiles.nextInt(4) == 0 ? 0 : 1 + profiles.nextInt(1000);
            }
            kind[0] = 5000 + profiles.nextInt(5000); // a hot method
        }
        double[] truth = new double[d];
        double[] variance = new double[d];
        PartialSum sum = new PartialSum(d);
        for (int i = 0; i < n; i++) {
            long[] counts = kinds[i % kinds.length];
            long total = 0;
            for (long c : counts) {
                total += c;
            }
            int[] sample = HypergeometricSampler.sampleMultivariate(random, counts, 1);
            int event = 0;
            while (sample[event] == 0) {
                event++;
            }
            int[] indicators = new int[d];
            for (int z : oracle.randomize(random, event)) {
                indicators[z] = 1;
            }
            sum.add(indicators);
            for (int v = 0; v < d; v++) {
                double share = (double) counts[v] / total;
                double mu = q + (p - q) * share;
                truth[v] += share / n;
                variance[v] += mu * (1 - mu);
            }
        }
        FrequencyEstimate estimate = estimator.estimate(sum);
        double m = 1 / (n * (p - q));
        double log = Math.log(2 * d / alpha);
        double worst = 0;
        for (int v = 0; v < d; v++) {
            double sigma = Math.sqrt(variance[v]) / (n * (p - q));
            // δ² = 2·log·(σ² + Mδ/3)
            double b = 2 * log * m / 3;
            double delta = (b + Math.sqrt(b * b + 8 * log * sigma * sigma)) / 2;
            double error = estimate.normalized()[v] - truth[v];
            worst = Math.max(worst, Math.abs(error) / sigma);
            assertThat(Math.abs(error))
                    .as(
                            "v=%d g=%.5f g^=%.5f sigma=%.5f (seed %d)",
                            v, truth[v], estimate.normalized()[v], sigma, seed)
                    .isLessThanOrEqualTo(delta);
            if (v == 0) {
                System.out.println(
                        String.format(
                                Locale.ROOT,
                                "d=%d epsilon=%.4f n=%d omega=%d: delta(v=0) = %.2f sigma",
                                d,
                                epsilon,
                                n,
                                oracle.subsetSize(),
                                delta / sigma));
            }
        }
        System.out.println(String.format(Locale.ROOT, "largest |g^-g|/sigma over V: %.2f", worst));
        // The share-0 method's exact standard error is the stated one (up to the rounding of the
        // n-term sum above).
        double sigmaZero = Math.sqrt(variance[d - 1]) / (n * (p - q));
        assertThat(truth[d - 1]).isZero();
        assertThat(estimate.standardError())
                .isCloseTo(sigmaZero, org.assertj.core.data.Offset.offset(1e-9 * sigmaZero));
        assertThat(estimate.reports()).isEqualTo(n);
        assertThat(estimate.unbiased()[0]).isEqualTo(estimate.normalized()[0] * n);
    }
}
