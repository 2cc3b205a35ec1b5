package dev.fieldprof.diff.cct;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * A calling-context tree (CCT): call stacks merged wherever they share the path from the root, each
 * node carrying exclusive and inclusive cost. Every reader (JFR, collapsed stacks, decoded field
 * paths) produces this one type. The root is a synthetic frame named {@link #ROOT_NAME} with no
 * cost of its own.
 *
 * <pre>{@code
 * CallingContextTree tree = new CallingContextTree();
 * tree.addStack(List.of("java.lang.Thread.run", "com.acme.Worker.run"), 12);
 * }</pre>
 *
 * <p>Not thread-safe; build it in one thread, then share it read-only.
 */
public final class CallingContextTree {
    /** Name of the synthetic root, the caller of every thread's first frame. */
    public static final String ROOT_NAME = "<root>";

    private final CctNode root = new CctNode(ROOT_NAME, null);
    private int size = 1;

    /** The synthetic root. */
    public CctNode root() {
        return root;
    }

    /** Number of nodes, the root included. */
    public int size() {
        return size;
    }

    /** Total cost (the root's inclusive cost). */
    public long totalCost() {
        return root.inclusive();
    }

    /**
     * Adds one stack with its cost.
     *
     * @param rootFirst frame names, outermost first; an empty stack charges the root itself
     * @param cost a cost >= 0
     * @return the node of the innermost frame
     */
    public CctNode addStack(List<String> rootFirst, long cost) {
        if (cost < 0) {
            throw new IllegalArgumentException("cost must be >= 0, was " + cost);
        }
        CctNode node = root;
        root.addInclusive(cost);
        for (String frame : rootFirst) {
            CctNode child = node.child(frame);
            if (child == null) {
                child = node.childOrCreate(frame);
                size++;
            }
            child.addInclusive(cost);
            node = child;
        }
        node.addExclusive(cost);
        return node;
    }

    /** Visits every node, parents before children, children in insertion order. */
    public void forEachPreorder(Consumer<CctNode> visitor) {
        List<CctNode> stack = new ArrayList<>();
        stack.add(root);
        while (!stack.isEmpty()) {
            CctNode node = stack.remove(stack.size() - 1);
            visitor.accept(node);
            List<CctNode> children = new ArrayList<>(node.children());
            for (int i = children.size() - 1; i >= 0; i--) {
                stack.add(children.get(i));
            }
        }
    }

    /** The node at this path below the root, or {@code null}. */
    public CctNode find(List<String> rootFirst) {
        CctNode node = root;
        for (String frame : rootFirst) {
            node = node.child(frame);
            if (node == null) {
                return null;
            }
        }
        return node;
    }
}
