package dev.fieldprof.diff.match;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The best restricted matching RM(v, w) of DiffProf (docs/references.md, §3.4.3): each child
 * subtree of v goes to at most one child subtree of w and vice versa, so it is a maximum-weight
 * bipartite matching between the children with weights µα(T1(vi), T2(wj)). Edges of weight zero are
 * left out by the caller. Solved exactly (Hungarian method per connected component) up to {@link
 * #EXACT_LIMIT} nodes on the smaller side of a component; larger components, which only very wide
 * call sites with a large α produce, are matched greedily by weight. Not thread-safe (reuses
 * buffers).
 */
final class RestrictedMatching {
    /** Largest component side solved exactly. */
    static final int EXACT_LIMIT = 200;

    private int[] chosen = new int[16];
    private int chosenCount;

    /** Edge indices of the last {@link #solve} with {@code keep}, valid until the next call. */
    int[] chosen() {
        return Arrays.copyOf(chosen, chosenCount);
    }

    /**
     * The maximum total weight of a matching over edges {@code from..to-1} given as (row, col,
     * weight); with {@code keep} the chosen edges are remembered for {@link #chosen()}.
     */
    long solve(int[] rows, int[] cols, int[] weights, int from, int to, boolean keep) {
        chosenCount = 0;
        int n = to - from;
        if (n == 0) {
            return 0;
        }
        if (n == 1) {
            if (keep) {
                push(from);
            }
            return weights[from];
        }
        // Fast path: no row and no column repeats, every edge is taken.
        if (allDistinct(rows, from, to) && allDistinct(cols, from, to)) {
            long sum = 0;
            for (int e = from; e < to; e++) {
                sum += weights[e];
                if (keep) {
                    push(e);
                }
            }
            return sum;
        }
        // Connected components through shared rows and columns.
        Map<Integer, Integer> rowIndex = new HashMap<>();
        Map<Integer, Integer> colIndex = new HashMap<>();
        for (int e = from; e < to; e++) {
            rowIndex.putIfAbsent(rows[e], rowIndex.size());
            colIndex.putIfAbsent(cols[e], colIndex.size());
        }
        int r = rowIndex.size();
        int[] parent = new int[r + colIndex.size()];
        for (int i = 0; i < parent.length; i++) {
            parent[i] = i;
        }
        for (int e = from; e < to; e++) {
            union(parent, rowIndex.get(rows[e]), r + colIndex.get(cols[e]));
        }
        Map<Integer, List<Integer>> components = new java.util.TreeMap<>();
        for (int e = from; e < to; e++) {
            components
                    .computeIfAbsent(find(parent, rowIndex.get(rows[e])), k -> new ArrayList<>())
                    .add(e);
        }
        long total = 0;
        for (List<Integer> component : components.values()) {
            total += solveComponent(rows, cols, weights, component, keep);
        }
        return total;
    }

    private long solveComponent(
            int[] rows, int[] cols, int[] weights, List<Integer> edges, boolean keep) {
        if (edges.size() == 1) {
            if (keep) {
                push(edges.get(0));
            }
            return weights[edges.get(0)];
        }
        Map<Integer, Integer> rowIndex = new HashMap<>();
        Map<Integer, Integer> colIndex = new HashMap<>();
        for (int e : edges) {
            rowIndex.putIfAbsent(rows[e], rowIndex.size());
            colIndex.putIfAbsent(cols[e], colIndex.size());
        }
        boolean transpose = rowIndex.size() > colIndex.size();
        int n = transpose ? colIndex.size() : rowIndex.size();
        int m = transpose ? rowIndex.size() : colIndex.size();
        if (n > EXACT_LIMIT) {
            return greedy(rows, cols, weights, edges, keep);
        }
        long[][] cost = new long[n + 1][m + 1];
        int[][] edgeAt = new int[n + 1][m + 1];
        for (int[] row : edgeAt) {
            Arrays.fill(row, -1);
        }
        for (int e : edges) {
            int i = 1 + (transpose ? colIndex.get(cols[e]) : rowIndex.get(rows[e]));
            int j = 1 + (transpose ? rowIndex.get(rows[e]) : colIndex.get(cols[e]));
            if (edgeAt[i][j] < 0 || weights[e] > -cost[i][j]) {
                cost[i][j] = -weights[e];
                edgeAt[i][j] = e;
            }
        }
        int[] assignment = hungarian(cost, n, m);
        long total = 0;
        for (int j = 1; j <= m; j++) {
            int i = assignment[j];
            if (i > 0 && edgeAt[i][j] >= 0) {
                total += -cost[i][j];
                if (keep) {
                    push(edgeAt[i][j]);
                }
            }
        }
        return total;
    }

    /**
     * Minimum-cost assignment of all n rows to distinct columns (n <= m), the Hungarian method with
     * potentials; returns for each column j (1-based) its row or 0.
     */
    private static int[] hungarian(long[][] a, int n, int m) {
        long inf = Long.MAX_VALUE / 4;
        long[] u = new long[n + 1];
        long[] v = new long[m + 1];
        int[] p = new int[m + 1];
        int[] way = new int[m + 1];
        for (int i = 1; i <= n; i++) {
            p[0] = i;
            int j0 = 0;
            long[] minv = new long[m + 1];
            Arrays.fill(minv, inf);
            boolean[] used = new boolean[m + 1];
            do {
                used[j0] = true;
                int i0 = p[j0];
                long delta = inf;
                int j1 = 0;
                for (int j = 1; j <= m; j++) {
                    if (!used[j]) {
                        long cur = a[i0][j] - u[i0] - v[j];
                        if (cur < minv[j]) {
                            minv[j] = cur;
                            way[j] = j0;
                        }
                        if (minv[j] < delta) {
                            delta = minv[j];
                            j1 = j;
                        }
                    }
                }
                for (int j = 0; j <= m; j++) {
                    if (used[j]) {
                        u[p[j]] += delta;
                        v[j] -= delta;
                    } else {
                        minv[j] -= delta;
                    }
                }
                j0 = j1;
            } while (p[j0] != 0);
            do {
                int j1 = way[j0];
                p[j0] = p[j1];
                j0 = j1;
            } while (j0 != 0);
        }
        return p;
    }

    private long greedy(int[] rows, int[] cols, int[] weights, List<Integer> edges, boolean keep) {
        List<Integer> byWeight = new ArrayList<>(edges);
        byWeight.sort((x, y) -> weights[y] != weights[x] ? weights[y] - weights[x] : x - y);
        java.util.Set<Integer> rowsUsed = new java.util.HashSet<>();
        java.util.Set<Integer> colsUsed = new java.util.HashSet<>();
        long total = 0;
        for (int e : byWeight) {
            if (!rowsUsed.contains(rows[e]) && !colsUsed.contains(cols[e])) {
                rowsUsed.add(rows[e]);
                colsUsed.add(cols[e]);
                total += weights[e];
                if (keep) {
                    push(e);
                }
            }
        }
        return total;
    }

    private static boolean allDistinct(int[] values, int from, int to) {
        if (to - from <= 8) {
            for (int i = from; i < to; i++) {
                for (int j = i + 1; j < to; j++) {
                    if (values[i] == values[j]) {
                        return false;
                    }
                }
            }
            return true;
        }
        int[] copy = Arrays.copyOfRange(values, from, to);
        Arrays.sort(copy);
        for (int i = 1; i < copy.length; i++) {
            if (copy[i] == copy[i - 1]) {
                return false;
            }
        }
        return true;
    }

    private static int find(int[] parent, int x) {
        while (parent[x] != x) {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        return x;
    }

    private static void union(int[] parent, int a, int b) {
        int ra = find(parent, a);
        int rb = find(parent, b);
        if (ra != rb) {
            parent[Math.max(ra, rb)] = Math.min(ra, rb);
        }
    }

    private void push(int edge) {
        if (chosenCount == chosen.length) {
            chosen = Arrays.copyOf(chosen, chosenCount * 2);
        }
        chosen[chosenCount++] = edge;
    }
}
