package dev.fieldprof.benchmarks.plan;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Interns call chains (sequences of method ids from a root) as nodes of a trie, so that a chain is
 * one int and extending it by a callee is one map lookup. Node {@link #ROOT} is the empty chain.
 * Not thread-safe.
 */
public final class ChainTrie {

    /** The empty chain. */
    public static final int ROOT = 0;

    private final Map<Long, Integer> children = new HashMap<>();
    private int[] parent = new int[1024];
    private int[] method = new int[1024];
    private int[] length = new int[1024];
    private int size = 1;

    public ChainTrie() {
        parent[ROOT] = -1;
        method[ROOT] = -1;
    }

    /** The chain {@code node} extended by {@code callee}, created if new. */
    public int child(int node, int callee) {
        long key = ((long) node << 32) | (callee & 0xffffffffL);
        Integer found = children.get(key);
        if (found != null) {
            return found;
        }
        if (size == parent.length) {
            parent = Arrays.copyOf(parent, 2 * size);
            method = Arrays.copyOf(method, 2 * size);
            length = Arrays.copyOf(length, 2 * size);
        }
        int id = size++;
        parent[id] = node;
        method[id] = callee;
        length[id] = length[node] + 1;
        children.put(key, id);
        return id;
    }

    /** The node of a whole chain, created if new. */
    public int intern(int... chain) {
        int node = ROOT;
        for (int m : chain) {
            node = child(node, m);
        }
        return node;
    }

    /** The methods of chain {@code node}, root first. */
    public int[] methods(int node) {
        int[] chain = new int[length[node]];
        for (int n = node, i = chain.length - 1; n != ROOT; n = parent[n], i--) {
            chain[i] = method[n];
        }
        return chain;
    }

    public int length(int node) {
        return length[node];
    }

    /** Nodes so far, the root included. */
    public int size() {
        return size;
    }
}
