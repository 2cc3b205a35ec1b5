package dev.fieldprof.benchmarks.client;

import dev.fieldprof.ldp.PrivacyParameters;
import java.util.SplittableRandom;

/**
 * The fast randomizer of frequency profiling (docs/references.md, end of section 4.1), kept only as
 * a baseline and never offered by the SDK: each binomial is replaced by a normal draw with the same
 * mean and variance, rounded to the nearest integer in [0, n]. Its tails are too thin, which breaks
 * the e^ε bound (see {@link NormalApproximationAudit}).
 */
public final class NormalApproximationRandomizer {
    private final PrivacyParameters parameters;
    private final SplittableRandom random;

    public NormalApproximationRandomizer(PrivacyParameters parameters, long seed) {
        this.parameters = parameters;
        this.random = new SplittableRandom(seed);
    }

    public int[] randomize(int[] frequencies) {
        int k = parameters.k();
        double p = parameters.p();
        int[] out = new int[frequencies.length];
        for (int v = 0; v < frequencies.length; v++) {
            out[v] = approximate(frequencies[v], p) + approximate(k - frequencies[v], 1 - p);
        }
        return out;
    }

    private int approximate(int n, double p) {
        if (n == 0) {
            return 0;
        }
        double x = n * p + Math.sqrt(n * p * (1 - p)) * gaussian();
        return (int) Math.max(0, Math.min(n, Math.rint(x)));
    }

    /** Marsaglia's polar method. */
    private double gaussian() {
        while (true) {
            double u = 2 * random.nextDouble() - 1;
            double w = 2 * random.nextDouble() - 1;
            double s = u * u + w * w;
            if (s > 0 && s < 1) {
                return u * Math.sqrt(-2 * Math.log(s) / s);
            }
        }
    }

    /**
     * Pr[approximate(n, p) = x]: the normal mass of [x − ½, x + ½), with everything below ½ at 0
     * and everything from n − ½ up at n.
     */
    static double pmf(int n, double p, int x) {
        if (n == 0) {
            return x == 0 ? 1 : 0;
        }
        if (x < 0 || x > n) {
            return 0;
        }
        double mean = n * p;
        double sd = Math.sqrt(n * p * (1 - p));
        double lo = x == 0 ? Double.NEGATIVE_INFINITY : (x - 0.5 - mean) / sd;
        double hi = x == n ? Double.POSITIVE_INFINITY : (x + 0.5 - mean) / sd;
        return NormalApproximationAudit.normalMass(lo, hi);
    }
}
