package dev.fieldprof.analysis.constraints;

import java.util.Arrays;

/**
 * A method body as a plain control-flow graph over its Jimple statements, for the order-pair
 * analysis: node 0 is the entry, {@code successors} hold normal and exceptional edges (to every
 * handler that may catch), and {@code exits} marks statements after which control may leave the
 * method (returns, throws, and statements that may raise an exception no handler of the method is
 * sure to catch).
 */
public final class BodyGraph {

    private final int[][] successors;
    private final boolean[] exits;
    private final boolean[] explicitExits;
    private boolean[] exitDominators;
    private boolean[] explicitExitDominators;

    /** A graph whose exits are all explicit (returns and throws). */
    public BodyGraph(int[][] successors, boolean[] exits) {
        this(successors, exits, exits);
    }

    /**
     * @param exits statements after which control may leave the method, implicit exceptions
     *     included
     * @param explicitExits only the returns and uncaught throw statements, as the published
     *     order-pair analysis counts (frequency profiling, docs/references.md) exits (used to
     *     measure what the implicit exits fix)
     */
    public BodyGraph(int[][] successors, boolean[] exits, boolean[] explicitExits) {
        if (successors.length != exits.length || exits.length != explicitExits.length) {
            throw new IllegalArgumentException("successors and exits differ in length");
        }
        this.explicitExits = explicitExits.clone();
        this.successors = new int[successors.length][];
        for (int i = 0; i < successors.length; i++) {
            this.successors[i] = successors[i].clone();
        }
        this.exits = exits.clone();
    }

    public int size() {
        return successors.length;
    }

    public int[] successors(int node) {
        return successors[node].clone();
    }

    public boolean isExit(int node) {
        return exits[node];
    }

    /**
     * True if every path from the entry to an exit passes through {@code node} before leaving: a
     * traversal from the entry that stops at {@code node} reaches no exit (Section 4.3).
     */
    public boolean dominatesExits(int node) {
        if (exitDominators == null) {
            exitDominators = exitDominators(exits);
        }
        return exitDominators.length > 0 && exitDominators[node];
    }

    /**
     * As {@link #dominatesExits} with only returns and throw statements as exits (the published
     * analysis').
     */
    public boolean dominatesExplicitExits(int node) {
        if (explicitExitDominators == null) {
            explicitExitDominators = exitDominators(explicitExits);
        }
        return explicitExitDominators.length > 0 && explicitExitDominators[node];
    }

    /**
     * For every node, whether it dominates a virtual sink that every exit leads to: exactly the
     * nodes a traversal from the entry must pass before it can reach an exit. Every node qualifies
     * when no exit is reachable; none does in an empty graph. One dominator computation per graph
     * (Cooper, Harvey and Kennedy's iterative algorithm over reverse postorder) instead of one
     * traversal per asked node, which was quadratic in large bodies with many call sites.
     */
    private boolean[] exitDominators(boolean[] exits) {
        int n = successors.length;
        if (n == 0) {
            return new boolean[0];
        }
        int sink = n;
        // Reverse postorder of the nodes reachable from the entry, the sink included.
        int[] order = new int[n + 1];
        int[] rank = new int[n + 1];
        Arrays.fill(rank, -1);
        boolean[] visited = new boolean[n + 1];
        int[] stack = new int[n + 1];
        int[] cursor = new int[n + 1];
        int top = 0;
        int finished = 0;
        stack[top++] = 0;
        visited[0] = true;
        while (top > 0) {
            int current = stack[top - 1];
            int degree =
                    current == sink ? 0 : successors[current].length + (exits[current] ? 1 : 0);
            if (cursor[current] < degree) {
                int k = cursor[current]++;
                int next = k < successors[current].length ? successors[current][k] : sink;
                if (!visited[next]) {
                    visited[next] = true;
                    stack[top++] = next;
                }
            } else {
                top--;
                order[finished++] = current;
            }
        }
        boolean[] result = new boolean[n];
        if (!visited[sink]) {
            Arrays.fill(result, true);
            return result;
        }
        // order[0..finished) is a postorder; rank = position in reverse postorder.
        int[] rpo = new int[finished];
        for (int i = 0; i < finished; i++) {
            rpo[i] = order[finished - 1 - i];
            rank[rpo[i]] = i;
        }
        int[][] predecessors = predecessors(exits, visited, rank, finished);
        int[] idom = new int[finished];
        Arrays.fill(idom, -1);
        idom[0] = 0;
        boolean changed = true;
        while (changed) {
            changed = false;
            for (int i = 1; i < finished; i++) {
                int chosen = -1;
                for (int p : predecessors[i]) {
                    if (idom[p] < 0) {
                        continue;
                    }
                    chosen = chosen < 0 ? p : intersect(idom, p, chosen);
                }
                if (chosen >= 0 && idom[i] != chosen) {
                    idom[i] = chosen;
                    changed = true;
                }
            }
        }
        for (int i = rank[sink]; ; i = idom[i]) {
            if (rpo[i] != sink) {
                result[rpo[i]] = true;
            }
            if (i == 0) {
                break;
            }
        }
        return result;
    }

    /** Predecessors by reverse-postorder rank, among the reachable nodes, sink edges included. */
    private int[][] predecessors(boolean[] exits, boolean[] reachable, int[] rank, int count) {
        int n = successors.length;
        int[] degree = new int[count];
        for (int v = 0; v < n; v++) {
            if (!reachable[v]) {
                continue;
            }
            for (int w : successors[v]) {
                degree[rank[w]]++;
            }
            if (exits[v]) {
                degree[rank[n]]++;
            }
        }
        int[][] predecessors = new int[count][];
        for (int i = 0; i < count; i++) {
            predecessors[i] = new int[degree[i]];
        }
        int[] fill = new int[count];
        for (int v = 0; v < n; v++) {
            if (!reachable[v]) {
                continue;
            }
            for (int w : successors[v]) {
                predecessors[rank[w]][fill[rank[w]]++] = rank[v];
            }
            if (exits[v]) {
                predecessors[rank[n]][fill[rank[n]]++] = rank[v];
            }
        }
        return predecessors;
    }

    /** The nearest common dominator of two nodes, by reverse-postorder rank. */
    private static int intersect(int[] idom, int a, int b) {
        while (a != b) {
            while (a > b) {
                a = idom[a];
            }
            while (b > a) {
                b = idom[b];
            }
        }
        return a;
    }

    /**
     * Nodes that lie on a cycle (a non-trivial strongly connected component or a self-loop):
     * exactly the statements that can run more than once in one invocation. This covers natural
     * loops (Section 4.3) and irreducible ones alike. Iterative Tarjan, so deep bodies cannot
     * overflow the stack.
     */
    public boolean[] onCycle() {
        int n = successors.length;
        int[] index = new int[n];
        int[] low = new int[n];
        Arrays.fill(index, -1);
        boolean[] onStack = new boolean[n];
        int[] sccStack = new int[n];
        int sccTop = 0;
        int[] callStack = new int[n];
        int[] edgeCursor = new int[n];
        boolean[] result = new boolean[n];
        int counter = 0;
        for (int root = 0; root < n; root++) {
            if (index[root] >= 0) {
                continue;
            }
            int depth = 0;
            callStack[depth++] = root;
            index[root] = low[root] = counter++;
            sccStack[sccTop++] = root;
            onStack[root] = true;
            while (depth > 0) {
                int v = callStack[depth - 1];
                if (edgeCursor[v] < successors[v].length) {
                    int w = successors[v][edgeCursor[v]++];
                    if (w == v) {
                        result[v] = true;
                    }
                    if (index[w] < 0) {
                        index[w] = low[w] = counter++;
                        sccStack[sccTop++] = w;
                        onStack[w] = true;
                        callStack[depth++] = w;
                    } else if (onStack[w]) {
                        low[v] = Math.min(low[v], index[w]);
                    }
                } else {
                    depth--;
                    if (depth > 0) {
                        int parent = callStack[depth - 1];
                        low[parent] = Math.min(low[parent], low[v]);
                    }
                    if (low[v] == index[v]) {
                        int size = 0;
                        int start = sccTop;
                        int w;
                        do {
                            w = sccStack[--sccTop];
                            onStack[w] = false;
                            size++;
                        } while (w != v);
                        if (size > 1) {
                            for (int i = sccTop; i < start; i++) {
                                result[sccStack[i]] = true;
                            }
                        }
                    }
                }
            }
        }
        return result;
    }
}
