package dev.fieldprof.diff.cct;

import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One calling context: a frame name reached by one path from the root, with the cost spent in the
 * frame itself (exclusive) and under it (inclusive). Children have distinct names. Built only
 * through {@link CallingContextTree#addStack}; not thread-safe.
 */
public final class CctNode {
    private final String name;
    private final CctNode parent;
    private final int depth;
    private final Map<String, CctNode> children = new LinkedHashMap<>();
    private long exclusive;
    private long inclusive;

    CctNode(String name, CctNode parent) {
        this.name = name;
        this.parent = parent;
        this.depth = parent == null ? 0 : parent.depth + 1;
    }

    /** The frame name, e.g. {@code java.util.HashMap.get}. */
    public String name() {
        return name;
    }

    /** The caller's context, or {@code null} for the root. */
    public CctNode parent() {
        return parent;
    }

    /** Number of frames between the root and this node (the root has depth 0). */
    public int depth() {
        return depth;
    }

    /** Cost attributed to this frame itself (samples whose top frame it is). */
    public long exclusive() {
        return exclusive;
    }

    /** Cost of this frame and everything it called. */
    public long inclusive() {
        return inclusive;
    }

    /** The callees, in the order they were first seen. */
    public Collection<CctNode> children() {
        return Collections.unmodifiableCollection(children.values());
    }

    /** The callee with this name, or {@code null}. */
    public CctNode child(String childName) {
        return children.get(childName);
    }

    CctNode childOrCreate(String childName) {
        return children.computeIfAbsent(childName, n -> new CctNode(n, this));
    }

    void addInclusive(long cost) {
        inclusive += cost;
    }

    void addExclusive(long cost) {
        exclusive += cost;
    }

    /** The frame names from the root's first child down to this node. */
    public java.util.List<String> path() {
        String[] names = new String[depth];
        CctNode node = this;
        for (int i = depth - 1; i >= 0; i--) {
            names[i] = node.name;
            node = node.parent;
        }
        return java.util.List.of(names);
    }

    @Override
    public String toString() {
        return name + " (incl " + inclusive + ", excl " + exclusive + ")";
    }
}
