package dev.fieldprof.paths;

import java.util.Arrays;

/**
 * Encodes one thread's execution path into path reports of format version 3 (docs/architecture.md,
 * "Paths"; the range coding of AdapTracer, docs/references.md). Only what the method's CFG cannot
 * tell is coded, each event once, at its position in the frame ({@link CallSiteModel}): at a branch
 * node its outcome (which also says that no further call came before it), at a call which method
 * the call reached, at an exit whether it was a return or an exception. Positions are the last
 * branch edge taken and the calls made since, so the decoder ({@link PathDecoder}) follows the
 * method's CFG from one branch node to the next with the device. Loops need nothing special and
 * recursion any depth; a report may begin and end with frames open.
 *
 * <p>Per thread, not thread-safe. The probe methods never throw and do not allocate once each
 * position has been used (the position tables are kept across reports and restarted by an epoch
 * stamp): calls that do not fit the branch table or the open frames are dropped and counted in
 * {@link #droppedEvents()}. An exit of a method below the top frame first closes the frames above
 * it as exceptional exits (their exit probes were skipped).
 *
 * <h2>Report format, version 3</h2>
 *
 * <pre>
 * byte    format version (3)
 * varint  model version the stream was coded with (unsigned LEB128)
 * varint  event count N
 * varint  d = frames open at the start
 * varint  p * 5 + r: p = previous outermost callee + 1 (0 = none), the outermost frame's
 *         position; r = calls returned to the outermost frame so far (capped at 4), which
 *         the edge model's successor hints count
 * d times, outermost first: varint method id, varint position s * 8 + k: s = last local
 *         edge + 1 (0 = none since entry), k = calls made since (capped at 7)
 * bytes   range-coded stream to the end of the report, trailing zero bytes stripped:
 *         N events, then a 16-bit check coded uniformly: a hash of the open frames, of the
 *         positions used and of the method model at the end (version 4: and of the
 *         dropped-segment count)
 * </pre>
 *
 * <h2>Report format, version 4</h2>
 *
 * <p>Written when {@link #writeFormat(int)} asks for it (the staged tracer, which codes raw events
 * in batches and may drop whole segments of them): version 3 with one more varint after the model
 * version, the number of raw-event segments the device dropped since this thread's previous report
 * (0 = none). The coded stream is the same as version 3's. A report that follows a dropped segment
 * starts from the frames the thread had open at the drop, the outermost at position "called method
 * + 1", the others at "one call made", the top at its entry ({@link #resync}).
 *
 * <pre>
 * byte    format version (4)
 * varint  model version
 * varint  segments dropped before this report
 * ...     as version 3 from the event count on
 * </pre>
 *
 * Each event is one symbol at its frame's position: normal exit, exceptional exit, out-edge g of
 * the method's branch nodes, or call of method c. It is coded first as one binary decision, "the
 * position's most probable symbol?", with the position's adaptive probability (a multiplication, no
 * division); only a miss then codes which of the position's other candidates came, or an escape. An
 * escaped symbol is its kind (2 bits) and then a uniform branch ordinal and the edge from the
 * report's {@link AdaptiveEdgeModel} (seeded from the model's edge frequencies), or the callee from
 * the report's adaptive method model. Positions start from the model's successor hints. All
 * adaptive state restarts from the named model version with every report.
 *
 * <pre>{@code
 * CallSitePathEncoder enc = new CallSitePathEncoder(EdgeModel.uniform(table));
 * enc.enterMethod(3);
 * enc.branch(7, 1);      // block 7 of method 3 took its out-edge 1
 * enc.exitMethod(3);
 * byte[] report = enc.finishReport();
 * }</pre>
 */
public final class CallSitePathEncoder extends CodedPathEncoder {
    private static final int LEVEL_MASK = CallSiteModel.LEVELS - 1;

    private final int methodCount;
    private CallSiteModel sites;

    // A frame is its method's position table (which names the method and its first call symbol)
    // and its position. The top frame lives in fields, so a branch touches no frame array; an
    // enter saves the caller below it and an exit restores it. Frame 0 is the outermost
    // pseudo-frame (method methodCount) that calls outermost methods; its position is the previous
    // outermost callee + 1.
    private int[] rows;
    private int position;
    private int[][] savedRows = new int[64][];
    private int[] savedPosition = new int[64];
    private int rootReturned;

    // Frames 0..depth (methods and positions) at the report's start, for its header, and at its
    // end, for its check: kept across reports (only a deeper stack than ever before grows them),
    // so a cut allocates nothing beyond the report's bytes.
    private int[] startMethod = new int[65];
    private int[] startPosition = new int[65];
    private int startDepth;
    private int startRootReturned;
    private int[] endMethod = new int[65];
    private int[] endPosition = new int[65];
    private int formatVersion = PathFormat.VERSION_3;
    private long droppedSegments;

    /**
     * Creates an encoder that starts its first report with {@code model}.
     *
     * @param model the current edge model (the uniform one if the device has received none)
     */
    public CallSitePathEncoder(EdgeModel model) {
        super(model);
        this.methodCount = layout.methodCount;
        this.sites = new CallSiteModel(model);
        rows = sites.rowsOf(methodCount);
        beginReport();
    }

    @Override
    public void meter(CodeLengths meter) {
        coder.meter = meter;
        sites.meter = meter;
    }

    /**
     * Chooses the format of the reports finished from now on: 3 (the default) or 4, which also
     * names the raw-event segments dropped before each report.
     *
     * @throws IllegalArgumentException for any other version
     */
    public void writeFormat(int version) {
        if (version != PathFormat.VERSION_3 && version != PathFormat.VERSION_4) {
            throw new IllegalArgumentException("cannot write path format " + version);
        }
        formatVersion = version;
    }

    /**
     * Codes the raw events {@code raw[from..to)} ({@link RawPathEvents}) as the probe methods
     * would, in one loop, stopping early after the event at which the report's coded stream reaches
     * {@code maxBytes} or its events reach {@code maxEvents}, so the caller can cut it there.
     *
     * @return the index after the last event coded ({@code to} unless it stopped early)
     */
    public int codeRaw(int[] raw, int from, int to, int maxBytes, long maxEvents) {
        for (int i = from; i < to; ) {
            int e = raw[i++];
            int v = e >> 2;
            switch (e & 3) {
                case RawPathEvents.ENTER -> enterMethod(v);
                case RawPathEvents.BRANCH -> branch(v, -1, -1);
                case RawPathEvents.EXIT -> exit(v, CallSiteModel.EXIT);
                default -> exit(v, CallSiteModel.THROW);
            }
            if (coder.length() >= maxBytes || events >= maxEvents) {
                return i;
            }
        }
        return to;
    }

    /**
     * The local edge of out-edge {@code edgeIndex} of block {@code blockId} of method {@code
     * methodId}, or -1 if there is none such. Reads only the immutable branch layout, so any thread
     * may call it (the traced thread of a staged tracer, for a jar instrumented before the
     * instrumenter numbered local edges).
     */
    public int localEdge(int methodId, int blockId, int edgeIndex) {
        if (methodId < 0 || methodId >= methodCount) {
            return -1;
        }
        int ord = layout.ordinal(methodId, blockId);
        if (ord < 0) {
            return -1;
        }
        int[] starts = layout.edgeStart[methodId];
        int g = starts[ord] + edgeIndex;
        return edgeIndex < 0 || g >= starts[ord + 1] ? -1 : g;
    }

    /**
     * Continues after a gap: the next report starts with {@code methods[0..count)} open (outermost
     * first; ids outside the model are left out, as their entries were), positioned as the format's
     * version-4 description says, and names {@code segments} more dropped segments. Called between
     * reports only.
     *
     * @throws IllegalStateException if the current report has coded events
     */
    public void resync(int[] methods, int count, int segments) {
        if (events != 0) {
            throw new IllegalStateException("resync inside a report with " + events + " events");
        }
        while (savedRows.length <= count) {
            grow();
        }
        int d = 0;
        int[] t = sites.rowsOf(methodCount);
        for (int i = 0; i < count; i++) {
            int m = methods[i];
            if (m < 0 || m >= methodCount) {
                continue;
            }
            savedRows[d] = t;
            savedPosition[d] = d == 0 ? m + 1 : 1;
            d++;
            t = sites.rowsOf(m);
        }
        rows = t;
        position = 0;
        depth = d;
        rootReturned = 0;
        droppedSegments += segments;
        beginReport();
    }

    /** Segments dropped that the next non-empty report will name (version 4). */
    public long droppedSegmentsPending() {
        return droppedSegments;
    }

    @Override
    public void enterMethod(int methodId) {
        if (methodId < 0 || methodId >= methodCount) {
            dropped++;
            return;
        }
        int[] t = rows;
        int pos = position;
        sites.encode(coder, t, pos, CallSiteModel.callBase(t) + methodId);
        events++;
        int d = depth;
        if (d == 0) {
            pos = methodId + 1;
        } else if ((pos & LEVEL_MASK) != LEVEL_MASK) {
            pos++;
        }
        if (d == savedRows.length) {
            grow();
        }
        savedRows[d] = t;
        savedPosition[d] = pos;
        depth = d + 1;
        rows = sites.rowsOf(methodId);
        position = 0;
        if (recording != null) {
            recording.enter(methodId);
        }
    }

    @Override
    public void branch(int blockId, int edgeIndex) {
        branch(localEdge(blockId, edgeIndex), blockId, edgeIndex);
    }

    /**
     * The local edge of out-edge {@code edgeIndex} of block {@code blockId} of the top frame's
     * method, or -1 if it has none such (or no frame is open): what the instrumenter passes to the
     * branch probe, looked up for a jar instrumented before it did.
     */
    public int localEdge(int blockId, int edgeIndex) {
        return CallSiteModel.edge(rows, blockId, edgeIndex);
    }

    /**
     * The top frame's method takes its local edge {@code localEdge}, out-edge {@code edgeIndex} of
     * block {@code blockId}: as {@link #branch(int, int)} without looking the edge up (the
     * instrumenter numbered it); a negative or too large local edge is dropped. Block and edge only
     * go to the debug recording.
     */
    public void branch(int localEdge, int blockId, int edgeIndex) {
        int[] t = rows;
        // The outermost pseudo-frame has no edges, so this also drops a branch with no frame.
        if (localEdge < 0 || localEdge >= CallSiteModel.edgeCount(t)) {
            dropped++;
            return;
        }
        sites.encode(coder, t, position, CallSiteModel.FIRST_EDGE + localEdge);
        events++;
        position = (localEdge + 1) * CallSiteModel.LEVELS;
        if (recording != null) {
            recordBranch(CallSiteModel.method(t), localEdge, blockId, edgeIndex);
        }
    }

    private void recordBranch(int m, int localEdge, int blockId, int edgeIndex) {
        if (blockId < 0) { // coded from a raw event, which carries the local edge only
            int[] starts = layout.edgeStart[m];
            int ord = Arrays.binarySearch(starts, localEdge);
            ord = ord < 0 ? -ord - 2 : ord;
            blockId = layout.blocks[m][ord];
            edgeIndex = localEdge - starts[ord];
        }
        recording.branch(m, blockId, edgeIndex);
    }

    @Override
    public void exitMethod(int methodId) {
        exit(methodId, CallSiteModel.EXIT);
    }

    @Override
    public void exitExceptionally(int methodId) {
        exit(methodId, CallSiteModel.THROW);
    }

    private void exit(int methodId, int symbol) {
        int d = depth;
        if (d > 0 && CallSiteModel.method(rows) == methodId) {
            pop(symbol);
            return;
        }
        int target = d - 1;
        while (target > 0 && CallSiteModel.method(savedRows[target]) != methodId) {
            target--;
        }
        if (target <= 0) {
            dropped++;
            return;
        }
        while (depth > target) {
            pop(CallSiteModel.THROW);
        }
        pop(symbol);
    }

    private void pop(int symbol) {
        int[] t = rows;
        sites.encode(coder, t, position, symbol);
        events++;
        int d = depth - 1;
        depth = d;
        rows = savedRows[d];
        position = savedPosition[d];
        if (d == 0 && rootReturned < SuccessorModel.CALL_LEVELS) {
            rootReturned++;
        }
        if (recording != null) {
            recording.exit(CallSiteModel.method(t), symbol == CallSiteModel.THROW);
        }
    }

    private void grow() {
        int n = savedRows.length * 2;
        savedRows = Arrays.copyOf(savedRows, n);
        savedPosition = Arrays.copyOf(savedPosition, n);
    }

    @Override
    int headerSize() {
        int size =
                1
                        + PathFormat.varLongSize(model.version())
                        + (formatVersion == PathFormat.VERSION_4
                                ? PathFormat.varLongSize(droppedSegments)
                                : 0)
                        + PathFormat.varLongSize(events)
                        + PathFormat.varLongSize(startDepth)
                        + PathFormat.varLongSize(
                                PathFormat.pack(startPosition[0], startRootReturned));
        for (int i = 1; i <= startDepth; i++) {
            size +=
                    PathFormat.varLongSize(startMethod[i])
                            + PathFormat.varLongSize(startPosition[i]);
        }
        return size;
    }

    @Override
    int writeHeader(byte[] out) {
        boolean v4 = formatVersion == PathFormat.VERSION_4;
        out[0] = (byte) formatVersion;
        int p = PathFormat.putVarLong(out, 1, model.version());
        if (v4) {
            p = PathFormat.putVarLong(out, p, droppedSegments);
        }
        if (v4 && events > 0) {
            droppedSegments = 0; // named in this report; an empty one is never sent
        }
        p = PathFormat.putVarLong(out, p, events);
        p = PathFormat.putVarLong(out, p, startDepth);
        p = PathFormat.putVarLong(out, p, PathFormat.pack(startPosition[0], startRootReturned));
        for (int i = 1; i <= startDepth; i++) {
            p = PathFormat.putVarLong(out, p, startMethod[i]);
            p = PathFormat.putVarLong(out, p, startPosition[i]);
        }
        return p;
    }

    @Override
    void modelChanged() {
        CodeLengths meter = sites.meter;
        sites = new CallSiteModel(model);
        sites.meter = meter;
        for (int i = 0; i < depth; i++) {
            savedRows[i] = sites.rowsOf(CallSiteModel.method(savedRows[i]));
        }
        rows = sites.rowsOf(CallSiteModel.method(rows));
    }

    @Override
    int endCheck() {
        if (depth >= endMethod.length) {
            endMethod = new int[savedRows.length + 1];
            endPosition = new int[savedRows.length + 1];
        }
        copyFrames(endMethod, endPosition);
        int h = sites.digest(frameDigest(endMethod, endPosition, depth));
        return PathFormat.check(
                formatVersion == PathFormat.VERSION_4 ? droppedDigest(h, droppedSegments) : h);
    }

    /** Writes the methods and positions of frames 0..depth (the pseudo-frame first). */
    private void copyFrames(int[] methods, int[] positions) {
        for (int i = 0; i < depth; i++) {
            methods[i] = CallSiteModel.method(savedRows[i]);
            positions[i] = savedPosition[i];
        }
        methods[depth] = CallSiteModel.method(rows);
        positions[depth] = position;
    }

    /** Version 4's check also covers the dropped-segment count of the header. */
    static int droppedDigest(int h, long droppedSegments) {
        return PathFormat.mix(
                PathFormat.mix(h, (int) droppedSegments), (int) (droppedSegments >>> 32));
    }

    /** Hash of the open frames (the outermost pseudo-frame included), as both sides compute it. */
    static int frameDigest(int[] methods, int[] positions, int depth) {
        int h = PathFormat.mix(PathFormat.CHECK_SEED + PathFormat.VERSION_3, depth);
        for (int i = 0; i <= depth; i++) {
            h = PathFormat.mix(h, methods[i]);
            h = PathFormat.mix(h, positions[i]);
        }
        return h;
    }

    @Override
    void beginReport() {
        sites.reset();
        coder.reset();
        events = 0;
        startRootReturned = rootReturned;
        if (depth >= startMethod.length) {
            startMethod = new int[savedRows.length + 1];
            startPosition = new int[savedRows.length + 1];
        }
        copyFrames(startMethod, startPosition);
        startDepth = depth;
    }
}
