package dev.fieldprof.analysis.plan;

import java.util.ArrayList;
import java.util.List;

/**
 * The clusters of the cluster-based strategies: as in Section 5.1 of probe distribution
 * (docs/references.md), one cluster per root holding the root and the methods reachable from it, an
 * over-approximation of the call chains that start there. Bounded: the first {@code maxMethods}
 * methods in breadth-first order (callees in id order), so the methods nearest the root stay in.
 */
public final class RootClusters {

    private RootClusters() {}

    /**
     * @param maxMethods most methods in one cluster, {@code >= 1}
     */
    public static ProbeSets of(ModelCallGraph graph, int maxMethods) {
        if (maxMethods < 1) {
            throw new IllegalArgumentException("maxMethods must be >= 1, was " + maxMethods);
        }
        int[] mark = new int[graph.methodCount()];
        int[] queue = new int[graph.methodCount()];
        List<int[]> clusters = new ArrayList<>();
        int stamp = 0;
        for (int root : graph.roots()) {
            stamp++;
            int head = 0;
            int tail = 0;
            queue[tail++] = root;
            mark[root] = stamp;
            while (head < tail && tail < maxMethods) {
                for (int callee : graph.calleesView(queue[head++])) {
                    if (mark[callee] != stamp && tail < maxMethods) {
                        mark[callee] = stamp;
                        queue[tail++] = callee;
                    }
                }
            }
            clusters.add(java.util.Arrays.copyOf(queue, tail));
        }
        return ProbeSets.of(graph.methodCount(), clusters);
    }
}
