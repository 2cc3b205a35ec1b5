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
        return dominates(node, exits);
    }

    /**
     * As {@link #dominatesExits} with only returns and throw statements as exits (the published
     * analysis').
     */
    public boolean dominatesExplicitExits(int node) {
        return dominates(node, explicitExits);
    }

    private boolean dominates(int node, boolean[] exits) {
        if (successors.length == 0) {
            return false;
        }
        boolean[] seen = new boolean[successors.length];
        int[] stack = new int[successors.length];
        int top = 0;
        stack[top++] = 0;
        seen[0] = true;
        while (top > 0) {
            int current = stack[--top];
            if (current == node) {
                continue;
            }
            if (exits[current]) {
                return false;
            }
            for (int next : successors[current]) {
                if (!seen[next]) {
                    seen[next] = true;
                    stack[top++] = next;
                }
            }
        }
        return true;
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
