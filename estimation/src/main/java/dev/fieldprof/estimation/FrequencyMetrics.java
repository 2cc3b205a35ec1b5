package dev.fieldprof.estimation;

import java.util.Arrays;
import java.util.stream.IntStream;

/**
 * The hot set and the accuracy metrics of frequency profiling (docs/references.md, Sections
 * 5.3-5.4; docs/architecture.md, "The privacy contract"): {@code hot(F, ℓ) = {v | F(v) >= ℓ·max
 * F}}, relative error and hot-method coverage.
 */
public final class FrequencyMetrics {
    private FrequencyMetrics() {}

    /**
     * The methods v with {@code f(v) >= ell * max f}, by decreasing f (ties by id).
     *
     * @param ell the threshold ℓ in [0, 1]
     */
    public static int[] hotSet(double[] f, double ell) {
        if (!(ell >= 0 && ell <= 1)) {
            throw new IllegalArgumentException("hot threshold must be in [0, 1], got " + ell);
        }
        if (f.length == 0) {
            return new int[0];
        }
        double max = Arrays.stream(f).max().getAsDouble();
        double limit = ell * max;
        return IntStream.range(0, f.length)
                .filter(v -> f[v] >= limit)
                .boxed()
                .sorted((u, w) -> f[u] != f[w] ? Double.compare(f[w], f[u]) : Integer.compare(u, w))
                .mapToInt(Integer::intValue)
                .toArray();
    }

    /** The {@code count} methods with the largest f, by decreasing f (ties by id). */
    public static int[] top(double[] f, int count) {
        return IntStream.range(0, f.length)
                .boxed()
                .sorted((u, w) -> f[u] != f[w] ? Double.compare(f[w], f[u]) : Integer.compare(u, w))
                .limit(Math.max(0, count))
                .mapToInt(Integer::intValue)
                .toArray();
    }

    /** {@code RE = Σ_{v∈D} |G(v) − G*(v)| / Σ_{v∈D} G(v)} over every method. */
    public static double relativeError(double[] truth, double[] estimate) {
        return relativeError(truth, estimate, IntStream.range(0, truth.length).toArray());
    }

    /** {@code RE = Σ_{v∈D} |G(v) − G*(v)| / Σ_{v∈D} G(v)} over the methods D. */
    public static double relativeError(double[] truth, double[] estimate, int[] domain) {
        if (truth.length != estimate.length) {
            throw new IllegalArgumentException(
                    "truth has " + truth.length + " methods, estimate " + estimate.length);
        }
        double error = 0;
        double total = 0;
        for (int v : domain) {
            error += Math.abs(truth[v] - estimate[v]);
            total += truth[v];
        }
        return error / total;
    }

    /** {@code HMC(ℓ) = |hot(G,ℓ) ∩ hot(G*,ℓ)| / |hot(G,ℓ)|}. */
    public static double hotMethodCoverage(double[] truth, double[] estimate, double ell) {
        int[] hotTruth = hotSet(truth, ell);
        boolean[] hotEstimate = new boolean[estimate.length];
        for (int v : hotSet(estimate, ell)) {
            hotEstimate[v] = true;
        }
        int both = 0;
        for (int v : hotTruth) {
            if (hotEstimate[v]) {
                both++;
            }
        }
        return (double) both / hotTruth.length;
    }
}
