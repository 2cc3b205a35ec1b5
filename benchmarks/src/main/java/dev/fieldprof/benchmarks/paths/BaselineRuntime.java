package dev.fieldprof.benchmarks.paths;

import dev.fieldprof.bytecode.cfg.BytecodeCfg;
import dev.fieldprof.bytecode.cfg.EdgeKind;
import dev.fieldprof.bytecode.instrument.PathProbeInstrumenter;
import dev.fieldprof.client.probe.PathProbeHandle;
import dev.fieldprof.client.probe.PathProbeHandler;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * BLPP and PAP run on the same path probes as our encoder, to time them side by side . Each
 * out-edge of a branch node (and each method entry) is followed ahead of time along single
 * successors to the next branch node or exit, and the baseline's edge operations on that chain are
 * precomputed: BLPP adds the Ball-Larus increments and at a back edge writes the path id and
 * restarts; PAP multiplies by the in-degree and adds the in-edge index at merge nodes and writes a
 * breakpoint (value, node) on overflow. Both write every invocation's callee id at its entry and
 * its final value at its exit: the least a decodable trace of them holds, as the size tables charge
 * them (the caller's position of each call, which the sizes also charge, is not written, so their
 * times are a lower bound). Values go to an in-memory buffer, as a device's trace would. Benchmark
 * use only: one traced thread, so the runtime is its own (and that thread's) probe handle: like the
 * tracer, it finds its per-thread state once per invocation, at the entry, and never per event.
 */
final class BaselineRuntime extends PathProbeHandle implements PathProbeHandler {
    enum Kind {
        BLPP,
        PAP
    }

    private static final int ADD = 0;
    private static final int BACK = 1;
    private static final int MUL = 2;

    /** Per method: block → branch ordinal (-1 if none), chains and their operations. */
    private static final class Method {
        int[] ordinal;
        int[] edgeStart; // per ordinal, index of its first out-edge chain
        int[] chainStart; // per chain (entry chain last), index of its first op
        int[] opKind;
        long[] opA;
        long[] opB;
        long[] opLimit; // PAP: the largest r for which r * in + idx does not overflow
        int entryChain;
    }

    private final Kind kind;
    private final Method[] methods;
    private int[] frameMethod = new int[256];
    private long[] frameValue = new long[256];
    private int depth;
    private final long[] buffer = new long[1 << 16];
    private int position;
    private long written;

    BaselineRuntime(Kind kind, int methodCount, Map<Integer, BytecodeCfg> cfgs) {
        this.kind = kind;
        this.methods = new Method[methodCount];
        cfgs.forEach((id, cfg) -> methods[id] = compile(cfg));
    }

    /** Values written (path ids, PAP values and breakpoints). */
    long written() {
        return written + position;
    }

    private static Method compile(BytecodeCfg cfg) {
        int n = cfg.blocks().size();
        Set<Integer> backIds = new HashSet<>(cfg.backEdges());
        int[][] succ = new int[n][];
        boolean[][] back = new boolean[n][];
        int[][] inIndex = new int[n][];
        int[] inDegree = new int[n];
        List<List<int[]>> out = new ArrayList<>();
        for (int b = 0; b < n; b++) {
            out.add(new ArrayList<>());
        }
        for (BytecodeCfg.Edge e : cfg.edges()) {
            if (e.kind() != EdgeKind.EXCEPTION) {
                out.get(e.from())
                        .add(
                                new int[] {
                                    e.to(), backIds.contains(e.id()) ? 1 : 0, inDegree[e.to()]++
                                });
            }
        }
        for (int b = 0; b < n; b++) {
            List<int[]> es = out.get(b);
            succ[b] = es.stream().mapToInt(x -> x[0]).toArray();
            inIndex[b] = es.stream().mapToInt(x -> x[2]).toArray();
            back[b] = new boolean[es.size()];
            for (int i = 0; i < es.size(); i++) {
                back[b][i] = es.get(i)[1] == 1;
            }
        }
        boolean[] exit = new boolean[n];
        for (int b : cfg.exitBlocks()) {
            exit[b] = true;
        }
        // Ball-Larus increments on the DAG: real non-back edges, entry→v and u→exit per back
        // edge, exit blocks→exit. Values wrap for methods with 2^64 paths or more (timing only).
        long[] paths = new long[n + 1];
        boolean[] done = new boolean[n + 1];
        paths[n] = 1;
        done[n] = true;
        long[][] realVal = new long[n][];
        long[][] exitVal = new long[n][];
        long[] entryVal = new long[n];
        numPaths(0, succ, back, exit, paths, done, new boolean[n + 1]);
        for (int u = 0; u < n; u++) {
            long acc = 0;
            realVal[u] = new long[succ[u].length];
            exitVal[u] = new long[succ[u].length];
            for (int i = 0; i < succ[u].length; i++) {
                if (!back[u][i]) {
                    realVal[u][i] = acc;
                    acc += paths[succ[u][i]];
                }
            }
            for (int i = 0; i < succ[u].length; i++) {
                if (back[u][i]) {
                    exitVal[u][i] = acc;
                    acc += 1;
                }
            }
        }
        long acc0 = 0;
        for (int i = 0; i < succ[0].length; i++) {
            acc0 += back[0][i] ? 1 : paths[succ[0][i]];
        }
        for (int u = 0; u < n; u++) {
            for (int i = 0; i < succ[u].length; i++) {
                if (back[u][i]) {
                    entryVal[succ[u][i]] = acc0;
                    acc0 += paths[succ[u][i]];
                }
            }
        }

        Method m = new Method();
        m.ordinal = new int[n];
        Arrays.fill(m.ordinal, -1);
        List<Integer> branchBlocks = new ArrayList<>();
        // The branch nodes the instrumenter probes, in block order: a chain's index is then the
        // local edge number the branch probe passes.
        for (int b = 0; b < n; b++) {
            if (succ[b].length >= 2 && succ[b].length <= PathProbeInstrumenter.MAX_DEGREE) {
                m.ordinal[b] = branchBlocks.size();
                branchBlocks.add(b);
            }
        }
        m.edgeStart = new int[branchBlocks.size() + 1];
        List<Integer> chainStart = new ArrayList<>();
        List<long[]> ops = new ArrayList<>();
        int chains = 0;
        for (int o = 0; o < branchBlocks.size(); o++) {
            m.edgeStart[o] = chains;
            int u = branchBlocks.get(o);
            for (int i = 0; i < succ[u].length; i++) {
                chainStart.add(ops.size());
                chain(u, i, succ, back, inIndex, inDegree, exit, realVal, exitVal, entryVal, ops);
                chains++;
            }
        }
        m.edgeStart[branchBlocks.size()] = chains;
        m.entryChain = chains;
        chainStart.add(ops.size());
        if (succ[0].length == 1 && !exit[0]) {
            chain(0, 0, succ, back, inIndex, inDegree, exit, realVal, exitVal, entryVal, ops);
        }
        chainStart.add(ops.size());
        m.chainStart = chainStart.stream().mapToInt(Integer::intValue).toArray();
        m.opKind = ops.stream().mapToInt(x -> (int) x[0]).toArray();
        m.opA = ops.stream().mapToLong(x -> x[1]).toArray();
        m.opB = ops.stream().mapToLong(x -> x[2]).toArray();
        m.opLimit =
                ops.stream()
                        .mapToLong(
                                x ->
                                        x[0] == MUL
                                                ? Long.divideUnsigned(
                                                        -1L - (x[2] & 0xFFFF_FFFFL), x[1])
                                                : 0)
                        .toArray();
        return m;
    }

    private static void numPaths(
            int v,
            int[][] succ,
            boolean[][] back,
            boolean[] exit,
            long[] paths,
            boolean[] done,
            boolean[] open) {
        // Iterative post-order over the DAG (back edges go to the virtual exit).
        int n = succ.length;
        int[] stack = new int[n + 1];
        int[] cursor = new int[n + 1];
        int top = 0;
        stack[top++] = v;
        open[v] = true;
        while (top > 0) {
            int u = stack[top - 1];
            if (cursor[u] < succ[u].length) {
                int i = cursor[u]++;
                int w = succ[u][i];
                if (!back[u][i] && !done[w] && !open[w]) {
                    open[w] = true;
                    stack[top++] = w;
                }
            } else {
                long sum = exit[u] ? 1 : 0;
                for (int i = 0; i < succ[u].length; i++) {
                    sum += back[u][i] ? 1 : (done[succ[u][i]] ? paths[succ[u][i]] : 0);
                }
                paths[u] = Math.max(1, sum);
                done[u] = true;
                open[u] = false;
                top--;
            }
        }
    }

    /** Operations from taking out-edge i of u until the next branch node or exit. */
    private static void chain(
            int u,
            int i,
            int[][] succ,
            boolean[][] back,
            int[][] inIndex,
            int[] inDegree,
            boolean[] exit,
            long[][] realVal,
            long[][] exitVal,
            long[] entryVal,
            List<long[]> ops) {
        int limit = succ.length + 1;
        for (int steps = 0; steps <= limit; steps++) {
            int v = succ[u][i];
            if (back[u][i]) {
                ops.add(new long[] {BACK, exitVal[u][i], entryVal[v]});
            } else {
                ops.add(new long[] {ADD, realVal[u][i], 0});
            }
            if (inDegree[v] >= 2) {
                ops.add(new long[] {MUL, inDegree[v], inIndex[u][i] | ((long) v << 32)});
            }
            if (succ[v].length != 1 || exit[v]) {
                return;
            }
            u = v;
            i = 0;
        }
    }

    private void write(long value) {
        buffer[position++] = value;
        if (position == buffer.length) {
            written += position; // a device would store or send the full buffer here
            position = 0;
        }
    }

    private void run(Method m, int chain) {
        long r = frameValue[depth];
        int end = m.chainStart[chain + 1];
        for (int op = m.chainStart[chain]; op < end; op++) {
            int k = m.opKind[op];
            if (kind == Kind.BLPP) {
                if (k == ADD) {
                    r += m.opA[op];
                } else if (k == BACK) {
                    write(r + m.opA[op]);
                    r = m.opB[op];
                }
            } else if (k == MUL) {
                long in = m.opA[op];
                long idx = m.opB[op] & 0xFFFF_FFFFL;
                // The overflow bound is precomputed per edge: no division on the hot path.
                if (Long.compareUnsigned(r, m.opLimit[op]) > 0) {
                    write(r);
                    write(m.opB[op] >>> 32); // the node of the breakpoint
                    r = 0;
                }
                r = r * in + idx;
            }
        }
        frameValue[depth] = r;
    }

    @Override
    public PathProbeHandle enter(int methodId) {
        if (++depth == frameMethod.length) {
            frameMethod = Arrays.copyOf(frameMethod, depth * 2);
            frameValue = Arrays.copyOf(frameValue, depth * 2);
        }
        frameMethod[depth] = methodId;
        frameValue[depth] = 0;
        write(methodId);
        Method m = methods[methodId];
        if (m != null) {
            run(m, m.entryChain);
        }
        return this;
    }

    @Override
    public void branch(int methodId, int blockId, int edgeIndex, int localEdge) {
        run(methods[methodId], localEdge);
    }

    @Override
    public void branch(int methodId, int blockId, int edgeIndex) {
        Method m = methods[methodId];
        int o = m.ordinal[blockId];
        if (o >= 0) {
            run(m, m.edgeStart[o] + edgeIndex);
        }
    }

    @Override
    public void exit(int methodId) {
        write(frameValue[depth]);
        depth--;
    }

    @Override
    public void exitExceptionally(int methodId) {
        write(frameValue[depth]);
        write(methodId);
        depth--;
    }
}
