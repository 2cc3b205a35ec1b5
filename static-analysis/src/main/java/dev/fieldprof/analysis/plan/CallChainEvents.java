package dev.fieldprof.analysis.plan;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The events of the event-based strategies: call chains, as in Section 5.1 of probe distribution
 * (docs/references.md) a traversal of the call graph from a root towards a leaf without back edges
 * (a chain never repeats a method), here bounded in length and in number. A chain ends at a method
 * with no callee left off the chain, or at {@code maxLength} methods. Its probes are its methods
 * (probes trace methods, so chains that differ only in the call site are one event).
 *
 * <p>When the bound on the number cuts the enumeration short, the roots take turns (one chain of
 * each root in root order, then the next of each), so that no root's subtree crowds the others out;
 * within a root, chains come depth-first with callees in id order.
 */
public final class CallChainEvents {

    private CallChainEvents() {}

    /**
     * @param maxLength most methods in one chain, {@code >= 1}
     * @param maxChains most chains in all, {@code >= 0}
     */
    public static ProbeSets of(ModelCallGraph graph, int maxLength, int maxChains) {
        if (maxLength < 1) {
            throw new IllegalArgumentException("maxLength must be >= 1, was " + maxLength);
        }
        if (maxChains < 0) {
            throw new IllegalArgumentException("maxChains must be >= 0, was " + maxChains);
        }
        List<ChainWalk> walks = new ArrayList<>();
        for (int root : graph.roots()) {
            walks.add(new ChainWalk(graph, root, maxLength));
        }
        List<int[]> chains = new ArrayList<>();
        while (chains.size() < maxChains && !walks.isEmpty()) {
            List<ChainWalk> unfinished = new ArrayList<>(walks.size());
            for (ChainWalk walk : walks) {
                if (chains.size() >= maxChains) {
                    break;
                }
                int[] chain = walk.next();
                if (chain != null) {
                    chains.add(chain);
                    unfinished.add(walk);
                }
            }
            walks = unfinished;
        }
        return ProbeSets.of(graph.methodCount(), chains);
    }

    /** A depth-first walk from one root that yields its chains one at a time. */
    private static final class ChainWalk {
        private final ModelCallGraph graph;
        private final int[] path;
        private final int[] cursor;
        private int depth;
        private boolean extended;

        ChainWalk(ModelCallGraph graph, int root, int maxLength) {
            this.graph = graph;
            this.path = new int[maxLength];
            this.cursor = new int[maxLength];
            path[0] = root;
            depth = 1;
        }

        /** The next chain, or null when this root has none left. */
        int[] next() {
            while (depth > 0) {
                int top = path[depth - 1];
                int[] out = graph.calleesView(top);
                int next = -1;
                if (depth < path.length) {
                    while (cursor[depth - 1] < out.length) {
                        int candidate = out[cursor[depth - 1]++];
                        if (!onPath(candidate)) {
                            next = candidate;
                            break;
                        }
                    }
                }
                if (next >= 0) {
                    path[depth] = next;
                    cursor[depth] = 0;
                    depth++;
                    extended = false;
                } else {
                    int[] chain = extended ? null : Arrays.copyOf(path, depth);
                    extended = true;
                    depth--;
                    if (chain != null) {
                        return chain;
                    }
                }
            }
            return null;
        }

        private boolean onPath(int method) {
            for (int i = 0; i < depth; i++) {
                if (path[i] == method) {
                    return true;
                }
            }
            return false;
        }
    }
}
