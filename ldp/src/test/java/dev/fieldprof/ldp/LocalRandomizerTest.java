package dev.fieldprof.ldp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Statistical tests of R(F)(v) = Binomial(F(v), p) + Binomial(k − F(v), 1 − p). Mean and variance
 * are checked within 6 standard errors computed from the exact moments (two-sided normal tail 2e-9
 * each, by the central limit theorem at 200,000 samples); the whole distribution by a chi-square
 * test with cells pooled to at least 5 expected draws against the exact chi-square(cells − 1)
 * quantile at 1e-6 ({@link GoodnessOfFit}). Per case 1e-6 + 2·2e-9; the 6 cases per build: below
 * 6.1e-6 by the union bound. Detecting an inexact binomial sampler (the normal approximation of
 * frequency profiling, docs/references.md) by sampling is BinomialTailMassTest's job.
 */
class LocalRandomizerTest {

    @ParameterizedTest(name = "epsilon={0}, t={1}, k={2}, F(v)={3}")
    @CsvSource({
        "2.1972245773362196, 1, 5, 4",
        "2.1972245773362196, 2, 5, 0",
        "1.0, 1, 1000, 17",
        "4.0, 10, 50000, 3",
        "0.5, 1, 5000, 4000",
        "8.0, 4, 200, 200"
    })
    void countMatchesExactMeanVarianceAndPmf(double epsilon, int t, int k, int f) {
        PrivacyParameters params = new PrivacyParameters(epsilon, t, k);
        long seed = 1234L + k + f;
        LocalRandomizer randomizer = new LocalRandomizer(params, new SeededRandomSource(seed));
        // Two entries: v carries f events, the other carries the rest.
        int[] frequencies = {f, k - f};
        int samples = 200_000;
        double p = params.p();
        double expectedMean = p * f + (1 - p) * (k - f);
        double expectedVariance = k * p * (1 - p);
        // Values beyond 10 standard deviations have probability below 1e-20: count them as misses.
        int low = (int) Math.max(0, Math.floor(expectedMean - 10 * Math.sqrt(expectedVariance)));
        int high = (int) Math.min(k, Math.ceil(expectedMean + 10 * Math.sqrt(expectedVariance)));
        long[] histogram = new long[high - low + 1];
        double sum = 0;
        double sumSquares = 0;
        for (int i = 0; i < samples; i++) {
            int z = randomizer.randomize(frequencies)[0];
            if (z < low || z > high) {
                throw new AssertionError("value " + z + " beyond 10 sd, seed " + seed);
            }
            histogram[z - low]++;
            sum += z;
            sumSquares += (double) z * z;
        }
        double mean = sum / samples;
        double variance = (sumSquares - samples * mean * mean) / (samples - 1);
        // Exact fourth central moment from the exact pmf gives the variance estimator's spread.
        double mu4 = 0;
        for (int z = low; z <= high; z++) {
            mu4 += Math.pow(z - expectedMean, 4) * LocalRandomizer.countPmf(params, f, z);
        }
        double varianceSd =
                Math.sqrt(
                        (mu4
                                        - expectedVariance
                                                * expectedVariance
                                                * (samples - 3.0)
                                                / (samples - 1))
                                / samples);
        assertThat(mean)
                .as("mean, seed %d", seed)
                .isCloseTo(expectedMean, within(6 * Math.sqrt(expectedVariance / samples)));
        assertThat(variance)
                .as("variance, seed %d", seed)
                .isCloseTo(expectedVariance, within(6 * varianceSd));
        GoodnessOfFit.Result result =
                GoodnessOfFit.test(
                        histogram, low, z -> LocalRandomizer.countPmf(params, f, (int) z), 1e-6);
        assertThat(result.accepts()).as("%s, seed %d", result, seed).isTrue();
    }

    @Test
    void drawsExactlyWhatTheUncachedSamplersDraw() {
        // The randomizer's cached setups must not change a single draw of the formula above.
        PrivacyParameters params = new PrivacyParameters(Math.log(9), 10, 50_000);
        int[] f = new int[10_000];
        SplittableRandom trace = new SplittableRandom(4);
        for (int i = 0; i < 50_000; i++) {
            f[(int) Math.min(9_999, Math.pow(10_000, trace.nextDouble()) - 1)]++;
        }
        LocalRandomizer randomizer = new LocalRandomizer(params, new SeededRandomSource(21));
        SeededRandomSource direct = new SeededRandomSource(21);
        for (int report = 0; report < 3; report++) {
            int[] z = randomizer.randomize(f);
            for (int v = 0; v < f.length; v++) {
                int expected =
                        BinomialSampler.sample(direct, f[v], params.p())
                                + BinomialSampler.sample(direct, 50_000 - f[v], 1 - params.p());
                assertThat(z[v]).as("report %d, v %d", report, v).isEqualTo(expected);
            }
        }
    }

    @Test
    void keepsProbabilityOfWorkedExample() {
        // Frequency profiling (docs/references.md) section 3.3: epsilon = ln 9, t = 1 gives a = 3
        // and p = 0.75.
        PrivacyParameters params = new PrivacyParameters(Math.log(9), 1, 5);
        assertThat(params.a()).isCloseTo(3, within(1e-12));
        assertThat(params.p()).isCloseTo(0.75, within(1e-12));
    }

    @Test
    void rejectsFrequenciesNotSummingToK() {
        LocalRandomizer randomizer =
                new LocalRandomizer(new PrivacyParameters(1, 1, 5), new SeededRandomSource(1));
        assertThatThrownBy(() -> randomizer.randomize(new int[] {2, 2}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("frequencies must sum to k=5, got 4");
        assertThatThrownBy(() -> randomizer.randomize(new int[] {6, -1}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("frequencies must be >= 0, got -1 at index 1");
    }

    @Test
    void reportedCountsStayWithinZeroAndK() {
        LocalRandomizer randomizer =
                new LocalRandomizer(new PrivacyParameters(3, 2, 50_000), new SeededRandomSource(9));
        int[] f = new int[10_000];
        for (int i = 0; i < 50_000; i++) {
            f[(i * 31) % 10_000]++;
        }
        for (int z : randomizer.randomize(f)) {
            assertThat(z).isBetween(0, 50_000);
        }
    }
}
