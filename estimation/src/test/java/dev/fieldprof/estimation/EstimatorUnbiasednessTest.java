package dev.fieldprof.estimation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.ldp.LocalRandomizer;
import dev.fieldprof.ldp.PrivacyParameters;
import dev.fieldprof.ldp.SeededRandomSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * End to end through the real device randomizer ({@link LocalRandomizer}, seeded) and the server's
 * {@link FrequencyEstimator}: ĝ(v) is unbiased for the true share g(v) and its stated standard
 * error SE = √(a/(nk))/(a − 1) is its true spread.
 *
 * <p>{@value #WINDOWS} windows of {@value #REPORTS} reports of a known population of traces (4
 * device profiles over {@value #METHODS} methods; the truth G(v) = Σ F_i(v) is known exactly) give
 * M = 1,000 independent z(v) = (ĝ(v) − g(v)) / SE. When randomizer and estimator are right, F̂(v)
 * is a sum of n·k independent Bernoulli variables (each event kept with p or flipped in with 1 − p,
 * variance pq each) and z is exactly its standardized deviation, σ² = nkpq. Three checks, each with
 * a non-asymptotic bound (no normal approximation) that the test computes and asserts:
 *
 * <ul>
 *   <li>max |z| <= {@value #Z_MAX} catches a bias. Bernstein: Pr[|z| >= x] <= 2·exp(−x²/(2(1 +
 *       x/(3σ)))); times M (union bound) below 1e-7.
 *   <li>mean z² >= 1/2 catches an SE stated too large. The z² are independent, non-negative, mean
 *       1, E z⁴ <= 3 + 1/σ² (the fourth cumulant of a Bernoulli sum is at most its variance);
 *       Maurer's inequality: Pr[mean z² <= 1/2] <= exp(−M/(8·E z⁴)) < 1e-17.
 *   <li>mean z² <= 2 catches an SE stated too small. z is sub-Gaussian with variance proxy s² =
 *       1/(4pq) (Hoeffding's lemma), so E exp(λz²) <= (1 − 2λs²)^(−1/2) and Chernoff gives Pr[mean
 *       z² >= 2] <= exp(M·(−2λ − ½·ln(1 − 2λs²))) at λ = (1 − s²/2)/(2s²); below 1e-17 for both
 *       configurations.
 * </ul>
 *
 * False failure per configuration below 1e-7 + 2e-17; 2 configurations per build: below 2.1e-7.
 * {@link #catchesAWrongPAndAWrongStandardError} shows each check rejects the wrong implementation
 * it guards against, with power from the same bounds.
 */
class EstimatorUnbiasednessTest {
    private static final int METHODS = 20;
    private static final int WINDOWS = 50;
    private static final int REPORTS = 2_000;
    private static final double Z_MAX = 7;
    private static final double LOWEST_MEAN_SQUARE = 0.5;
    private static final double HIGHEST_MEAN_SQUARE = 2;

    @ParameterizedTest(name = "epsilon={0}, t={1}, k={2}")
    @CsvSource({"2.1972245773362196, 1, 100", "1.0, 2, 50"})
    void estimateIsUnbiasedWithinItsStatedStandardError(double epsilon, int t, int k) {
        PrivacyParameters parameters = new PrivacyParameters(epsilon, t, k);
        long seed = 0xe57L + k;
        Check check = run(parameters, parameters, new SeededRandomSource(seed), 1);
        assertThat(check.count()).isEqualTo(WINDOWS * METHODS);
        assertThat(falseFailureBounds(parameters, check.count()))
                .as("Bernstein, Maurer and Chernoff bounds")
                .satisfies(b -> assertThat(b[0]).isLessThan(1e-7))
                .satisfies(b -> assertThat(b[1]).isLessThan(1e-17))
                .satisfies(b -> assertThat(b[2]).isLessThan(1e-17));
        assertThat(check.maxAbsZ()).as("max |z|, seed %d", seed).isLessThanOrEqualTo(Z_MAX);
        assertThat(check.meanSquare())
                .as("mean z², seed %d", seed)
                .isBetween(LOWEST_MEAN_SQUARE, HIGHEST_MEAN_SQUARE);
    }

    @Test
    void catchesAWrongPAndAWrongStandardError() {
        PrivacyParameters parameters = new PrivacyParameters(Math.log(9), 1, 100);
        double[] bounds = falseFailureBounds(parameters, WINDOWS * METHODS);

        // A device that randomizes with ε/t in place of ε/(2t) (p = 0.9, not 0.75): the expected
        // z of the most shifted method, computed exactly, exceeds Z_MAX by more than 20 standard
        // deviations, so Bernstein bounds the chance of a pass by 2·exp(−20²/2.1) < 1e-80.
        PrivacyParameters device = new PrivacyParameters(2 * Math.log(9), 1, 100);
        assertThat(maxExpectedShift(device, parameters)).isGreaterThan(Z_MAX + 20);
        Check wrongP = run(device, parameters, new SeededRandomSource(1), 1);
        assertThat(wrongP.maxAbsZ()).as("wrong p: max |z|").isGreaterThan(Z_MAX);

        // SE stated twice too large: mean z² (true SE) would have to reach 4·1/2 = 2 for a pass,
        // probability below the Chernoff bound: power at least 1 − bounds[2].
        Check wideSe = run(parameters, parameters, new SeededRandomSource(2), 2);
        assertThat(wideSe.meanSquare()).as("SE x2: mean z²").isLessThan(LOWEST_MEAN_SQUARE);

        // SE stated twice too small: a pass needs mean z² (true SE) <= 2/4 = 1/2, probability
        // below the Maurer bound: power at least 1 − bounds[1].
        Check narrowSe = run(parameters, parameters, new SeededRandomSource(3), 0.5);
        assertThat(narrowSe.meanSquare()).as("SE x0.5: mean z²").isGreaterThan(HIGHEST_MEAN_SQUARE);
        assertThat(bounds[1] + bounds[2]).isLessThan(1e-17);
    }

    /**
     * The three checks' false-failure bounds for {@code count} z-values under these parameters:
     * Bernstein (max |z|) with the union bound, Maurer (mean z² low), Chernoff (mean z² high).
     */
    static double[] falseFailureBounds(PrivacyParameters parameters, int count) {
        double pq = parameters.p() * (1 - parameters.p());
        double sigma = Math.sqrt((double) REPORTS * parameters.k() * pq);
        double bernstein = count * 2 * Math.exp(-Z_MAX * Z_MAX / (2 * (1 + Z_MAX / (3 * sigma))));
        double fourthMoment = 3 + 1 / (sigma * sigma);
        double maurer = Math.exp(-count * Math.pow(1 - LOWEST_MEAN_SQUARE, 2) / (2 * fourthMoment));
        double proxy = 1 / (4 * pq);
        double c = HIGHEST_MEAN_SQUARE;
        double lambda = (1 - proxy / c) / (2 * proxy);
        double chernoff = Math.exp(count * (-lambda * c - 0.5 * Math.log(1 - 2 * lambda * proxy)));
        return new double[] {bernstein, maurer, chernoff};
    }

    /** The true histogram: 4 device profiles, each summing to k, repeated over the reports. */
    static int[][] profiles(int k) {
        int[][] profiles = new int[4][METHODS];
        profiles[0][0] = 6 * k / 10;
        profiles[0][1] = 3 * k / 10;
        profiles[0][2] = k - profiles[0][0] - profiles[0][1];
        profiles[1][3] = k;
        for (int e = 0; e < k; e++) {
            profiles[2][e % METHODS]++;
        }
        profiles[3][0] = 1;
        profiles[3][METHODS - 1] = k - 1;
        return profiles;
    }

    record Check(double maxAbsZ, double meanSquare, int count) {}

    /**
     * Randomizes each window's reports with {@code device}, estimates with {@code server}, and
     * collects z(v) = (ĝ(v) − g(v)) / (seScale · stated SE).
     */
    static Check run(
            PrivacyParameters device,
            PrivacyParameters server,
            SeededRandomSource random,
            double seScale) {
        int k = server.k();
        int[][] profiles = profiles(k);
        LocalRandomizer randomizer = new LocalRandomizer(device, random);
        FrequencyEstimator estimator = new FrequencyEstimator(server);
        double maxAbsZ = 0;
        double sumSquares = 0;
        int count = 0;
        for (int w = 0; w < WINDOWS; w++) {
            PartialSum sum = new PartialSum(METHODS);
            long[] truth = new long[METHODS];
            for (int i = 0; i < REPORTS; i++) {
                int[] f = profiles[i % profiles.length];
                sum.add(randomizer.randomize(f));
                for (int v = 0; v < METHODS; v++) {
                    truth[v] += f[v];
                }
            }
            FrequencyEstimate estimate = estimator.estimate(sum);
            double se = seScale * estimate.standardError();
            for (int v = 0; v < METHODS; v++) {
                double g = truth[v] / ((double) REPORTS * k);
                double z = (estimate.normalized()[v] - g) / se;
                maxAbsZ = Math.max(maxAbsZ, Math.abs(z));
                sumSquares += z * z;
                count++;
            }
        }
        return new Check(maxAbsZ, sumSquares / count, count);
    }

    /** The largest |E z(v)| when devices randomize with {@code device} and the server assumes p. */
    static double maxExpectedShift(PrivacyParameters device, PrivacyParameters server) {
        int k = server.k();
        double a = server.a();
        double pDevice = device.p();
        double se = new FrequencyEstimator(server).standardError(REPORTS);
        double worst = 0;
        for (int v = 0; v < METHODS; v++) {
            double truth = 0;
            double expectedSum = 0;
            for (int i = 0; i < REPORTS; i++) {
                int f = profiles(k)[i % 4][v];
                truth += f;
                expectedSum += pDevice * f + (1 - pDevice) * (k - f);
            }
            double nk = (double) REPORTS * k;
            double expectedG = ((a + 1) * expectedSum - nk) / (a - 1) / nk;
            worst = Math.max(worst, Math.abs(expectedG - truth / nk) / se);
        }
        return worst;
    }
}
