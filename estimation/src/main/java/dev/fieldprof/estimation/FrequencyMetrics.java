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
                .sorted((u, w) -> order(f, u, w))
                .mapToInt(Integer::intValue)
                .toArray();
    }

    /**
     * The {@code count} methods with the largest f, by decreasing f (ties by id; a NaN ranks first,
     * and 0.0 and -0.0 tie). One pass with a heap of {@code count} ids: an estimate ranks its top
     * few of up to millions of methods every window, and sorting them all was most of its cost.
     */
    public static int[] top(double[] f, int count) {
        int size = Math.min(Math.max(0, count), f.length);
        // The heap's root is the worst of the best `size` seen so far.
        int[] heap = new int[size];
        for (int v = 0; v < size; v++) {
            heap[v] = v;
        }
        for (int i = size / 2 - 1; i >= 0; i--) {
            siftDown(f, heap, i);
        }
        for (int v = size; v < f.length && size > 0; v++) {
            if (order(f, v, heap[0]) < 0) {
                heap[0] = v;
                siftDown(f, heap, 0);
            }
        }
        return IntStream.of(heap)
                .boxed()
                .sorted((u, w) -> order(f, u, w))
                .mapToInt(Integer::intValue)
                .toArray();
    }

    /** Moves {@code heap[i]} down until no child ranks after it. */
    private static void siftDown(double[] f, int[] heap, int i) {
        int item = heap[i];
        while (true) {
            int child = 2 * i + 1;
            if (child >= heap.length) {
                break;
            }
            if (child + 1 < heap.length && order(f, heap[child + 1], heap[child]) > 0) {
                child++;
            }
            if (order(f, heap[child], item) <= 0) {
                break;
            }
            heap[i] = heap[child];
            i = child;
        }
        heap[i] = item;
    }

    /**
     * Negative when method u ranks before w: by decreasing f, a NaN first, equal values (0.0 and
     * -0.0 among them, or two NaNs) by increasing id.
     */
    private static int order(double[] f, int u, int w) {
        double a = f[u];
        double b = f[w];
        if (a != b) {
            int byValue = Double.compare(b, a);
            if (byValue != 0) {
                return byValue;
            }
        }
        return Integer.compare(u, w);
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
