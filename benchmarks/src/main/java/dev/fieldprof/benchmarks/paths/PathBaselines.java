package dev.fieldprof.benchmarks.paths;

import dev.fieldprof.bytecode.cfg.BytecodeCfg;
import dev.fieldprof.bytecode.cfg.EdgeKind;
import dev.fieldprof.paths.PathEventSink;
import dev.fieldprof.paths.PathRecording;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Trace sizes of the path-profiling baselines (BLPP and PAP; docs/references.md) on a recorded
 * execution, each made decodable and charged the same call information our format codes:
 *
 * <ul>
 *   <li><b>BLPP</b>: Ball-Larus path ids (acyclic paths of the CFG without its back edges), a new
 *       id of ceil(log2 paths) bits at each back edge taken and at each exit.
 *   <li><b>PAP, decodable</b>: PAP's probe value (times the in-degree plus the in-edge index at
 *       every node with several in-edges, a virtual exit node joining the exit blocks) written at
 *       each exit. A method without loops writes it in the width of its largest possible value,
 *       computed on the CFG; a method with loops (or a wider largest value) writes an Elias-gamma
 *       count of breakpoints and the value in Elias-delta, and each overflow of 64 bits a
 *       breakpoint of the 64-bit value and the node (as PAP does; docs/references.md).
 *   <li><b>Fixed code</b>: the strongest fixed code of the three: Ball-Larus ids of ceil(log2
 *       paths) bits for methods without loops (one id per invocation), PAP as above for methods
 *       with loops.
 *   <li><b>PAP lower bound</b> (not decodable, kept for reference): the final value in as few bits
 *       as it needs, no call information, no delimiter.
 * </ul>
 *
 * The call information every decodable baseline is charged ({@link Costs#callBits}): per invocation
 * an exit-kind bit and an Elias-gamma count of the calls it made, and per call the callee's id
 * (ceil(log2 |V|) bits) and its position among the caller's branch decisions (ceil(log2(d + 1))
 * bits for a caller with d decisions; none in the outermost frame). An exceptional exit also writes
 * the node it left from (node-id bits) in every baseline. The block path is rebuilt from the
 * recorded branch decisions by following the single successor of every other block; where that
 * cannot reach the next recorded event (an exception caught inside the method) each baseline starts
 * a new path with the node, as it would. Also measured: the per-node entropy of the run's branch
 * decisions (each node's empirical outcome distribution), the bound for any coder that codes each
 * decision from its node's frequencies alone.
 */
final class PathBaselines implements PathEventSink {

    /** Sizes over one recording, in bits. */
    record Costs(
            long invocations,
            long branchDecisions,
            long callBits,
            long blppBits,
            long blppPaths,
            long papBits,
            long fixedBits,
            long papLowerBoundBits,
            long breakpoints,
            double nodeEntropyBits) {}

    private static final class Graph {
        int[][] succ;
        boolean[][] back;
        int[][] inIndex;
        int[] inDegree;
        boolean[] exit;
        int[] exitIndex;
        int exitDegree;
        boolean loopFree;

        /** Ball-Larus id width, ceil(log2 acyclic paths), 0 for a single path. */
        int pathBits;

        /** Width of PAP's largest value for a loop-free method, or -1 (universal code). */
        int papWidth;

        int nodeBits;
    }

    private static final class Frame {
        final Graph g;
        int cur;
        long r;
        long decisions;
        long calls;
        long breakpoints;
        long papBits;

        Frame(Graph g) {
            this.g = g;
        }
    }

    private final Map<Integer, Graph> graphs = new HashMap<>();
    private final int idBits;
    private final List<Frame> stack = new ArrayList<>();
    private long rootCalls;
    private long invocations;
    private long decisions;
    private long callBits;
    private long blppBits;
    private long blppPaths;
    private long papBits;
    private long fixedBits;
    private long papLowerBoundBits;
    private long breakpoints;
    private final Map<Long, long[]> nodeCounts = new HashMap<>();

    PathBaselines(Map<Integer, BytecodeCfg> cfgs, int methodCount) {
        cfgs.forEach((id, cfg) -> graphs.put(id, graph(cfg)));
        this.idBits = ceilLog2(methodCount);
    }

    static Costs measure(Map<Integer, BytecodeCfg> cfgs, int methodCount, PathRecording recording) {
        PathBaselines b = new PathBaselines(cfgs, methodCount);
        recording.replay(b);
        return b.costs();
    }

    Costs costs() {
        // The outermost frame: its callee ids and their count.
        long rootBits = gamma(rootCalls + 1) + rootCalls * idBits;
        return new Costs(
                invocations,
                decisions,
                callBits + rootBits,
                blppBits,
                blppPaths,
                papBits,
                fixedBits,
                papLowerBoundBits,
                breakpoints,
                entropy());
    }

    private double entropy() {
        double bits = 0;
        for (long[] counts : nodeCounts.values()) {
            long n = 0;
            for (long c : counts) {
                n += c;
            }
            for (long c : counts) {
                if (c > 0) {
                    bits += c * (Math.log((double) n / c) / Math.log(2));
                }
            }
        }
        return bits;
    }

    /** ceil(log2 n) for n >= 1: the bits of a fixed code over n values (0 for one value). */
    static int ceilLog2(long n) {
        return n <= 1 ? 0 : 64 - Long.numberOfLeadingZeros(n - 1);
    }

    /** Elias-gamma length of v >= 1. */
    static long gamma(long v) {
        return 2L * (63 - Long.numberOfLeadingZeros(v)) + 1;
    }

    /** Elias-delta length of v >= 1 (v unsigned: the +1 of a 64-bit value may wrap to 0). */
    static long delta(long v) {
        int n = v == 0 ? 65 : 64 - Long.numberOfLeadingZeros(v); // bits of v
        return (n - 1) + gamma(n);
    }

    private static Graph graph(BytecodeCfg cfg) {
        int n = cfg.blocks().size();
        Set<Integer> backIds = new HashSet<>(cfg.backEdges());
        List<List<int[]>> out = new ArrayList<>();
        for (int b = 0; b < n; b++) {
            out.add(new ArrayList<>());
        }
        Graph g = new Graph();
        g.inDegree = new int[n];
        for (BytecodeCfg.Edge e : cfg.edges()) {
            if (e.kind() != EdgeKind.EXCEPTION) {
                out.get(e.from())
                        .add(
                                new int[] {
                                    e.to(), backIds.contains(e.id()) ? 1 : 0, g.inDegree[e.to()]++
                                });
            }
        }
        g.succ = new int[n][];
        g.back = new boolean[n][];
        g.inIndex = new int[n][];
        g.loopFree = true;
        for (int b = 0; b < n; b++) {
            List<int[]> edges = out.get(b);
            g.succ[b] = edges.stream().mapToInt(x -> x[0]).toArray();
            g.back[b] = new boolean[edges.size()];
            g.inIndex[b] = edges.stream().mapToInt(x -> x[2]).toArray();
            for (int i = 0; i < edges.size(); i++) {
                g.back[b][i] = edges.get(i)[1] == 1;
                g.loopFree &= !g.back[b][i];
            }
        }
        g.exit = new boolean[n];
        g.exitIndex = new int[n];
        for (int b : cfg.exitBlocks()) {
            g.exit[b] = true;
            g.exitIndex[b] = g.exitDegree++;
        }
        g.pathBits = ceilLog2Big(acyclicPaths(g, n));
        g.papWidth = g.loopFree ? papWidth(g, n) : -1;
        g.nodeBits = ceilLog2(n);
        return g;
    }

    private static int ceilLog2Big(BigInteger v) {
        return v.compareTo(BigInteger.ONE) <= 0 ? 0 : v.subtract(BigInteger.ONE).bitLength();
    }

    /**
     * Width of PAP's largest probe value on a loop-free CFG: the largest value reaching each node
     * (times the node's in-degree plus the largest in-edge index at a merge), then the virtual
     * exit; -1 if it exceeds 64 bits (the method is coded as one with loops).
     */
    private static int papWidth(Graph g, int n) {
        BigInteger[] max = new BigInteger[n];
        int[] order = topologicalOrder(g, n);
        max[0] = BigInteger.ZERO;
        BigInteger top = BigInteger.ZERO;
        for (int u : order) {
            if (max[u] == null) {
                continue; // unreachable from the entry
            }
            if (g.exit[u]) {
                BigInteger v =
                        g.exitDegree >= 2
                                ? max[u].multiply(BigInteger.valueOf(g.exitDegree))
                                        .add(BigInteger.valueOf(g.exitIndex[u]))
                                : max[u];
                top = top.max(v);
            }
            top = top.max(max[u]); // an exceptional exit may leave from any node
            for (int i = 0; i < g.succ[u].length; i++) {
                int v = g.succ[u][i];
                BigInteger value =
                        g.inDegree[v] >= 2
                                ? max[u].multiply(BigInteger.valueOf(g.inDegree[v]))
                                        .add(BigInteger.valueOf(g.inIndex[u][i]))
                                : max[u];
                max[v] = max[v] == null ? value : max[v].max(value);
            }
        }
        int bits = top.bitLength();
        return bits > 64 ? -1 : bits;
    }

    private static int[] topologicalOrder(Graph g, int n) {
        int[] indegree = new int[n];
        for (int u = 0; u < n; u++) {
            for (int v : g.succ[u]) {
                indegree[v]++;
            }
        }
        int[] order = new int[n];
        int head = 0;
        int tail = 0;
        for (int u = 0; u < n; u++) {
            if (indegree[u] == 0) {
                order[tail++] = u;
            }
        }
        while (head < tail) {
            int u = order[head++];
            for (int v : g.succ[u]) {
                if (--indegree[v] == 0) {
                    order[tail++] = v;
                }
            }
        }
        return java.util.Arrays.copyOf(order, tail);
    }

    /**
     * Ball-Larus paths from the entry to a virtual exit in the CFG without back edges, where each
     * back edge u→v adds entry→v and u→exit (Ball and Larus 1996, docs/references.md).
     */
    private static BigInteger acyclicPaths(Graph g, int n) {
        int exit = n;
        List<List<Integer>> dag = new ArrayList<>();
        for (int b = 0; b <= n; b++) {
            dag.add(new ArrayList<>());
        }
        for (int u = 0; u < n; u++) {
            for (int i = 0; i < g.succ[u].length; i++) {
                if (g.back[u][i]) {
                    dag.get(0).add(g.succ[u][i]);
                    dag.get(u).add(exit);
                } else {
                    dag.get(u).add(g.succ[u][i]);
                }
            }
            if (g.exit[u]) {
                dag.get(u).add(exit);
            }
        }
        BigInteger[] count = new BigInteger[n + 1];
        count[exit] = BigInteger.ONE;
        int[] state = new int[n + 1]; // 0 new, 1 open, 2 done
        int[] cursor = new int[n + 1];
        int[] st = new int[n + 2];
        int top = 0;
        st[top++] = 0;
        state[0] = 1;
        state[exit] = 2;
        while (top > 0) {
            int v = st[top - 1];
            if (cursor[v] < dag.get(v).size()) {
                int w = dag.get(v).get(cursor[v]++);
                if (state[w] == 0) {
                    state[w] = 1;
                    st[top++] = w;
                }
            } else {
                BigInteger sum = BigInteger.ZERO;
                for (int w : dag.get(v)) {
                    if (state[w] == 2) { // an edge to an open node would close a cycle: cut
                        sum = sum.add(count[w]);
                    }
                }
                count[v] = sum.signum() == 0 ? BigInteger.ONE : sum;
                state[v] = 2;
                top--;
            }
        }
        return count[0];
    }

    @Override
    public void enter(int methodId) {
        invocations++;
        if (stack.isEmpty()) {
            rootCalls++;
        } else {
            stack.get(stack.size() - 1).calls++;
        }
        stack.add(new Frame(graphs.get(methodId)));
    }

    @Override
    public void branch(int methodId, int blockId, int edgeIndex) {
        Frame f = stack.get(stack.size() - 1);
        decisions++;
        f.decisions++;
        int degree = f.g.succ[blockId].length;
        nodeCounts
                .computeIfAbsent(((long) methodId << 32) | blockId, k -> new long[degree])[
                edgeIndex]++;
        advance(f, blockId, false);
        step(f, blockId, edgeIndex);
    }

    @Override
    public void exit(int methodId, boolean exceptional) {
        Frame f = stack.remove(stack.size() - 1);
        Graph g = f.g;
        if (!exceptional) {
            advance(f, -1, true);
            if (g.exitDegree >= 2) {
                mergeInto(f, g.exitDegree, g.exitIndex[f.cur]);
            }
        }
        blppBits += g.pathBits;
        blppPaths++;
        // The lower bound: the final value in as few bits as it needs, nothing else.
        papLowerBoundBits += Math.max(1, 64 - Long.numberOfLeadingZeros(f.r));
        long papFinal;
        long fixedFinal;
        if (g.papWidth >= 0 && f.breakpoints == 0) {
            papFinal = g.papWidth;
            fixedFinal = g.pathBits;
        } else {
            papFinal = gamma(f.breakpoints + 1) + delta(f.r + 1);
            fixedFinal = papFinal;
        }
        papBits += f.papBits + papFinal;
        fixedBits += f.papBits + fixedFinal;
        long node = exceptional ? g.nodeBits : 0;
        blppBits += node;
        papBits += node;
        fixedBits += node;
        // The call information every decodable baseline is charged.
        callBits += 1 + gamma(f.calls + 1) + f.calls * (idBits + ceilLog2(f.decisions + 1));
    }

    private void step(Frame f, int u, int i) {
        Graph g = f.g;
        int v = g.succ[u][i];
        if (g.back[u][i]) {
            blppBits += g.pathBits;
            blppPaths++;
        }
        int k = g.inDegree[v];
        if (k >= 2) {
            mergeInto(f, k, g.inIndex[u][i]);
        }
        f.cur = v;
    }

    /** PAP's r = r * k + idx, with a breakpoint (64-bit value and node) before an overflow. */
    private void mergeInto(Frame f, int k, long idx) {
        if (Long.compareUnsigned(f.r, Long.divideUnsigned(-1L - idx, k)) > 0) {
            f.papBits += 64 + f.g.nodeBits;
            papLowerBoundBits += 64 + f.g.nodeBits;
            f.breakpoints++;
            breakpoints++;
            f.r = 0;
        }
        f.r = f.r * k + idx;
    }

    /** Follows single successors to {@code target} (or an exit block); resynchronizes if stuck. */
    private void advance(Frame f, int target, boolean toExit) {
        Graph g = f.g;
        int limit = g.succ.length + 1;
        for (int steps = 0; ; steps++) {
            int u = f.cur;
            if (toExit ? g.exit[u] : u == target) {
                return;
            }
            if (g.succ[u].length != 1 || steps > limit) {
                // An exception caught in the method: each baseline closes its path there and
                // starts a new one at the handler, naming the node.
                blppBits += g.pathBits + g.nodeBits;
                blppPaths++;
                f.papBits += delta(f.r + 1) + g.nodeBits;
                papLowerBoundBits += 64 + g.nodeBits;
                f.breakpoints++;
                breakpoints++;
                f.r = 0;
                f.cur = toExit ? firstExit(g) : target;
                return;
            }
            step(f, u, 0);
        }
    }

    private static int firstExit(Graph g) {
        for (int b = 0; b < g.exit.length; b++) {
            if (g.exit[b]) {
                return b;
            }
        }
        return 0;
    }
}
