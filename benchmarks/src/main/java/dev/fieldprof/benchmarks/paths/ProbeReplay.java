package dev.fieldprof.benchmarks.paths;

import dev.fieldprof.bytecode.cfg.BranchDescription;
import dev.fieldprof.bytecode.cfg.BytecodeCfg;
import dev.fieldprof.bytecode.instrument.PathProbeInstrumenter;
import dev.fieldprof.client.PathProbes;
import dev.fieldprof.paths.PathEventSink;
import dev.fieldprof.paths.PathRecording;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * A recorded run replayed as the probe calls instrumented code makes, into whatever {@link
 * PathProbes} handler is installed: each entry's handle is kept (here on a stack, in the code in a
 * local of the invocation) and passed to the invocation's branches and exit, and a branch passes
 * its local edge number, which instrumented code has as a constant and which is computed here once,
 * ahead of the replay. The events sit in flat arrays and the probes are called directly, so the
 * harness's own share of a replay stays small and is the same for every handler. One replay at a
 * time.
 */
final class ProbeReplay {
    private static final byte ENTER = 0;
    private static final byte BRANCH = 1;
    private static final byte EXIT = 2;
    private static final byte THROW = 3;

    private final byte[] kind;
    private final int[] method;
    private final int[] block;
    private final int[] edge;
    private final int[] localEdge;
    private final int size;
    private Object[] handles = new Object[256];

    private ProbeReplay(byte[] kind, int[] method, int[] block, int[] edge, int[] localEdge) {
        this.kind = kind;
        this.method = method;
        this.block = block;
        this.edge = edge;
        this.localEdge = localEdge;
        this.size = kind.length;
    }

    /**
     * The events of {@code run}, each branch with the local edge number the path instrumenter gives
     * it in the code ({@link BranchDescription#firstLocalEdges} of its method's CFG).
     */
    static ProbeReplay of(PathRecording run, Map<Integer, BytecodeCfg> cfgs) {
        Map<Integer, int[]> firstLocalEdge = new HashMap<>();
        int n = run.size();
        byte[] kind = new byte[n];
        int[] method = new int[n];
        int[] block = new int[n];
        int[] edge = new int[n];
        int[] local = new int[n];
        int[] i = {0};
        run.replay(
                new PathEventSink() {
                    @Override
                    public void enter(int methodId) {
                        add(ENTER, methodId);
                    }

                    @Override
                    public void branch(int methodId, int blockId, int edgeIndex) {
                        int[] first =
                                firstLocalEdge.computeIfAbsent(
                                        methodId,
                                        m ->
                                                BranchDescription.firstLocalEdges(
                                                        cfgs.get(m),
                                                        PathProbeInstrumenter.MAX_DEGREE));
                        block[i[0]] = blockId;
                        edge[i[0]] = edgeIndex;
                        local[i[0]] = first[blockId] + edgeIndex;
                        add(BRANCH, methodId);
                    }

                    @Override
                    public void exit(int methodId, boolean exceptional) {
                        add(exceptional ? THROW : EXIT, methodId);
                    }

                    private void add(byte k, int methodId) {
                        kind[i[0]] = k;
                        method[i[0]++] = methodId;
                    }
                });
        return new ProbeReplay(kind, method, block, edge, local);
    }

    /** Calls the probes for every event, in order. */
    void play() {
        int depth = 0;
        for (int i = 0; i < size; i++) {
            int m = method[i];
            switch (kind[i]) {
                case ENTER -> {
                    if (depth == handles.length) {
                        handles = Arrays.copyOf(handles, depth * 2);
                    }
                    handles[depth++] = PathProbes.enter(m);
                }
                case BRANCH ->
                        PathProbes.branch(handles[depth - 1], m, block[i], edge[i], localEdge[i]);
                case EXIT -> PathProbes.exit(handles[--depth], m);
                default -> PathProbes.exitExceptionally(handles[--depth], m);
            }
        }
        Arrays.fill(handles, 0, depth, null);
    }
}
