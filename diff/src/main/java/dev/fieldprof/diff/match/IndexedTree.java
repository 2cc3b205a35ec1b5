package dev.fieldprof.diff.match;

import dev.fieldprof.diff.cct.CallingContextTree;
import dev.fieldprof.diff.cct.CctNode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * A CCT flattened into arrays for the matcher: nodes numbered in post-order (children before
 * parents, so the root is last), integer labels, and each node's children sorted by label so that a
 * child with a given label is found by binary search.
 */
final class IndexedTree {
    final CctNode[] nodes;
    final int[] parent;
    final int[] label;

    /** Length of the root-to-node label string s(v); the root's is 1. */
    final int[] pathLength;

    final int[][] children;
    final int[][] childLabels;
    final int root;

    IndexedTree(CallingContextTree tree, Map<String, Integer> labels) {
        int n = tree.size();
        nodes = new CctNode[n];
        parent = new int[n];
        label = new int[n];
        pathLength = new int[n];
        children = new int[n][];
        childLabels = new int[n][];
        // Iterative post-order.
        List<CctNode> stack = new ArrayList<>();
        List<Integer> next = new ArrayList<>();
        java.util.IdentityHashMap<CctNode, Integer> ids = new java.util.IdentityHashMap<>();
        stack.add(tree.root());
        next.add(0);
        java.util.IdentityHashMap<CctNode, List<CctNode>> childLists =
                new java.util.IdentityHashMap<>();
        int counter = 0;
        while (!stack.isEmpty()) {
            CctNode node = stack.get(stack.size() - 1);
            List<CctNode> list =
                    childLists.computeIfAbsent(node, k -> new ArrayList<>(k.children()));
            int i = next.get(next.size() - 1);
            if (i < list.size()) {
                next.set(next.size() - 1, i + 1);
                stack.add(list.get(i));
                next.add(0);
            } else {
                stack.remove(stack.size() - 1);
                next.remove(next.size() - 1);
                childLists.remove(node);
                ids.put(node, counter);
                nodes[counter++] = node;
            }
        }
        if (counter != n) {
            throw new IllegalStateException("tree size " + n + " but " + counter + " nodes found");
        }
        root = n - 1;
        for (int id = 0; id < n; id++) {
            CctNode node = nodes[id];
            label[id] = labels.computeIfAbsent(node.name(), k -> labels.size());
            parent[id] = node.parent() == null ? -1 : ids.get(node.parent());
            pathLength[id] = node.depth() + 1;
            int[] cs = new int[node.children().size()];
            int k = 0;
            for (CctNode child : node.children()) {
                cs[k++] = ids.get(child);
            }
            children[id] = cs;
        }
        for (int id = 0; id < n; id++) {
            int[] cs = children[id];
            long[] keyed = new long[cs.length];
            for (int k = 0; k < cs.length; k++) {
                keyed[k] = ((long) label[cs[k]] << 32) | cs[k];
            }
            Arrays.sort(keyed);
            int[] ls = new int[cs.length];
            for (int k = 0; k < cs.length; k++) {
                cs[k] = (int) keyed[k];
                ls[k] = (int) (keyed[k] >>> 32);
            }
            childLabels[id] = ls;
        }
    }

    int size() {
        return nodes.length;
    }

    /** The child of {@code node} with this label, or -1 (children have distinct labels). */
    int childWithLabel(int node, int childLabel) {
        int k = Arrays.binarySearch(childLabels[node], childLabel);
        return k < 0 ? -1 : children[node][k];
    }
}
