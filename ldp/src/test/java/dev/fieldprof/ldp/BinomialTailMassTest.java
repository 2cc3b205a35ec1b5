package dev.fieldprof.ldp;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.function.IntSupplier;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Exact tail-mass checks of the binomial sampler at large n: the tails are where an approximate
 * sampler (the normal approximation of frequency profiling's section 4.1, docs/references.md) is
 * wrong and where the ε bound breaks.
 *
 * <p>For each (n, p) the cut points L and U are the largest x with Pr[X <= x] <= 1e-3 and the
 * smallest x with Pr[X >= x] <= 1e-3, and their exact masses q_L, q_U come from {@link
 * ReferenceBinomial} (log space, independent of the sampler's own pmf). Of N = 1,000,000 draws from
 * an exact sampler, the number at or below L is exactly Binomial(N, q_L) and the number at or above
 * U exactly Binomial(N, q_U); each count must fall in its exact two-sided acceptance interval at
 * level 5e-7 (computed from the Binomial(N, q) cdf, no normal or chi-square approximation). So a
 * case fails an exact sampler with probability at most 1e-6 (union bound over the two counts); this
 * class runs 7 cases per build: at most 7e-6.
 *
 * <p>Where the distribution is skewed (small mean at large n) the same check is run on the normal
 * approximation, whose tail masses are known exactly (normal masses of the rounding intervals): the
 * probability that its counts land in the acceptance intervals is computed exactly from Binomial(N,
 * normal tail mass) and asserted below 1e-9, so the check rejects it with power at least 1 − 1e-9;
 * then it is run and must reject. In the symmetric cases (p near 1/2, or a mean in the thousands)
 * the normal approximation's tails at the 1e-3 level are within a few percent of the binomial's and
 * the check claims no power against it there; those cases test the exact sampler only.
 */
class BinomialTailMassTest {
    private static final int DRAWS = 1_000_000;
    private static final double TAIL_LEVEL = 1e-3;

    /** Per count; two counts per case: 1e-6 per case. */
    private static final double COUNT_SIGNIFICANCE = 5e-7;

    private static final double REQUIRED_POWER_MISS = 1e-9;

    @ParameterizedTest(name = "n={0}, p={1}, normal approximation detectable={2}")
    @CsvSource({
        "10000000, 0.000002, true",
        "2147483647, 0.00000001, true",
        "10000000, 0.00001, true",
        "10000000, 0.999998, true",
        "2147483647, 0.5, false",
        "1000000, 0.3, false",
        "50000, 0.2689414213699951, false"
    })
    void tailMassesMatchTheExactBinomial(int n, double p, boolean normalDetectable) {
        ReferenceBinomial reference = new ReferenceBinomial(n, p);
        long seed = 0x7a11L + n + Double.hashCode(p);
        SeededRandomSource random = new SeededRandomSource(seed);
        TailCheck exact = TailCheck.of(reference, () -> BinomialSampler.sample(random, n, p));
        assertThat(exact.accepts()).as("exact sampler: %s, seed %d", exact, seed).isTrue();

        if (!normalDetectable) {
            return;
        }
        // The normal approximation's exact tail masses: round(np + σZ) clamped to [0, n] is <= L
        // iff np + σZ < L + 1/2, and >= U iff np + σZ >= U − 1/2.
        double mean = n * p;
        double sd = Math.sqrt(n * p * (1 - p));
        double normalLower = standardNormalCdf((exact.lowerCut + 0.5 - mean) / sd);
        double normalUpper = standardNormalCdf(-(exact.upperCut - 0.5 - mean) / sd);
        double missLower =
                new ReferenceBinomial(DRAWS, normalLower)
                        .within(exact.lowerInterval[0], exact.lowerInterval[1]);
        double missUpper =
                new ReferenceBinomial(DRAWS, normalUpper)
                        .within(exact.upperInterval[0], exact.upperInterval[1]);
        // It passes only if both counts pass: probability at most the smaller miss.
        assertThat(Math.min(missLower, missUpper))
                .as(
                        "Pr[normal approximation passes], tails %.3g/%.3g vs exact %.3g/%.3g",
                        normalLower, normalUpper, exact.lowerMass, exact.upperMass)
                .isLessThan(REQUIRED_POWER_MISS);
        SeededRandomSource wrongRandom = new SeededRandomSource(seed);
        TailCheck wrong = TailCheck.of(reference, () -> normalApproximation(wrongRandom, n, p));
        assertThat(wrong.accepts()).as("normal approximation: %s", wrong).isFalse();
    }

    /**
     * The check itself: counts of draws in the exact 1e-3 tails against their exact acceptance
     * intervals.
     */
    record TailCheck(
            long lowerCut,
            long upperCut,
            double lowerMass,
            double upperMass,
            long lowerCount,
            long upperCount,
            long[] lowerInterval,
            long[] upperInterval) {

        static TailCheck of(ReferenceBinomial reference, IntSupplier sampler) {
            long lowerCut = reference.lowerCut(TAIL_LEVEL);
            long upperCut = reference.upperCut(TAIL_LEVEL);
            double lowerMass = reference.atMost(lowerCut);
            double upperMass = reference.atLeast(upperCut);
            long lowerCount = 0;
            long upperCount = 0;
            for (int i = 0; i < DRAWS; i++) {
                int x = sampler.getAsInt();
                if (x <= lowerCut) {
                    lowerCount++;
                } else if (x >= upperCut) {
                    upperCount++;
                }
            }
            return new TailCheck(
                    lowerCut,
                    upperCut,
                    lowerMass,
                    upperMass,
                    lowerCount,
                    upperCount,
                    new ReferenceBinomial(DRAWS, lowerMass).acceptance(COUNT_SIGNIFICANCE),
                    new ReferenceBinomial(DRAWS, upperMass).acceptance(COUNT_SIGNIFICANCE));
        }

        boolean accepts() {
            return lowerCount >= lowerInterval[0]
                    && lowerCount <= lowerInterval[1]
                    && upperCount >= upperInterval[0]
                    && upperCount <= upperInterval[1];
        }

        @Override
        public String toString() {
            return String.format(
                    "#(X<=%d)=%d in [%d, %d] (mass %.4g), #(X>=%d)=%d in [%d, %d] (mass %.4g)",
                    lowerCut,
                    lowerCount,
                    lowerInterval[0],
                    lowerInterval[1],
                    lowerMass,
                    upperCut,
                    upperCount,
                    upperInterval[0],
                    upperInterval[1],
                    upperMass);
        }
    }

    /**
     * The binomial of the fast randomizer of frequency profiling (end of its section 4.1): a normal
     * draw with the same mean and variance, rounded to the nearest integer in [0, n]. Test-only,
     * the wrong implementation the check must catch.
     */
    static int normalApproximation(RandomSource random, int n, double p) {
        double z;
        while (true) {
            double u = 2 * random.nextOpenUnit() - 1;
            double w = 2 * random.nextOpenUnit() - 1;
            double s = u * u + w * w;
            if (s > 0 && s < 1) {
                z = u * Math.sqrt(-2 * Math.log(s) / s);
                break;
            }
        }
        double x = n * p + Math.sqrt(n * p * (1 - p)) * z;
        return (int) Math.max(0, Math.min(n, Math.rint(x)));
    }

    /** Φ(z) from the tested chi-square(1) tail: Pr[Z² >= z²] = 2Φ(−|z|). */
    static double standardNormalCdf(double z) {
        double tail = GoodnessOfFit.upperTail(z * z, 1) / 2;
        return z <= 0 ? tail : 1 - tail;
    }
}
