package dev.fieldprof.estimation;

import java.util.Arrays;

/**
 * Dinic's maximum flow on real capacities, written without recursion so that 10,000-long paths do
 * not overflow the stack. Used by {@link ConstraintProjection} to find the best upper set of one
 * block at a time (docs/architecture.md, "The constraint projection, fast"). One instance serves
 * many flows: {@link #reset} empties it for the next block without allocating, and its arrays grow
 * only when a larger network comes. Not thread-safe.
 */
final class MaxFlow {
    static final double INFINITE = Double.POSITIVE_INFINITY;

    private int nodes;
    private int[] head;
    private int[] next;
    private int[] to;
    private double[] capacity;
    private double[] flow;
    private int edges;
    private int[] level;
    private int[] current;
    private int[] queue;
    private int[] path;
    private boolean[] seen;

    MaxFlow(int nodes, int expectedEdges) {
        int size = Math.max(2, 2 * expectedEdges);
        this.next = new int[size];
        this.to = new int[size];
        this.capacity = new double[size];
        this.flow = new double[size];
        this.head = new int[0];
        reset(nodes);
    }

    /** Empties the network and gives it {@code nodes} nodes, reusing the arrays. */
    void reset(int nodes) {
        if (nodes > head.length) {
            int size = Math.max(nodes, 2 * head.length);
            head = new int[size];
            level = new int[size];
            current = new int[size];
            queue = new int[size];
            path = new int[size];
            seen = new boolean[size];
        }
        this.nodes = nodes;
        this.edges = 0;
        Arrays.fill(head, 0, nodes, -1);
    }

    /** Adds the arc u→v and its residual twin; returns the arc's index. */
    int addEdge(int u, int v, double cap) {
        if (edges + 2 > to.length) {
            int size = to.length * 2;
            next = Arrays.copyOf(next, size);
            to = Arrays.copyOf(to, size);
            capacity = Arrays.copyOf(capacity, size);
            flow = Arrays.copyOf(flow, size);
        }
        int e = edges;
        to[e] = v;
        capacity[e] = cap;
        flow[e] = 0;
        next[e] = head[u];
        head[u] = e;
        to[e + 1] = u;
        capacity[e + 1] = 0;
        flow[e + 1] = 0;
        next[e + 1] = head[v];
        head[v] = e + 1;
        edges += 2;
        return e;
    }

    /** The flow on arc {@code e} as returned by {@link #addEdge}. */
    double flow(int e) {
        return flow[e];
    }

    private double residual(int e) {
        return capacity[e] - flow[e];
    }

    /**
     * Pushes a maximum flow from s to t; residual capacities at or below {@code tolerance} count as
     * saturated, so rounding noise never creates augmenting paths.
     */
    double run(int s, int t, double tolerance) {
        double total = 0;
        while (levels(s, t, tolerance)) {
            System.arraycopy(head, 0, current, 0, nodes);
            int depth = 0;
            int v = s;
            while (true) {
                if (v == t) {
                    double bottleneck = INFINITE;
                    for (int i = 0; i < depth; i++) {
                        bottleneck = Math.min(bottleneck, residual(path[i]));
                    }
                    for (int i = 0; i < depth; i++) {
                        flow[path[i]] += bottleneck;
                        flow[path[i] ^ 1] -= bottleneck;
                    }
                    total += bottleneck;
                    depth = 0;
                    v = s;
                    continue;
                }
                int e = current[v];
                while (e >= 0 && !(residual(e) > tolerance && level[to[e]] == level[v] + 1)) {
                    e = next[e];
                }
                current[v] = e;
                if (e >= 0) {
                    path[depth++] = e;
                    v = to[e];
                } else {
                    // Dead end: no shortest augmenting path goes through v in this phase.
                    level[v] = -1;
                    if (v == s) {
                        break;
                    }
                    int back = path[--depth];
                    v = to[back ^ 1];
                    current[v] = next[current[v]];
                }
            }
        }
        return total;
    }

    private boolean levels(int s, int t, double tolerance) {
        Arrays.fill(level, 0, nodes, -1);
        int tail = 0;
        queue[tail++] = s;
        level[s] = 0;
        for (int i = 0; i < tail; i++) {
            int u = queue[i];
            for (int e = head[u]; e >= 0; e = next[e]) {
                int v = to[e];
                if (level[v] < 0 && residual(e) > tolerance) {
                    level[v] = level[u] + 1;
                    queue[tail++] = v;
                }
            }
        }
        return level[t] >= 0;
    }

    /**
     * The source side of the minimum cut: nodes reachable from s in the residual graph. The array
     * is the instance's own, valid for the first {@code nodes} entries until the next call.
     */
    boolean[] sourceSide(int s, double tolerance) {
        Arrays.fill(seen, 0, nodes, false);
        int tail = 0;
        queue[tail++] = s;
        seen[s] = true;
        for (int i = 0; i < tail; i++) {
            int u = queue[i];
            for (int e = head[u]; e >= 0; e = next[e]) {
                int v = to[e];
                if (!seen[v] && residual(e) > tolerance) {
                    seen[v] = true;
                    queue[tail++] = v;
                }
            }
        }
        return seen;
    }
}
