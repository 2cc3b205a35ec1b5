package dev.fieldprof.ldp;

/**
 * Exact hypergeometric variates (how many marked items a uniform sample without replacement
 * contains) in O(1) expected time, and the multivariate version built from them: drawing k of an
 * epoch's events uniformly from its exact per-method counts (docs/architecture.md, "The privacy
 * contract": a uniform sample of k of its events ... multivariate hypergeometric, exact, O(|V|)).
 * Small means use inversion; larger ones Stadlober's ratio-of-uniforms method with the
 * table-mountain hat (HRUA, "Sampling from Poisson, binomial and hypergeometric distributions:
 * ratio of uniforms as a simple and fast alternative", 1989), accepted by an exact pmf-ratio test
 * over the whole support.
 */
public final class HypergeometricSampler {
    private static final double INVERSION_MEAN_LIMIT = 10;

    /** 2·sqrt(2/e) and 3 − 2·sqrt(3/e): Stadlober's constants for the table-mountain hat. */
    static final double D1 = 1.7155277699214135;

    static final double D2 = 0.8989161620588988;

    private HypergeometricSampler() {}

    /**
     * Draws the number of marked items in a uniform sample of {@code draws} items taken without
     * replacement from {@code population} items of which {@code marked} are marked.
     *
     * @param population total items, 0 <= population < 2^53
     * @param marked marked items, 0 <= marked <= population
     * @param draws sample size, 0 <= draws <= population
     * @return the marked items in the sample, in [max(0, draws + marked − population), min(draws,
     *     marked)]
     */
    public static long sample(RandomSource random, long population, long marked, long draws) {
        if (population < 0 || population >= (1L << 53)) {
            throw new IllegalArgumentException(
                    "population must be in [0, 2^53), got " + population);
        }
        if (marked < 0 || marked > population) {
            throw new IllegalArgumentException(
                    "marked must be in [0, population=" + population + "], got " + marked);
        }
        if (draws < 0 || draws > population) {
            throw new IllegalArgumentException(
                    "draws must be in [0, population=" + population + "], got " + draws);
        }
        // Symmetries: sample the smaller half and the rarer kind, then map back.
        if (draws > population - draws) {
            return marked - sample(random, population, marked, population - draws);
        }
        if (marked > population - marked) {
            return draws - sample(random, population, population - marked, draws);
        }
        if (draws == 0 || marked == 0) {
            return 0;
        }
        double mean = (double) draws * marked / population;
        if (mean < INVERSION_MEAN_LIMIT) {
            return inversion(random, population, marked, draws);
        }
        return ratioOfUniforms(random, population, marked, draws);
    }

    /** f(x+1)/f(x) for the hypergeometric pmf f. */
    private static double stepRatio(double population, double marked, double draws, double x) {
        return (marked - x) * (draws - x) / ((x + 1) * (population - marked - draws + x + 1));
    }

    /** ln f(x) − ln f(y), computed from factorial ratios without cancellation. */
    static double logPmfRatio(double population, double marked, double draws, double x, double y) {
        double unmarked = population - marked;
        return -LogFactorial.ratio(x, y)
                - LogFactorial.ratio(marked - x, marked - y)
                - LogFactorial.ratio(draws - x, draws - y)
                - LogFactorial.ratio(unmarked - draws + x, unmarked - draws + y);
    }

    private static long inversion(RandomSource random, long population, long marked, long draws) {
        // Here draws <= population/2 and marked <= population/2, so the support starts at 0.
        double f0;
        if (marked <= 32) {
            // f(0) = C(N-M, n)/C(N, n) = prod_{i<M} (N-n-i)/(N-i): M factors, no logarithms.
            f0 = 1;
            for (long i = 0; i < marked; i++) {
                f0 *= (double) (population - draws - i) / (population - i);
            }
        } else {
            double unmarked = population - marked;
            f0 =
                    Math.exp(
                            LogFactorial.ratio(unmarked, unmarked - draws)
                                    - LogFactorial.ratio(population, population - draws));
        }
        long max = Math.min(draws, marked);
        while (true) {
            double u = random.nextOpenUnit();
            double f = f0;
            long x = 0;
            while (u > f) {
                u -= f;
                f *= stepRatio(population, marked, draws, x);
                x++;
                if (x > max) {
                    break; // rounding left u above the total mass: draw again
                }
            }
            if (x <= max) {
                return x;
            }
        }
    }

    /** The mode of the pmf: the rounded formula, corrected by the exact step ratios. */
    static long mode(long population, long marked, long draws) {
        long max = Math.min(draws, marked);
        long m = (long) Math.floor((draws + 1.0) * (marked + 1.0) / (population + 2.0));
        m = Math.max(0, Math.min(max, m));
        while (m < max && stepRatio(population, marked, draws, m) > 1) {
            m++;
        }
        while (m > 0 && stepRatio(population, marked, draws, m - 1) < 1) {
            m--;
        }
        return m;
    }

    private static long ratioOfUniforms(
            RandomSource random, long population, long marked, long draws) {
        double n = population;
        double mean = draws * (marked / n);
        double variance = draws * (marked / n) * (1 - marked / n) * ((n - draws) / (n - 1));
        double a = mean + 0.5;
        double h = D1 * Math.sqrt(variance + 0.5) + D2;
        long m = mode(population, marked, draws);
        // The whole support (no truncation of the far tail), so the sample is exact.
        double end = Math.min(draws, marked) + 1.0;
        while (true) {
            double u = random.nextOpenUnit();
            double v = random.nextOpenUnit();
            double x = a + h * (v - 0.5) / u;
            if (!(x >= 0 && x < end)) {
                continue;
            }
            long k = (long) x;
            double t = logPmfRatio(population, marked, draws, k, m);
            if (u * (4 - u) - 3 <= t) {
                return k; // squeeze: u(4-u)-3 >= 2 ln u on (0, 1]
            }
            if (u * (u - t) >= 1) {
                continue; // squeeze: -(1-u^2)/u <= 2 ln u on (0, 1]
            }
            if (2 * Math.log(u) <= t) {
                return k;
            }
        }
    }

    /**
     * Draws a uniform sample of {@code k} events from a population given by per-category counts,
     * returning how many of each category were drawn (multivariate hypergeometric). Sequential
     * conditional draws, each exact and O(1) expected: O(|counts|) per sample.
     *
     * @param counts events per category, each >= 0, total < 2^53
     * @param k sample size, 0 <= k <= total
     * @return per-category sample counts summing to k
     */
    public static int[] sampleMultivariate(RandomSource random, long[] counts, int k) {
        long total = 0;
        for (int i = 0; i < counts.length; i++) {
            if (counts[i] < 0) {
                throw new IllegalArgumentException(
                        "counts must be >= 0, got " + counts[i] + " at index " + i);
            }
            total += counts[i];
            if (total < 0 || total >= (1L << 53)) {
                throw new IllegalArgumentException("total of counts must be < 2^53");
            }
        }
        if (k < 0 || k > total) {
            throw new IllegalArgumentException(
                    "k must be in [0, total of counts=" + total + "], got " + k);
        }
        int[] sample = new int[counts.length];
        long remainingPopulation = total;
        long remainingDraws = k;
        for (int i = 0; i < counts.length && remainingDraws > 0; i++) {
            long c = counts[i];
            if (c == 0) {
                continue;
            }
            long drawn =
                    c == remainingPopulation
                            ? remainingDraws
                            : sample(random, remainingPopulation, c, remainingDraws);
            sample[i] = (int) drawn;
            remainingDraws -= drawn;
            remainingPopulation -= c;
        }
        return sample;
    }

    /** The exact pmf Pr[X = x] of the hypergeometric distribution, for tests. */
    public static double pmf(long population, long marked, long draws, long x) {
        long low = Math.max(0, draws + marked - population);
        long high = Math.min(draws, marked);
        if (x < low || x > high) {
            return 0;
        }
        double unmarked = population - marked;
        double log =
                LogFactorial.ratio(marked, marked - x)
                        - LogFactorial.of(x)
                        + LogFactorial.ratio(unmarked, unmarked - draws + x)
                        - LogFactorial.of(draws - x)
                        - LogFactorial.ratio(population, population - draws)
                        + LogFactorial.of(draws);
        return Math.exp(log);
    }
}
