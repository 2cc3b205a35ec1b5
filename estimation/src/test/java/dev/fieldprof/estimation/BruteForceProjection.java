package dev.fieldprof.estimation;

/**
 * Exact projection by enumerating active sets: every subset of pairs held with equality and of
 * methods held at zero gives a closed-form candidate; the best feasible candidate is the optimum.
 * Only for a handful of methods and pairs.
 */
final class BruteForceProjection {
    private BruteForceProjection() {}

    static double[] solve(ConstraintGraph graph, double[] estimate) {
        int n = graph.methods();
        int m = graph.pairs();
        double best = Double.POSITIVE_INFINITY;
        double[] answer = null;
        for (long mask = 0; mask < (1L << (m + n)); mask++) {
            int[] group = new int[n];
            for (int v = 0; v < n; v++) {
                group[v] = v;
            }
            for (int p = 0; p < m; p++) {
                if ((mask >> p & 1) != 0) {
                    union(group, graph.leftOf(p), graph.rightOf(p));
                }
            }
            boolean[] zero = new boolean[n];
            for (int v = 0; v < n; v++) {
                if ((mask >> (m + v) & 1) != 0) {
                    zero[find(group, v)] = true;
                }
            }
            double[] sum = new double[n];
            int[] size = new int[n];
            for (int v = 0; v < n; v++) {
                sum[find(group, v)] += estimate[v];
                size[find(group, v)]++;
            }
            double freeSum = 0;
            int freeSize = 0;
            for (int r = 0; r < n; r++) {
                if (size[r] > 0 && !zero[r]) {
                    freeSum += sum[r];
                    freeSize += size[r];
                }
            }
            if (freeSize == 0) {
                continue;
            }
            double lambda = (freeSum - 1.0) / freeSize;
            double[] x = new double[n];
            for (int v = 0; v < n; v++) {
                int r = find(group, v);
                x[v] = zero[r] ? 0 : sum[r] / size[r] - lambda;
            }
            boolean feasible = true;
            for (int v = 0; v < n && feasible; v++) {
                feasible = x[v] >= -1e-13;
            }
            for (int p = 0; p < m && feasible; p++) {
                feasible = x[graph.leftOf(p)] <= x[graph.rightOf(p)] + 1e-13;
            }
            if (!feasible) {
                continue;
            }
            double objective = 0;
            for (int v = 0; v < n; v++) {
                objective += (x[v] - estimate[v]) * (x[v] - estimate[v]);
            }
            if (objective < best) {
                best = objective;
                answer = x;
            }
        }
        return answer;
    }

    private static int find(int[] parent, int v) {
        while (parent[v] != v) {
            v = parent[v];
        }
        return v;
    }

    private static void union(int[] parent, int a, int b) {
        parent[find(parent, a)] = find(parent, b);
    }
}
