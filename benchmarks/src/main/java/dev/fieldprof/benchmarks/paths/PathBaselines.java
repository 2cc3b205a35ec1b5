package dev.fieldprof.benchmarks.paths;

import dev.fieldprof.analysis.cfg.BytecodeCfg;
import dev.fieldprof.analysis.cfg.EdgeKind;
import dev.fieldprof.client.paths.PathEventSink;
import dev.fieldprof.client.paths.PathRecording;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Trace sizes of the two baselines of AdapTracer section 2 on a recorded execution: Ball-Larus path
 * numbering (BLPP: acyclic paths of the CFG without its back edges, a new path id of ceil(log2
 * paths) bits at each back edge taken and at each exit) and PAP (a 64-bit probe value multiplied by
 * the in-degree and increased by the in-edge index at every node with several in-edges; on overflow
 * a breakpoint of the value and the node id is written). The block path is rebuilt from the
 * recorded branch decisions by following the single successor of every other block; where that
 * cannot reach the next recorded event (an exception caught inside the method) both baselines start
 * a new path, as they would. Neither baseline is charged for method ids or call nesting, which our
 * format codes: that favours the baselines.
 */
final class PathBaselines implements PathEventSink {

    /** Sizes over one recording. */
    record Costs(
            long invocations,
            long blppBits,
            long blppPaths,
            long papBits,
            long pap64Bits,
            long breakpoints) {}

    private static final class Graph {
        int[][] succ;
        boolean[][] back;
        int[][] inIndex;
        int[] inDegree;
        boolean[] exit;
        int pathBits;
        int nodeBits;
    }

    private static final class Frame {
        final Graph g;
        int cur;
        long r;

        Frame(Graph g) {
            this.g = g;
        }
    }

    private final Map<Integer, Graph> graphs = new HashMap<>();
    private final List<Frame> stack = new ArrayList<>();
    private long invocations;
    private long blppBits;
    private long blppPaths;
    private long papBits;
    private long pap64Bits;
    private long breakpoints;

    PathBaselines(Map<Integer, BytecodeCfg> cfgs) {
        cfgs.forEach((id, cfg) -> graphs.put(id, graph(cfg)));
    }

    static Costs measure(Map<Integer, BytecodeCfg> cfgs, PathRecording recording) {
        PathBaselines b = new PathBaselines(cfgs);
        recording.replay(b);
        return new Costs(
                b.invocations, b.blppBits, b.blppPaths, b.papBits, b.pap64Bits, b.breakpoints);
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
        for (int b = 0; b < n; b++) {
            List<int[]> edges = out.get(b);
            g.succ[b] = edges.stream().mapToInt(x -> x[0]).toArray();
            g.back[b] = new boolean[edges.size()];
            g.inIndex[b] = edges.stream().mapToInt(x -> x[2]).toArray();
            for (int i = 0; i < edges.size(); i++) {
                g.back[b][i] = edges.get(i)[1] == 1;
            }
        }
        g.exit = new boolean[n];
        for (int b : cfg.exitBlocks()) {
            g.exit[b] = true;
        }
        BigInteger paths = acyclicPaths(g, n);
        g.pathBits = Math.max(1, paths.subtract(BigInteger.ONE).bitLength());
        g.nodeBits = Math.max(1, 32 - Integer.numberOfLeadingZeros(Math.max(1, n - 1)));
        return g;
    }

    /**
     * Ball-Larus paths from the entry to a virtual exit in the CFG without back edges, where each
     * back edge u→v adds entry→v and u→exit (section 2 of the paper; Ball and Larus 1996).
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
        stack.add(new Frame(graphs.get(methodId)));
    }

    @Override
    public void branch(int methodId, int blockId, int edgeIndex) {
        Frame f = stack.get(stack.size() - 1);
        advance(f, blockId, false);
        step(f, blockId, edgeIndex);
    }

    @Override
    public void exit(int methodId, boolean exceptional) {
        Frame f = stack.remove(stack.size() - 1);
        if (!exceptional) {
            advance(f, -1, true);
        }
        endPath(f, exceptional);
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
            long idx = g.inIndex[u][i];
            // Overflow of r * k + idx in 64 unsigned bits: write a breakpoint, start over.
            if (Long.compareUnsigned(f.r, Long.divideUnsigned(-1L - idx, k)) > 0) {
                papBits += 64 + g.nodeBits;
                pap64Bits += 64 + g.nodeBits;
                breakpoints++;
                f.r = 0;
            }
            f.r = f.r * k + idx;
        }
        f.cur = v;
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
                blppBits += g.pathBits;
                blppPaths++;
                papBits += 64 + g.nodeBits;
                pap64Bits += 64 + g.nodeBits;
                breakpoints++;
                f.r = 0;
                if (!toExit) {
                    f.cur = target;
                }
                return;
            }
            step(f, u, 0);
        }
    }

    private void endPath(Frame f, boolean exceptional) {
        blppBits += f.g.pathBits;
        blppPaths++;
        // The final value in as few bits as it needs (a lower bound for PAP, as in the paper's
        // Fig. 1 example); an exceptional exit also needs the node it left from.
        papBits += Math.max(1, 64 - Long.numberOfLeadingZeros(f.r));
        pap64Bits += 64;
        if (exceptional) {
            papBits += f.g.nodeBits;
            pap64Bits += f.g.nodeBits;
        }
    }
}
