package dev.fieldprof.estimation;

import java.util.SplittableRandom;

/** Seeded random constraint graphs and estimates for the projection tests. */
final class RandomInstances {
    private RandomInstances() {}

    /**
     * A graph mixing a random DAG (pairs from a random permutation), a few two-way pairs, repeats
     * and chains, like the pairs of real apps.
     */
    static ConstraintGraph graph(int n, int pairs, SplittableRandom random) {
        int[] rank = new int[n];
        for (int v = 0; v < n; v++) {
            rank[v] = v;
        }
        for (int v = n - 1; v > 0; v--) {
            int j = random.nextInt(v + 1);
            int t = rank[v];
            rank[v] = rank[j];
            rank[j] = t;
        }
        int[] left = new int[pairs];
        int[] right = new int[pairs];
        for (int p = 0; p < pairs; p++) {
            int a = random.nextInt(n);
            int b = random.nextInt(n);
            if (random.nextInt(20) == 0 && p > 0) {
                // A repeat or the reverse of an earlier pair: duplicates and equalities.
                int q = random.nextInt(p);
                boolean reverse = random.nextBoolean();
                left[p] = reverse ? right[q] : left[q];
                right[p] = reverse ? left[q] : right[q];
                continue;
            }
            if (random.nextInt(3) == 0) {
                // Local pairs make long chains and dense clusters.
                b = Math.min(n - 1, a + 1 + random.nextInt(3));
            }
            boolean forward = rank[a] < rank[b];
            left[p] = forward ? a : b;
            right[p] = forward ? b : a;
        }
        return new ConstraintGraph(n, left, right);
    }

    /** A heavy-tailed truth plus Gaussian noise of the given standard deviation. */
    static double[] noisyEstimate(ConstraintGraph graph, double noise, SplittableRandom random) {
        int n = graph.methods();
        double[] estimate = new double[n];
        double total = 0;
        for (int v = 0; v < n; v++) {
            estimate[v] = Math.pow(1 - random.nextDouble(), -1.5);
            total += estimate[v];
        }
        for (int v = 0; v < n; v++) {
            estimate[v] = estimate[v] / total + noise * gaussian(random);
        }
        return estimate;
    }

    static double gaussian(SplittableRandom random) {
        double u = 1 - random.nextDouble();
        double w = random.nextDouble();
        return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * w);
    }
}
