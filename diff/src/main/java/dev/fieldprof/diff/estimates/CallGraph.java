package dev.fieldprof.diff.estimates;

import dev.fieldprof.diff.cct.CallingContextTree;
import dev.fieldprof.schemas.CallEdges;
import dev.fieldprof.schemas.MethodInfo;
import dev.fieldprof.schemas.ProgramModel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Comparator;
import java.util.List;

/**
 * A release's call graph over method ids, with signatures: what the release diff aligns to pair
 * methods that were renamed or moved. Immutable.
 *
 * @param signatures signature per method id
 * @param callees callee ids per caller id (an empty array for methods that call none)
 */
public record CallGraph(List<String> signatures, int[][] callees) {

    public CallGraph {
        signatures = List.copyOf(signatures);
        if (callees.length != signatures.size()) {
            throw new IllegalArgumentException(
                    "need callees for each of the " + signatures.size() + " methods");
        }
        int[][] copy = new int[callees.length][];
        for (int v = 0; v < callees.length; v++) {
            copy[v] = callees[v] == null ? new int[0] : callees[v].clone();
            for (int w : copy[v]) {
                if (w < 0 || w >= callees.length) {
                    throw new IllegalArgumentException("callee id " + w + " outside V");
                }
            }
        }
        callees = copy;
    }

    /** The call graph of a program model ({@code callGraph}, method ids into {@code methods}). */
    public static CallGraph of(ProgramModel model) {
        int size = model.getMethods().size();
        String[] names = new String[size];
        for (MethodInfo method : model.getMethods()) {
            names[method.getId()] = method.getSignature();
        }
        int[][] callees = new int[size][];
        for (CallEdges edges : model.getCallGraph()) {
            callees[edges.getCaller()] =
                    edges.getCallees().stream().mapToInt(Integer::intValue).toArray();
        }
        return new CallGraph(Arrays.asList(names), callees);
    }

    /**
     * The call graph unfolded into a tree, so that the EFLASK matcher can align two releases: below
     * a synthetic root, every method without a caller (then every method not yet reached, as in a
     * cycle nobody calls), in signature order; below a method its callees in signature order. A
     * method is expanded at its first visit (depth first) only; later visits are leaves, and a call
     * back into a method on the path is dropped. Each method thus appears once with its callees and
     * the tree has at most |V| + |edges| nodes, whatever the graph's cycles. Node costs are 1.
     */
    public CallingContextTree unfold() {
        int size = signatures.size();
        boolean[] called = new boolean[size];
        for (int v = 0; v < size; v++) {
            for (int w : callees[v]) {
                if (w != v) {
                    called[w] = true;
                }
            }
        }
        Integer[] bySignature = new Integer[size];
        for (int v = 0; v < size; v++) {
            bySignature[v] = v;
        }
        Comparator<Integer> order = Comparator.comparing(signatures::get);
        Arrays.sort(bySignature, order);
        CallingContextTree tree = new CallingContextTree();
        BitSet expanded = new BitSet(size);
        for (int pass = 0; pass < 2; pass++) {
            for (int root : bySignature) {
                if (!expanded.get(root) && (pass == 1 || !called[root])) {
                    expand(root, tree, expanded, order);
                }
            }
        }
        return tree;
    }

    /** Iterative depth-first unfolding from one root (deep call chains must not overflow). */
    private void expand(
            int root, CallingContextTree tree, BitSet expanded, Comparator<Integer> order) {
        List<String> path = new ArrayList<>();
        BitSet onPath = new BitSet(signatures.size());
        // Frames of the explicit stack: method id and the index of its next callee.
        List<int[]> stack = new ArrayList<>();
        path.add(signatures.get(root));
        onPath.set(root);
        expanded.set(root);
        tree.addStack(path, 1);
        stack.add(new int[] {root, 0});
        int[][] sorted = new int[callees.length][];
        while (!stack.isEmpty()) {
            int[] frame = stack.get(stack.size() - 1);
            int v = frame[0];
            if (sorted[v] == null) {
                sorted[v] =
                        Arrays.stream(callees[v])
                                .distinct()
                                .boxed()
                                .sorted(order)
                                .mapToInt(Integer::intValue)
                                .toArray();
            }
            if (frame[1] == sorted[v].length) {
                stack.remove(stack.size() - 1);
                onPath.clear(v);
                path.remove(path.size() - 1);
                continue;
            }
            int w = sorted[v][frame[1]++];
            if (onPath.get(w)) {
                continue;
            }
            path.add(signatures.get(w));
            tree.addStack(path, 1);
            if (expanded.get(w)) {
                path.remove(path.size() - 1);
            } else {
                expanded.set(w);
                onPath.set(w);
                stack.add(new int[] {w, 0});
            }
        }
    }
}
