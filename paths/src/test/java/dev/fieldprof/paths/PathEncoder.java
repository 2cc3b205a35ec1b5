package dev.fieldprof.paths;

import java.util.Arrays;

/**
 * Encodes one thread's execution path into compact path reports with an adaptive integer range
 * coder (AdapTracer, docs/references.md; docs/architecture.md, "Paths"). Probes call {@link
 * #enterMethod}, {@link #branch} at every block with several out-edges, and {@link #exitMethod} /
 * {@link #exitExceptionally}; {@link #finishReport()} cuts a report, which decodes on its own with
 * {@link PathDecoder} and the model version it names. Loops need nothing special and recursion any
 * depth; a report may begin and end with frames open.
 *
 * <p>Per thread, not thread-safe. The probe methods never throw and do not allocate (except to grow
 * the stack or output buffer, and once per method per report for its adaptive tables): calls that
 * do not fit the branch table or the open frames are dropped and counted in {@link
 * #droppedEvents()}. An exit of a method below the top frame first closes the frames above it as
 * exceptional exits (their exit probes were skipped).
 *
 * <h2>Report format, version 1</h2>
 *
 * <pre>
 * byte    format version (1)
 * varint  model version the stream was coded with (unsigned LEB128)
 * varint  event count N
 * varint  d * 5 + r: d = frames open at the start, r = calls returned to the outermost
 *         (root) frame so far (capped at 4), then d times, outermost first:
 *         varint method id, varint e * 5 + c: e = last local edge + 1 (0 = none since entry),
 *         c = calls returned since (capped at 4); (e, c) is the frame's successor context
 * bytes   range-coded stream to the end of the report, trailing zero bytes stripped:
 *         N events, then a 16-bit check coded uniformly: a hash of the open frames and of
 *         the successor tables at the end (see SuccessorModel#digest)
 * </pre>
 *
 * Each event is the frame's next-event symbol (normal exit, exceptional exit, branch node, or call
 * of a method), coded with the successor model (package-private {@code SuccessorModel}: per frame
 * context, up to four candidate next events with adaptive counts and an escape, seeded from the
 * model's successor hints); a branch is followed by its out-edge coded with the report's {@link
 * AdaptiveEdgeModel}. Both models restart from the named model version with every report.
 *
 * <pre>{@code
 * PathEncoder enc = new PathEncoder(EdgeModel.uniform(table));
 * enc.enterMethod(3);
 * enc.branch(7, 1);      // block 7 of method 3 took its out-edge 1
 * enc.exitMethod(3);
 * byte[] report = enc.finishReport();
 * }</pre>
 */
public final class PathEncoder extends CodedPathEncoder {
    private AdaptiveEdgeModel edges;
    private SuccessorModel successors;

    // Frame 0 is the root pseudo-frame (method id == methodCount) that calls outermost methods.
    private int[] frameMethod = new int[64];
    private int[] frameEdge = new int[64];
    private int[] frameCalls = new int[64];
    // Each frame's successor table in the current report, fetched at the frame's first coded
    // event (null before): spares the per-event table lookup and epoch check. Fetching lazily
    // keeps the tables' first-use order, which the report's end check depends on.
    private int[][] frameTable = new int[64][];
    // Likewise each frame's adaptive edge frequencies and node totals (null before its first
    // branch in the report).
    private int[][] frameFreq = new int[64][];
    private int[][] frameTotal = new int[64][];

    private int[] startMethod = new int[0];
    private int[] startEdge = new int[0];
    private int[] startCalls = new int[0];
    private int startRootCalls;

    /**
     * Creates an encoder that starts its first report with {@code model}.
     *
     * @param model the current edge model (the uniform one if the device has received none)
     */
    public PathEncoder(EdgeModel model) {
        super(model);
        this.edges = new AdaptiveEdgeModel(model);
        this.successors = new SuccessorModel(model);
        frameMethod[0] = layout.methodCount;
        beginReport();
    }

    /** A method was entered. */
    @Override
    public void enterMethod(int methodId) {
        if (methodId < 0 || methodId >= layout.methodCount) {
            dropped++;
            return;
        }
        int top = depth;
        int caller = frameMethod[top];
        if (coder.meter != null) {
            coder.meter.category = CodeLengths.CALL;
        }
        successors.encode(
                coder,
                successorTable(top, caller),
                caller,
                SuccessorModel.context(frameEdge[top], frameCalls[top]),
                SuccessorModel.FIRST_BRANCH + layout.branchCount(caller) + methodId);
        events++;
        if (++depth == frameMethod.length) {
            grow();
        }
        frameMethod[depth] = methodId;
        frameEdge[depth] = 0;
        frameCalls[depth] = 0;
        frameTable[depth] = null;
        frameFreq[depth] = null;
        if (recording != null) {
            recording.enter(methodId);
        }
    }

    /** The current method's branch node {@code blockId} takes out-edge {@code edgeIndex}. */
    @Override
    public void branch(int blockId, int edgeIndex) {
        if (depth == 0) {
            dropped++;
            return;
        }
        int m = frameMethod[depth];
        int ord = layout.ordinal(m, blockId);
        if (ord < 0) {
            dropped++;
            return;
        }
        int[] starts = layout.edgeStart[m];
        int from = starts[ord];
        if (edgeIndex < 0 || edgeIndex >= starts[ord + 1] - from) {
            dropped++;
            return;
        }
        if (coder.meter != null) {
            coder.meter.category = CodeLengths.CALL;
        }
        successors.encode(
                coder,
                successorTable(depth, m),
                m,
                SuccessorModel.context(frameEdge[depth], frameCalls[depth]),
                SuccessorModel.FIRST_BRANCH + ord);
        int[] f = frameFreq[depth];
        if (f == null) {
            f = edges.frequencies(m);
            frameFreq[depth] = f;
            frameTotal[depth] = edges.totals(m);
        }
        if (coder.meter != null) {
            coder.meter.category = CodeLengths.BRANCH;
        }
        edges.encode(coder, f, frameTotal[depth], starts, ord, edgeIndex);
        events++;
        frameEdge[depth] = from + edgeIndex + 1;
        frameCalls[depth] = 0;
        if (recording != null) {
            recording.branch(m, blockId, edgeIndex);
        }
    }

    /** The method returns normally. */
    @Override
    public void exitMethod(int methodId) {
        exit(methodId, SuccessorModel.EXIT);
    }

    /** The method is left by an exception (its catch-all exit probe). */
    @Override
    public void exitExceptionally(int methodId) {
        exit(methodId, SuccessorModel.THROW);
    }

    private void exit(int methodId, int symbol) {
        int target = depth;
        while (target > 0 && frameMethod[target] != methodId) {
            target--;
        }
        if (target == 0) {
            dropped++;
            return;
        }
        while (depth > target) {
            pop(SuccessorModel.THROW);
        }
        pop(symbol);
    }

    private void pop(int symbol) {
        int m = frameMethod[depth];
        if (coder.meter != null) {
            coder.meter.category = CodeLengths.CALL;
        }
        successors.encode(
                coder,
                successorTable(depth, m),
                m,
                SuccessorModel.context(frameEdge[depth], frameCalls[depth]),
                symbol);
        events++;
        depth--;
        frameCalls[depth]++;
        if (frameCalls[depth] > SuccessorModel.CALL_LEVELS) {
            frameCalls[depth] = SuccessorModel.CALL_LEVELS; // only the cap matters
        }
        if (recording != null) {
            recording.exit(m, symbol == SuccessorModel.THROW);
        }
    }

    private int[] successorTable(int frame, int m) {
        int[] t = frameTable[frame];
        if (t == null) {
            t = successors.table(m);
            frameTable[frame] = t;
        }
        return t;
    }

    private void grow() {
        int n = frameMethod.length * 2;
        frameMethod = Arrays.copyOf(frameMethod, n);
        frameEdge = Arrays.copyOf(frameEdge, n);
        frameCalls = Arrays.copyOf(frameCalls, n);
        frameTable = Arrays.copyOf(frameTable, n);
        frameFreq = Arrays.copyOf(frameFreq, n);
        frameTotal = Arrays.copyOf(frameTotal, n);
    }

    @Override
    public void meter(CodeLengths meter) {
        coder.meter = meter;
    }

    @Override
    int headerSize() {
        int size =
                1
                        + PathFormat.varLongSize(model.version())
                        + PathFormat.varLongSize(events)
                        + PathFormat.varLongSize(
                                PathFormat.pack(startMethod.length, startRootCalls));
        for (int i = 0; i < startMethod.length; i++) {
            size +=
                    PathFormat.varLongSize(startMethod[i])
                            + PathFormat.varLongSize(PathFormat.pack(startEdge[i], startCalls[i]));
        }
        return size;
    }

    @Override
    int writeHeader(byte[] out) {
        out[0] = (byte) PathFormat.VERSION_1;
        int p = PathFormat.putVarLong(out, 1, model.version());
        p = PathFormat.putVarLong(out, p, events);
        p = PathFormat.putVarLong(out, p, PathFormat.pack(startMethod.length, startRootCalls));
        for (int i = 0; i < startMethod.length; i++) {
            p = PathFormat.putVarLong(out, p, startMethod[i]);
            p = PathFormat.putVarLong(out, p, PathFormat.pack(startEdge[i], startCalls[i]));
        }
        return p;
    }

    @Override
    void modelChanged() {
        edges = new AdaptiveEdgeModel(model);
        successors = new SuccessorModel(model);
    }

    @Override
    int endCheck() {
        int h = PathFormat.mix(PathFormat.CHECK_SEED, depth);
        for (int i = 0; i <= depth; i++) {
            h = PathFormat.mix(h, frameMethod[i]);
            h = PathFormat.mix(h, frameEdge[i]);
        }
        return PathFormat.check(successors.digest(h));
    }

    @Override
    void beginReport() {
        edges.reset();
        successors.reset();
        coder.reset();
        // The tables restart with the report (and may belong to a new model): fetch them again.
        Arrays.fill(frameTable, 0, depth + 1, null);
        Arrays.fill(frameFreq, 0, depth + 1, null);
        events = 0;
        startRootCalls = frameCalls[0];
        startMethod = Arrays.copyOfRange(frameMethod, 1, depth + 1);
        startEdge = Arrays.copyOfRange(frameEdge, 1, depth + 1);
        startCalls = Arrays.copyOfRange(frameCalls, 1, depth + 1);
    }
}
