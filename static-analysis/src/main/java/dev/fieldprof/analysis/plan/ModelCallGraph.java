package dev.fieldprof.analysis.plan;

import dev.fieldprof.schemas.CallEdges;
import dev.fieldprof.schemas.MethodInfo;
import dev.fieldprof.schemas.ProgramModel;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The program model's call graph with the planner's roots. A root is a method that can start a call
 * chain: one with no caller in the model's call graph, or one the analysis lists under {@code
 * unknownCallers} (code it cannot see may call it: main methods, overrides of JDK methods, a
 * library's public API, ...). A part of the graph no root reaches (a cycle of methods that only
 * call each other) gets its smallest method id as a root as well, so every method belongs to some
 * cluster and some chain.
 */
public final class ModelCallGraph {

    private final int[][] callees;
    private final int[] roots;

    /**
     * @param callees per method id, the ids it may call (any order, duplicates allowed)
     * @param hasUnknownCallers per method id, whether code outside the model may call it
     */
    public ModelCallGraph(int[][] callees, boolean[] hasUnknownCallers) {
        int n = callees.length;
        if (hasUnknownCallers.length != n) {
            throw new IllegalArgumentException("one unknown-callers flag per method needed");
        }
        this.callees = new int[n][];
        boolean[] called = new boolean[n];
        for (int m = 0; m < n; m++) {
            int[] out = Arrays.stream(callees[m]).sorted().distinct().toArray();
            for (int callee : out) {
                if (callee < 0 || callee >= n) {
                    throw new IllegalArgumentException(
                            "method " + m + " calls " + callee + ", outside [0, " + n + ")");
                }
                if (callee != m) {
                    called[callee] = true;
                }
            }
            this.callees[m] = out;
        }
        List<Integer> found = new ArrayList<>();
        boolean[] reached = new boolean[n];
        for (int m = 0; m < n; m++) {
            if (!called[m] || hasUnknownCallers[m]) {
                found.add(m);
                markReachable(m, reached);
            }
        }
        for (int m = 0; m < n; m++) {
            if (!reached[m]) {
                found.add(m);
                markReachable(m, reached);
            }
        }
        this.roots = found.stream().mapToInt(Integer::intValue).sorted().toArray();
    }

    /** The call graph of a model: its callGraph edges, its unknownCallers by signature. */
    public static ModelCallGraph of(ProgramModel model) {
        int n = model.getMethods().size();
        int[][] callees = new int[n][0];
        for (CallEdges edges : model.getCallGraph()) {
            int caller = edges.getCaller();
            if (caller < 0 || caller >= n) {
                throw new IllegalArgumentException("call graph names method " + caller);
            }
            callees[caller] = edges.getCallees().stream().mapToInt(Integer::intValue).toArray();
        }
        Set<String> unknown = new HashSet<>(model.getUnknownCallers().keySet());
        boolean[] hasUnknownCallers = new boolean[n];
        for (MethodInfo method : model.getMethods()) {
            hasUnknownCallers[method.getId()] = unknown.contains(method.getSignature());
        }
        return new ModelCallGraph(callees, hasUnknownCallers);
    }

    private void markReachable(int start, boolean[] reached) {
        if (reached[start]) {
            return;
        }
        ArrayDeque<Integer> queue = new ArrayDeque<>();
        reached[start] = true;
        queue.add(start);
        while (!queue.isEmpty()) {
            for (int callee : callees[queue.poll()]) {
                if (!reached[callee]) {
                    reached[callee] = true;
                    queue.add(callee);
                }
            }
        }
    }

    public int methodCount() {
        return callees.length;
    }

    /** Ascending, without duplicates. */
    public int[] roots() {
        return roots.clone();
    }

    /** Ascending, without duplicates. */
    public int[] callees(int method) {
        return callees[method].clone();
    }

    int[] calleesView(int method) {
        return callees[method];
    }
}
