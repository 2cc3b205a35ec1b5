package dev.fieldprof.ldp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Statistical tests of the exact hypergeometric samplers against exact pmfs, and a deterministic
 * check that the ratio-of-uniforms hat covers the whole pmf. Each statistical case is a chi-square
 * test with cells pooled to at least 5 expected draws (tails in the end cells) against the exact
 * chi-square(cells − 1) quantile at 1e-6 ({@link GoodnessOfFit}): it fails with probability 1e-6
 * when the sampler is exact. This class runs 15 + 2 = 17 such cases per build: false failure at
 * most 1.7e-5 by the union bound.
 */
class HypergeometricSamplerTest {
    private static final double SIGNIFICANCE = 1e-6;

    @ParameterizedTest(name = "N={0}, M={1}, n={2}")
    @CsvSource({
        "10, 3, 4",
        "10, 7, 4",
        "10, 3, 8",
        "50, 25, 25",
        "100, 10, 30",
        "1000, 500, 40",
        "1000, 30, 500",
        "1000, 999, 10",
        "100000, 40000, 50000",
        "1000000, 5000, 50000",
        "1000000000, 300000000, 50000",
        "1000000000000, 1000000, 50000",
        "4000000000000, 2000000000000, 2000000",
        "60000, 59000, 50000",
        "200, 100, 100"
    })
    void matchesExactPmf(long population, long marked, long draws) {
        long seed = 0xbeef0000L + population * 7 + marked * 13 + draws;
        SeededRandomSource random = new SeededRandomSource(seed);
        int samples = 300_000;
        double n = population;
        double mean = draws * (marked / n);
        double sd =
                Math.sqrt(
                        draws * (marked / n) * (1 - marked / n) * (n - draws) / Math.max(1, n - 1));
        long low = (long) Math.max(Math.max(0, draws + marked - population), mean - 8 * sd - 2);
        long high = (long) Math.min(Math.min(draws, marked), Math.ceil(mean + 8 * sd + 2));
        long[] observed = new long[(int) (high - low + 1)];
        for (int i = 0; i < samples; i++) {
            long x = HypergeometricSampler.sample(random, population, marked, draws);
            assertThat(x).as("seed %d", seed).isBetween(0L, Math.min(draws, marked));
            // The end cells are the tails: they count every draw beyond them.
            observed[(int) (Math.max(low, Math.min(high, x)) - low)]++;
        }
        GoodnessOfFit.Result result =
                GoodnessOfFit.test(
                        observed,
                        low,
                        x -> HypergeometricSampler.pmf(population, marked, draws, x),
                        SIGNIFICANCE);
        assertThat(result.accepts()).as("%s, seed %d", result, seed).isTrue();
    }

    @ParameterizedTest(name = "N={0}, M={1}, n={2}")
    @CsvSource({
        "40, 20, 20",
        "100, 50, 50",
        "1000, 100, 300",
        "100000, 50000, 50000",
        "1000000000, 1000, 50000",
        "1000000000000, 500000000000, 50000",
        "10000, 200, 5000"
    })
    void ratioOfUniformsHatCoversThePmf(long population, long marked, long draws) {
        // Ratio of uniforms is exact iff |x - a| * sqrt(f(floor x)/f(mode)) <= h/2 everywhere.
        double n = population;
        double mean = draws * (marked / n);
        double variance = draws * (marked / n) * (1 - marked / n) * ((n - draws) / (n - 1));
        double a = mean + 0.5;
        double h = HypergeometricSampler.D1 * Math.sqrt(variance + 0.5) + HypergeometricSampler.D2;
        long mode = HypergeometricSampler.mode(population, marked, draws);
        long high = Math.min(draws, marked);
        for (long x = 0; x <= high; x++) {
            double ratio =
                    Math.exp(HypergeometricSampler.logPmfRatio(population, marked, draws, x, mode));
            assertThat(ratio).as("mode is the maximum at x=%d", x).isLessThanOrEqualTo(1 + 1e-12);
            double reach = Math.max(Math.abs(x - a), Math.abs(x + 1 - a)) * Math.sqrt(ratio);
            assertThat(reach).as("hat at x=%d", x).isLessThanOrEqualTo(h / 2);
        }
    }

    @Test
    void multivariateSampleMatchesExactJointPmf() {
        long seed = 20261122L;
        SeededRandomSource random = new SeededRandomSource(seed);
        long[] counts = {3, 0, 2, 4, 1};
        int k = 4;
        int samples = 200_000;
        Map<String, Long> observed = new HashMap<>();
        for (int i = 0; i < samples; i++) {
            int[] s = HypergeometricSampler.sampleMultivariate(random, counts, k);
            int sum = 0;
            for (int v = 0; v < s.length; v++) {
                assertThat(s[v]).isBetween(0, (int) counts[v]);
                sum += s[v];
            }
            assertThat(sum).isEqualTo(k);
            observed.merge(s[0] + "," + s[2] + "," + s[3] + "," + s[4], 1L, Long::sum);
        }
        // Exact joint pmf: prod C(c_v, s_v) / C(10, 4); enumerate all outcomes. The smallest
        // outcome probability is 4/210 (expected 3,810 draws), so no cell needs pooling.
        double total = binomial(10, 4);
        List<Double> probabilities = new ArrayList<>();
        List<Long> cellCounts = new ArrayList<>();
        for (int a = 0; a <= 3; a++) {
            for (int b = 0; b <= 2; b++) {
                for (int c = 0; c <= 4; c++) {
                    int d = k - a - b - c;
                    if (d < 0 || d > 1) {
                        continue;
                    }
                    probabilities.add(
                            binomial(3, a)
                                    * binomial(2, b)
                                    * binomial(4, c)
                                    * binomial(1, d)
                                    / total);
                    cellCounts.add(observed.getOrDefault(a + "," + b + "," + c + "," + d, 0L));
                }
            }
        }
        assertThat(observed.size()).isLessThanOrEqualTo(cellCounts.size());
        GoodnessOfFit.Result result =
                GoodnessOfFit.test(
                        cellCounts.stream().mapToLong(Long::longValue).toArray(),
                        probabilities.stream().mapToDouble(Double::doubleValue).toArray(),
                        SIGNIFICANCE);
        assertThat(result.degrees()).isEqualTo(cellCounts.size() - 1);
        assertThat(result.accepts()).as("%s, seed %d", result, seed).isTrue();
    }

    @Test
    void multivariateLargeMarginalIsHypergeometric() {
        long seed = 77L;
        SeededRandomSource random = new SeededRandomSource(seed);
        long[] counts = new long[10_000];
        for (int v = 0; v < counts.length; v++) {
            counts[v] = 1 + (v * 7919L) % 500;
        }
        counts[9_999] = 3_000_000; // the last category: its marginal checks the whole chain
        long population = 0;
        for (long c : counts) {
            population += c;
        }
        int k = 50_000;
        int samples = 2_000;
        long[] observed = new long[k + 1];
        for (int i = 0; i < samples; i++) {
            int[] s = HypergeometricSampler.sampleMultivariate(random, counts, k);
            observed[s[9_999]]++;
        }
        long finalPopulation = population;
        GoodnessOfFit.Result result =
                GoodnessOfFit.test(
                        observed,
                        0,
                        x -> HypergeometricSampler.pmf(finalPopulation, 3_000_000, k, x),
                        SIGNIFICANCE);
        assertThat(result.accepts()).as("%s, seed %d", result, seed).isTrue();
    }

    @Test
    void takesEverythingWhenKEqualsTotal() {
        int[] s =
                HypergeometricSampler.sampleMultivariate(
                        new SeededRandomSource(3), new long[] {2, 0, 5}, 7);
        assertThat(s).containsExactly(2, 0, 5);
    }

    @Test
    void rejectsSampleLargerThanPopulation() {
        assertThatThrownBy(
                        () ->
                                HypergeometricSampler.sampleMultivariate(
                                        new SeededRandomSource(3), new long[] {2, 1}, 4))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("k must be in [0, total of counts=3], got 4");
    }

    @Test
    void pmfSumsToOne() {
        double total = 0;
        for (int x = 0; x <= 300; x++) {
            total += HypergeometricSampler.pmf(1000, 300, 400, x);
        }
        assertThat(total).isCloseTo(1, within(1e-12));
    }

    private static double binomial(int n, int r) {
        double result = 1;
        for (int i = 1; i <= r; i++) {
            result = result * (n - r + i) / i;
        }
        return result;
    }
}
