package dev.fieldprof.ldp;

/**
 * Exact Binomial(n, p) variates in O(1) expected time for every n up to {@link Integer#MAX_VALUE}.
 * Small means (n·min(p, 1−p) &lt; 10) use sequential inversion, whose expected number of steps is
 * the mean plus one; larger means use Hörmann's transformed rejection with decomposition (BTRD,
 * "The generation of binomial random variates", J. Stat. Comput. Simul. 46, 1993), whose expected
 * number of uniforms per variate is below 1.5. Every accepted value passes an exact test against
 * the binomial pmf ratio, so no approximation enters (the normal approximation offered by the
 * published ε-t design, section 4.1 of frequency profiling in docs/references.md, breaks the ε
 * bound in the tails).
 */
public final class BinomialSampler {
    /** Below this mean inversion is cheaper than setting up the rejection hat. */
    private static final double INVERSION_MEAN_LIMIT = 10;

    private BinomialSampler() {}

    /**
     * Draws one Binomial(n, p) variate.
     *
     * @param random the randomness
     * @param n number of trials, n >= 0
     * @param p success probability, 0 <= p <= 1
     * @return the number of successes, in [0, n]
     */
    public static int sample(RandomSource random, int n, double p) {
        if (n < 0) {
            throw new IllegalArgumentException("n must be >= 0, got " + n);
        }
        if (!(p >= 0 && p <= 1)) {
            throw new IllegalArgumentException("p must be in [0, 1], got " + p);
        }
        if (n == 0 || p == 0) {
            return 0;
        }
        if (p == 1) {
            return n;
        }
        // Work with the smaller of p and 1-p (exact: 1-p has no rounding error for p >= 1/2).
        if (p > 0.5) {
            return n - sampleSmallP(random, n, 1 - p);
        }
        return sampleSmallP(random, n, p);
    }

    private static int sampleSmallP(RandomSource random, int n, double p) {
        if (n * p < INVERSION_MEAN_LIMIT) {
            return inversion(random, n, p, Math.exp(n * Math.log1p(-p)));
        }
        return new Btrd(n, p).sample(random);
    }

    /**
     * Binomial(n, p) draws for one fixed p and many n, with the per-n setup cached: the start
     * probability of inversion for small n, and the BTRD hat for n near {@code anchor} (the
     * randomizer draws Binomial(k − F(v), ·) with F(v) mostly small). Not thread-safe.
     */
    public static final class Prepared {
        private static final int ANCHOR_CACHE = 256;

        /**
         * Inversion probabilities kept per n: f(0..32). With mean below 10, x > 32 has probability
         * below 1e-7, and then the search goes on with the same recurrence.
         */
        private static final int PMF_CACHE = 33;

        private final double p;
        private final boolean complement;
        private final double smallP;
        private final double logQ;
        private final double odds;
        private final double[] startByN;
        private final double[][] pmfByN;
        private final int anchor;
        private final Btrd[] nearAnchor;

        /**
         * @param p success probability, 0 < p < 1
         * @param anchor the largest n expected; setups for n in (anchor − 256, anchor] are kept
         */
        public Prepared(double p, int anchor) {
            if (!(p > 0 && p < 1)) {
                throw new IllegalArgumentException("p must be in (0, 1), got " + p);
            }
            if (anchor < 0) {
                throw new IllegalArgumentException("anchor must be >= 0, got " + anchor);
            }
            this.p = p;
            this.complement = p > 0.5;
            this.smallP = complement ? 1 - p : p;
            this.logQ = Math.log1p(-smallP);
            int limit = (int) Math.min(1 << 12, Math.ceil(INVERSION_MEAN_LIMIT / smallP));
            this.odds = smallP / (1 - smallP);
            this.startByN = new double[limit];
            for (int n = 0; n < limit; n++) {
                startByN[n] = Math.exp(n * logQ);
            }
            this.pmfByN = new double[limit][];
            this.anchor = anchor;
            this.nearAnchor = new Btrd[ANCHOR_CACHE];
        }

        public double p() {
            return p;
        }

        /** One Binomial(n, p) draw, n >= 0. */
        public int sample(RandomSource random, int n) {
            if (n < 0) {
                throw new IllegalArgumentException("n must be >= 0, got " + n);
            }
            if (n == 0) {
                return 0;
            }
            int x = sampleSmall(random, n);
            return complement ? n - x : x;
        }

        private int sampleSmall(RandomSource random, int n) {
            if (n * smallP < INVERSION_MEAN_LIMIT) {
                if (n < pmfByN.length) {
                    double[] pmf = pmfByN[n];
                    if (pmf == null) {
                        pmf = inversionTable(n, startByN[n]);
                        pmfByN[n] = pmf;
                    }
                    return tableInversion(random, n, pmf);
                }
                return BinomialSampler.inversion(random, n, smallP, Math.exp(n * logQ));
            }
            int offset = anchor - n;
            if (offset >= 0 && offset < ANCHOR_CACHE) {
                Btrd setup = nearAnchor[offset];
                if (setup == null) {
                    setup = new Btrd(n, smallP);
                    nearAnchor[offset] = setup;
                }
                return setup.sample(random);
            }
            return new Btrd(n, smallP).sample(random);
        }

        /**
         * f(0..min(n, 32)) by exactly the products {@link BinomialSampler#inversion} forms step by
         * step, so a search over the table returns the same x for the same u: the table removes a
         * division per step, not a digit of precision.
         */
        private double[] inversionTable(int n, double start) {
            double scaledOdds = (n + 1.0) * odds;
            double[] pmf = new double[Math.min(n, PMF_CACHE - 1) + 1];
            pmf[0] = start;
            for (int x = 1; x < pmf.length; x++) {
                pmf[x] = pmf[x - 1] * (scaledOdds / x - odds);
            }
            return pmf;
        }

        /** The sequential search of the inversion below, reading f(x) from the table. */
        private int tableInversion(RandomSource random, int n, double[] pmf) {
            double scaledOdds = (n + 1.0) * odds;
            while (true) {
                double u = random.nextOpenUnit();
                double f = pmf[0];
                int x = 0;
                while (u > f) {
                    u -= f;
                    x++;
                    if (x > n) {
                        break; // rounding left u above the total mass: draw again
                    }
                    f = x < pmf.length ? pmf[x] : f * (scaledOdds / x - odds);
                }
                if (x <= n) {
                    return x;
                }
            }
        }
    }

    /** Sequential search from 0 using f(x)/f(x-1) = ((n+1)/x - 1)·p/q, f(0) = {@code start}. */
    private static int inversion(RandomSource random, int n, double p, double start) {
        double q = 1 - p;
        double odds = p / q;
        double scaledOdds = (n + 1.0) * odds;
        while (true) {
            double u = random.nextOpenUnit();
            double f = start;
            int x = 0;
            while (u > f) {
                u -= f;
                x++;
                if (x > n) {
                    break; // rounding left u above the total mass: draw again
                }
                f *= scaledOdds / x - odds;
            }
            if (x <= n) {
                return x;
            }
        }
    }

    /**
     * BTRD for p <= 1/2 and n·p >= 10: a transformed-rejection hat around the mode m, with an
     * immediate-acceptance region under it (Hörmann 1993, steps 1-3). The final test compares
     * against the exact ratio f(K)/f(m).
     */
    static final class Btrd {
        private final int n;
        private final double odds;
        private final double scaledOdds;
        private final double a;
        private final double b;
        private final double c;
        private final double alpha;
        private final double vr;
        private final double urvr;
        private final int mode;
        private final double p;
        private final double npq;
        private final double logOdds;

        Btrd(int n, double p) {
            double q = 1 - p;
            this.n = n;
            this.p = p;
            this.odds = p / q;
            this.scaledOdds = (n + 1.0) * odds;
            this.npq = n * p * q;
            double spq = Math.sqrt(npq);
            this.b = 1.15 + 2.53 * spq;
            this.a = -0.0873 + 0.0248 * b + 0.01 * p;
            this.c = n * p + 0.5;
            this.alpha = (2.83 + 5.1 / b) * spq;
            this.vr = 0.92 - 4.2 / b;
            this.urvr = 0.86 * vr;
            this.mode = (int) Math.floor((n + 1.0) * p);
            this.logOdds = Math.log(odds);
        }

        /** ln f(k)/f(mode), exact up to rounding. */
        double logRatio(int k) {
            return -LogFactorial.ratio(k, mode)
                    - LogFactorial.ratio(n - k, n - mode)
                    + (k - mode) * logOdds;
        }

        int mode() {
            return mode;
        }

        /**
         * The hat's constants (a, b, c, alpha, v_r) for BtrdHatTest, which checks that the hat
         * dominates the pmf and that the immediate-acceptance box lies under it.
         */
        double[] hatConstants() {
            return new double[] {a, b, c, alpha, vr};
        }

        double npq() {
            return npq;
        }

        int sample(RandomSource random) {
            while (true) {
                double v = random.nextOpenUnit();
                double u;
                if (v <= urvr) {
                    // Immediate acceptance: this part of the hat lies entirely under the pmf.
                    u = v / vr - 0.43;
                    return (int) Math.floor((2 * a / (0.5 - Math.abs(u)) + b) * u + c);
                }
                if (v >= vr) {
                    u = random.nextOpenUnit() - 0.5;
                } else {
                    u = v / vr - 0.93;
                    u = Math.signum(u) * 0.5 - u;
                    v = random.nextOpenUnit() * vr;
                }
                double us = 0.5 - Math.abs(u);
                double kReal = Math.floor((2 * a / us + b) * u + c);
                if (!(kReal >= 0 && kReal <= n)) {
                    continue;
                }
                int k = (int) kReal;
                v = v * alpha / (a / (us * us) + b);
                int distance = Math.abs(k - mode);
                if (distance <= 15) {
                    // Few factors: multiply the pmf ratios f(i)/f(i-1) = (n+1-i)/i · p/q directly.
                    double f = 1;
                    if (mode < k) {
                        for (int i = mode + 1; i <= k; i++) {
                            f *= scaledOdds / i - odds;
                        }
                    } else if (mode > k) {
                        for (int i = k + 1; i <= mode; i++) {
                            v *= scaledOdds / i - odds;
                        }
                    }
                    if (v <= f) {
                        return k;
                    }
                    continue;
                }
                // Squeeze (Hörmann step 3.2): ln f(K)/f(m) lies within rho of -km²/(2npq), so
                // most candidates are decided with one logarithm; BinomialSamplerTest checks the
                // bound over the whole support of many (n, p).
                double logV = Math.log(v);
                double km = distance;
                double rho = squeezeRadius(km, npq);
                double gauss = -km * km / (2 * npq);
                if (logV < gauss - rho) {
                    return k;
                }
                if (logV > gauss + rho) {
                    continue;
                }
                if (logV <= logRatio(k)) {
                    return k;
                }
            }
        }
    }

    /** Hörmann's bound rho on |ln f(m+km)/f(m) + km²/(2npq)| for km > 15. */
    static double squeezeRadius(double km, double npq) {
        return (km / npq) * (((km / 3 + 0.625) * km + 1.0 / 6) / npq + 0.5);
    }

    /** For the squeeze test: the BTRD setup's mode, npq and exact log ratio at k. */
    static double[] squeezeCheck(int n, double p, int k) {
        Btrd setup = new Btrd(n, p);
        return new double[] {setup.mode(), setup.npq(), setup.logRatio(k)};
    }

    /** The exact pmf Pr[Binomial(n, p) = x], for tests and the privacy audit. */
    public static double pmf(int n, double p, int x) {
        if (x < 0 || x > n) {
            return 0;
        }
        if (p == 0) {
            return x == 0 ? 1 : 0;
        }
        if (p == 1) {
            return x == n ? 1 : 0;
        }
        double log =
                LogFactorial.ratio(n, n - x)
                        - LogFactorial.of(x)
                        + x * Math.log(p)
                        + (n - x) * Math.log1p(-p);
        return Math.exp(log);
    }
}
