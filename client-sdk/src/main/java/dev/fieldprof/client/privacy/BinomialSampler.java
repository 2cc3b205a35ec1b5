package dev.fieldprof.client.privacy;

/**
 * Exact Binomial(n, p) variates in O(1) expected time for every n up to {@link Integer#MAX_VALUE}.
 * Small means (n·min(p, 1−p) &lt; 10) use sequential inversion, whose expected number of steps is
 * the mean plus one; larger means use Hörmann's transformed rejection with decomposition (BTRD,
 * "The generation of binomial random variates", J. Stat. Comput. Simul. 46, 1993), whose expected
 * number of uniforms per variate is below 1.5. Every accepted value passes an exact test against
 * the binomial pmf ratio, so no approximation enters (the paper's normal approximation, section
 * 4.1, breaks the ε bound in the tails; DESIGN.md forbids it).
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
            return inversion(random, n, p);
        }
        return btrd(random, n, p);
    }

    /** Sequential search from 0 using f(x)/f(x-1) = ((n+1)/x - 1)·p/q. */
    private static int inversion(RandomSource random, int n, double p) {
        double q = 1 - p;
        double odds = p / q;
        double scaledOdds = (n + 1.0) * odds;
        double f0 = Math.exp(n * Math.log1p(-p));
        while (true) {
            double u = random.nextOpenUnit();
            double f = f0;
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
    private static int btrd(RandomSource random, int n, double p) {
        double q = 1 - p;
        double odds = p / q;
        double scaledOdds = (n + 1.0) * odds;
        double npq = n * p * q;
        double spq = Math.sqrt(npq);
        double b = 1.15 + 2.53 * spq;
        double a = -0.0873 + 0.0248 * b + 0.01 * p;
        double c = n * p + 0.5;
        double alpha = (2.83 + 5.1 / b) * spq;
        double vr = 0.92 - 4.2 / b;
        double urvr = 0.86 * vr;
        int mode = (int) Math.floor((n + 1.0) * p);
        double logOdds = Math.log(odds);

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
            double logRatio =
                    -LogFactorial.ratio(k, mode)
                            - LogFactorial.ratio(n - k, n - mode)
                            + (k - mode) * logOdds;
            if (Math.log(v) <= logRatio) {
                return k;
            }
        }
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
