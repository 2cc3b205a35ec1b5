package dev.fieldprof.ldp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Statistical tests of the exact binomial sampler against the exact pmf. Each chi-square case pools
 * cells below 5 expected draws into their neighbours (the tails included: the end cells count every
 * draw beyond them) and compares the statistic with the exact chi-square(cells − 1) quantile at
 * 1e-6 ({@link GoodnessOfFit}); it fails with probability 1e-6 when the sampler is exact. This
 * class runs 24 + 7 = 31 such cases per build: false failure at most 3.1e-5 by the union bound. The
 * tail-mass checks are in BinomialTailMassTest, the BTRD hat checks in BtrdHatTest.
 */
class BinomialSamplerTest {
    private static final double SIGNIFICANCE = 1e-6;

    @ParameterizedTest(name = "n={0}, p={1}")
    @CsvSource({
        // inversion (n·min(p,1-p) < 10)
        "1, 0.5",
        "5, 0.75",
        "7, 0.25",
        "19, 0.5",
        "40, 0.2",
        "1000, 0.001",
        "10000000, 0.0000005",
        "30, 0.9",
        // BTRD, near the switch point and beyond
        "20, 0.5",
        "21, 0.5",
        "50, 0.2",
        "100, 0.3",
        "200, 0.75",
        "1000, 0.5",
        "5000, 0.01",
        "50000, 0.25",
        "50000, 0.75",
        "99999, 0.5",
        "1000000, 0.1",
        "10000000, 0.5",
        "10000000, 0.000002",
        "10000000, 0.9999",
        "2147483647, 0.5",
        "123457, 0.0001"
    })
    void matchesExactPmf(int n, double p) {
        long seed = 0x5eed0000L + n * 31L + Double.hashCode(p);
        SeededRandomSource random = new SeededRandomSource(seed);
        int samples = 400_000;
        double mean = n * p;
        double sd = Math.sqrt(n * p * (1 - p));
        int low = (int) Math.max(0, Math.floor(mean - 8 * sd - 2));
        int high = (int) Math.min(n, Math.ceil(mean + 8 * sd + 2));
        long[] observed = new long[high - low + 1];
        for (int i = 0; i < samples; i++) {
            int x = BinomialSampler.sample(random, n, p);
            assertThat(x).as("seed %d", seed).isBetween(0, n);
            // The end cells are the tails: they count every draw beyond them.
            observed[Math.max(low, Math.min(high, x)) - low]++;
        }
        GoodnessOfFit.Result result =
                GoodnessOfFit.test(
                        observed, low, x -> BinomialSampler.pmf(n, p, (int) x), SIGNIFICANCE);
        assertThat(result.accepts()).as("%s, seed %d", result, seed).isTrue();
    }

    @ParameterizedTest(name = "prepared p={0}, anchor={1}, n={2}")
    @CsvSource({
        "0.25, 50000, 50000",
        "0.25, 50000, 49990",
        "0.25, 50000, 3",
        "0.25, 50000, 70000",
        "0.75, 1000, 999",
        "0.75, 1000, 12",
        "0.0001, 10, 5000000"
    })
    void preparedSamplerMatchesExactPmf(double p, int anchor, int n) {
        // Same test as above (significance 1e-6 per case), through the cached setups.
        long seed = 0xcafeL + n + anchor;
        SeededRandomSource random = new SeededRandomSource(seed);
        BinomialSampler.Prepared prepared = new BinomialSampler.Prepared(p, anchor);
        double mean = n * p;
        double sd = Math.sqrt(n * p * (1 - p));
        int low = (int) Math.max(0, Math.floor(mean - 8 * sd - 2));
        int high = (int) Math.min(n, Math.ceil(mean + 8 * sd + 2));
        long[] observed = new long[high - low + 1];
        for (int i = 0; i < 300_000; i++) {
            int x = prepared.sample(random, n);
            assertThat(x).as("seed %d", seed).isBetween(0, n);
            observed[Math.max(low, Math.min(high, x)) - low]++;
        }
        GoodnessOfFit.Result result =
                GoodnessOfFit.test(
                        observed, low, x -> BinomialSampler.pmf(n, p, (int) x), SIGNIFICANCE);
        assertThat(result.accepts()).as("%s, seed %d", result, seed).isTrue();
    }

    @Test
    void preparedSamplerDrawsExactlyWhatTheDirectSamplerDraws() {
        // Same seed, same values: the cached setups and inversion tables change no arithmetic,
        // so the pmf tests of the direct sampler hold for the prepared one draw for draw.
        for (double p : new double[] {0.25, 0.75, 0.01, 0.5, 0.4727}) {
            BinomialSampler.Prepared prepared = new BinomialSampler.Prepared(p, 2_000);
            SeededRandomSource a = new SeededRandomSource(77);
            SeededRandomSource b = new SeededRandomSource(77);
            SplittableRandom sizes = new SplittableRandom(5);
            for (int i = 0; i < 100_000; i++) {
                int n = i % 2 == 0 ? sizes.nextInt(0, 60) : sizes.nextInt(0, 2_001);
                assertThat(prepared.sample(a, n))
                        .as("p=%s n=%d draw %d", p, n, i)
                        .isEqualTo(BinomialSampler.sample(b, n, p));
            }
        }
    }

    @ParameterizedTest(name = "squeeze n={0}, p={1}")
    @CsvSource({
        "20, 0.5",
        "40, 0.25",
        "100, 0.1",
        "1000, 0.5",
        "1000, 0.01",
        "50000, 0.25",
        "50000, 0.0002",
        "200000, 0.5",
        "10000000, 0.000001",
        "3000000, 0.3"
    })
    void btrdSqueezeBoundHoldsOnTheWholeSupport(int n, double p) {
        // Deterministic: for every K with |K - m| > 15, |ln f(K)/f(m) + km²/(2npq)| <= rho.
        double[] setup = BinomialSampler.squeezeCheck(n, p, 0);
        int mode = (int) setup[0];
        double npq = setup[1];
        int step = Math.max(1, n / 200_000);
        for (int k = 0; k <= n; k += step) {
            int km = Math.abs(k - mode);
            if (km <= 15) {
                continue;
            }
            double logRatio = BinomialSampler.squeezeCheck(n, p, k)[2];
            double rho = BinomialSampler.squeezeRadius(km, npq);
            double gauss = -(double) km * km / (2 * npq);
            assertThat(Math.abs(logRatio - gauss)).as("K=%d", k).isLessThanOrEqualTo(rho);
        }
    }

    @Test
    void degenerateProbabilitiesAreDeterministic() {
        SeededRandomSource random = new SeededRandomSource(1);
        assertThat(BinomialSampler.sample(random, 10, 0)).isZero();
        assertThat(BinomialSampler.sample(random, 10, 1)).isEqualTo(10);
        assertThat(BinomialSampler.sample(random, 0, 0.3)).isZero();
    }

    @Test
    void rejectsInvalidArguments() {
        SeededRandomSource random = new SeededRandomSource(1);
        assertThatThrownBy(() -> BinomialSampler.sample(random, -1, 0.5))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("n must be >= 0, got -1");
        assertThatThrownBy(() -> BinomialSampler.sample(random, 3, 1.5))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("p must be in [0, 1], got 1.5");
        assertThatThrownBy(() -> BinomialSampler.sample(random, 3, Double.NaN))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void pmfSumsToOneAndMatchesSmallCase() {
        assertThat(BinomialSampler.pmf(5, 0.75, 4))
                .isCloseTo(5 * Math.pow(0.75, 4) * 0.25, within(1e-15));
        double total = 0;
        for (int x = 0; x <= 1000; x++) {
            total += BinomialSampler.pmf(1000, 0.3, x);
        }
        assertThat(total).isCloseTo(1, within(1e-12));
    }
}
