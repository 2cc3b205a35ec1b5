package dev.fieldprof.bytecode;

import java.util.ArrayList;
import java.util.List;

/**
 * The application call graph over method ids: an edge m → m' when some call site of m may dispatch
 * to m' (class-hierarchy targets per call site). Roots are the methods no application method calls.
 */
public final class CallGraph {

    private final int[][] callees;
    private final int[][] callers;

    /**
     * @param callees sorted, duplicate-free callee ids per caller id
     */
    public CallGraph(int[][] callees) {
        this.callees = new int[callees.length][];
        int[] inDegree = new int[callees.length];
        for (int m = 0; m < callees.length; m++) {
            this.callees[m] = callees[m].clone();
            for (int callee : callees[m]) {
                inDegree[callee]++;
            }
        }
        callers = new int[callees.length][];
        for (int m = 0; m < callees.length; m++) {
            callers[m] = new int[inDegree[m]];
        }
        int[] fill = new int[callees.length];
        for (int m = 0; m < callees.length; m++) {
            for (int callee : callees[m]) {
                callers[callee][fill[callee]++] = m;
            }
        }
    }

    public int size() {
        return callees.length;
    }

    public int[] callees(int method) {
        return callees[method].clone();
    }

    public int[] callers(int method) {
        return callers[method].clone();
    }

    public int edgeCount() {
        int count = 0;
        for (int[] out : callees) {
            count += out.length;
        }
        return count;
    }

    /** Methods without an application caller, in id order. */
    public List<Integer> roots() {
        List<Integer> roots = new ArrayList<>();
        for (int m = 0; m < callers.length; m++) {
            if (callers[m].length == 0) {
                roots.add(m);
            }
        }
        return roots;
    }

    /**
     * Call chains: paths from each root along call edges without repeating a method, ending where
     * no new callee is left or at {@code maxDepth} methods; at most {@code maxChains} in all
     * (depth-first, roots and callees in id order). Iterative, so deep graphs are fine.
     */
    public List<int[]> chains(int maxDepth, int maxChains) {
        if (maxDepth < 1 || maxChains < 0) {
            throw new IllegalArgumentException("maxDepth must be >= 1 and maxChains >= 0");
        }
        List<int[]> chains = new ArrayList<>();
        boolean[] onPath = new boolean[callees.length];
        int[] path = new int[maxDepth];
        int[] cursor = new int[maxDepth];
        for (int root : roots()) {
            if (chains.size() >= maxChains) {
                break;
            }
            int depth = 0;
            path[depth] = root;
            cursor[depth] = 0;
            onPath[root] = true;
            depth++;
            boolean extended = false;
            while (depth > 0 && chains.size() < maxChains) {
                int top = path[depth - 1];
                int next = -1;
                if (depth < maxDepth) {
                    while (cursor[depth - 1] < callees[top].length) {
                        int candidate = callees[top][cursor[depth - 1]++];
                        if (!onPath[candidate]) {
                            next = candidate;
                            break;
                        }
                    }
                }
                if (next >= 0) {
                    path[depth] = next;
                    cursor[depth] = 0;
                    onPath[next] = true;
                    depth++;
                    extended = false;
                } else {
                    if (!extended) {
                        chains.add(java.util.Arrays.copyOf(path, depth));
                        extended = true;
                    }
                    onPath[top] = false;
                    depth--;
                }
            }
            for (int i = 0; i < depth; i++) {
                onPath[path[i]] = false;
            }
        }
        return chains;
    }
}
