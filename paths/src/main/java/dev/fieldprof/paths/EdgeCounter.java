package dev.fieldprof.paths;

/**
 * Counts taken out-edges of every branch node, method entries, and which event follows which in
 * each frame context (for the next model's successor hints), from decoded paths: the edge counting
 * step of AdapTracer's trace parser (docs/references.md): the server's edge counting. {@link
 * ModelUpdater} turns the counts into the next model. It follows the frame stack through the
 * events, restarting at each decoded report's {@link #begin}. Not thread-safe; merge counters with
 * {@link #addAll}.
 *
 * <pre>{@code
 * EdgeCounter window = new EdgeCounter(table);
 * decoder.decode(report, window); // once per report of the window
 * long taken = window.count(methodId, blockId, 1);
 * }</pre>
 */
public final class EdgeCounter implements PathEventSink {
    private final BranchLayout layout;
    private final long[][] counts;
    private final long[] entries;
    private long decisions;
    private long ignored;
    // (method << 32 | context) -> (symbol -> count): the next-event statistics per frame context.
    private final java.util.HashMap<Long, java.util.HashMap<Integer, long[]>> successors =
            new java.util.HashMap<>();
    // The frame stack as the coder sees it; frame 0 is the outermost (root) frame.
    private int[] frameMethod = new int[64];
    private int[] frameEdge = new int[64];
    private int[] frameCalls = new int[64];
    private int depth;

    /**
     * Empty counts for the branch nodes of {@code table}.
     *
     * @throws IllegalArgumentException if the table breaks the limits of {@link BranchTable}
     */
    public EdgeCounter(BranchTable table) {
        this.layout = BranchLayout.of(table);
        this.counts = new long[layout.methodCount][];
        for (int m = 0; m < layout.methodCount; m++) {
            counts[m] = new long[layout.edgeCount(m)];
        }
        this.entries = new long[layout.methodCount];
        frameMethod[0] = layout.methodCount;
    }

    @Override
    public void begin(PathReportHeader header) {
        int[] methods = header.openMethods();
        int[] edges = header.openLastEdges();
        int[] calls = header.openCalls();
        while (frameMethod.length <= methods.length + 1) {
            grow();
        }
        depth = methods.length;
        frameCalls[0] = header.rootCalls();
        frameEdge[0] = 0;
        for (int i = 0; i < methods.length; i++) {
            frameMethod[i + 1] = methods[i];
            frameEdge[i + 1] = edges[i];
            frameCalls[i + 1] = calls[i];
        }
    }

    private void observe(int symbol) {
        int m = frameMethod[depth];
        long key = ((long) m << 32) | SuccessorModel.context(frameEdge[depth], frameCalls[depth]);
        successors.computeIfAbsent(key, k -> new java.util.HashMap<>())
                .computeIfAbsent(symbol, k -> new long[1])[0]++;
    }

    private void grow() {
        int n = frameMethod.length * 2;
        frameMethod = java.util.Arrays.copyOf(frameMethod, n);
        frameEdge = java.util.Arrays.copyOf(frameEdge, n);
        frameCalls = java.util.Arrays.copyOf(frameCalls, n);
    }

    @Override
    public void enter(int methodId) {
        if (methodId < 0 || methodId >= layout.methodCount) {
            ignored++;
            return;
        }
        entries[methodId]++;
        observe(SuccessorModel.FIRST_BRANCH + layout.branchCount(frameMethod[depth]) + methodId);
        if (++depth == frameMethod.length) {
            grow();
        }
        frameMethod[depth] = methodId;
        frameEdge[depth] = 0;
        frameCalls[depth] = 0;
    }

    @Override
    public void branch(int methodId, int blockId, int edgeIndex) {
        if (methodId < 0 || methodId >= layout.methodCount) {
            ignored++;
            return;
        }
        int ord = layout.ordinal(methodId, blockId);
        int[] s = layout.edgeStart[methodId];
        if (ord < 0 || edgeIndex < 0 || edgeIndex >= s[ord + 1] - s[ord]) {
            ignored++;
            return;
        }
        counts[methodId][s[ord] + edgeIndex]++;
        decisions++;
        if (depth > 0 && frameMethod[depth] == methodId) {
            observe(SuccessorModel.FIRST_BRANCH + ord);
            frameEdge[depth] = s[ord] + edgeIndex + 1;
            frameCalls[depth] = 0;
        }
    }

    @Override
    public void exit(int methodId, boolean exceptional) {
        if (depth == 0 || frameMethod[depth] != methodId) {
            ignored++;
            return;
        }
        observe(exceptional ? SuccessorModel.THROW : SuccessorModel.EXIT);
        depth--;
        if (frameCalls[depth] < SuccessorModel.CALL_LEVELS) {
            frameCalls[depth]++;
        }
    }

    /**
     * Times {@code symbol} followed in the context {@code context} of a frame of {@code methodId}
     * (numbering as in {@link EdgeModel.Builder#successors}).
     */
    public long successorCount(int methodId, int context, int symbol) {
        var bySymbol = successors.get(((long) methodId << 32) | context);
        long[] c = bySymbol == null ? null : bySymbol.get(symbol);
        return c == null ? 0 : c[0];
    }

    java.util.Map<Long, java.util.HashMap<Integer, long[]>> successorCounts() {
        return successors;
    }

    /** Times the out-edge was taken. */
    public long count(int methodId, int blockId, int edgeIndex) {
        int degree = layout.outDegree(methodId, blockId);
        if (edgeIndex < 0 || edgeIndex >= degree) {
            throw new IllegalArgumentException(
                    "edgeIndex must be in [0, " + degree + "), got " + edgeIndex);
        }
        return counts[methodId][
                layout.edgeStart[methodId][layout.ordinal(methodId, blockId)] + edgeIndex];
    }

    /** Times the branch node was passed (the sum over its out-edges). */
    public long total(int methodId, int blockId) {
        long t = 0;
        for (int e = 0, d = layout.outDegree(methodId, blockId); e < d; e++) {
            t += count(methodId, blockId, e);
        }
        return t;
    }

    /** Times the method was entered. */
    public long entries(int methodId) {
        return entries[methodId];
    }

    /** All branch decisions counted. */
    public long decisions() {
        return decisions;
    }

    /** Events that named no method or branch node of the table (not counted). */
    public long ignored() {
        return ignored;
    }

    /** Adds another counter's counts (same branch table) to this one. */
    public void addAll(EdgeCounter other) {
        if (!layout.sameAs(other.layout)) {
            throw new IllegalArgumentException("counters are for different branch tables");
        }
        for (int m = 0; m < counts.length; m++) {
            for (int e = 0; e < counts[m].length; e++) {
                counts[m][e] += other.counts[m][e];
            }
            entries[m] += other.entries[m];
        }
        decisions += other.decisions;
        ignored += other.ignored;
        for (var e : other.successors.entrySet()) {
            var mine = successors.computeIfAbsent(e.getKey(), k -> new java.util.HashMap<>());
            for (var s : e.getValue().entrySet()) {
                mine.computeIfAbsent(s.getKey(), k -> new long[1])[0] += s.getValue()[0];
            }
        }
    }

    /** The version byte in front of {@link #toBytes()}. */
    private static final int BYTES_FORMAT = 1;

    /**
     * The counts (not the frame stack, which only matters within one report) as bytes, so that a
     * window's counts can wait in state as reports arrive instead of the reports themselves.
     * Sparse: an edge, entry or successor never counted costs nothing. {@link #fromBytes} reads it
     * back.
     */
    public byte[] toBytes() {
        java.io.ByteArrayOutputStream buffer = new java.io.ByteArrayOutputStream();
        try (java.io.DataOutputStream out = new java.io.DataOutputStream(buffer)) {
            out.writeByte(BYTES_FORMAT);
            out.writeInt(layout.methodCount);
            out.writeLong(decisions);
            out.writeLong(ignored);
            for (int m = 0; m < counts.length; m++) {
                writeSparse(out, counts[m]);
            }
            writeSparse(out, entries);
            out.writeInt(successors.size());
            for (var context : new java.util.TreeMap<>(successors).entrySet()) {
                out.writeLong(context.getKey());
                out.writeInt(context.getValue().size());
                for (var symbol : new java.util.TreeMap<>(context.getValue()).entrySet()) {
                    out.writeInt(symbol.getKey());
                    out.writeLong(symbol.getValue()[0]);
                }
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e); // a byte array does not fail
        }
        return buffer.toByteArray();
    }

    /**
     * Counts written by {@link #toBytes()} for the same branch table.
     *
     * @throws IllegalArgumentException if the bytes are not counts of this table's shape
     */
    public static EdgeCounter fromBytes(BranchTable table, byte[] bytes) {
        EdgeCounter c = new EdgeCounter(table);
        try (java.io.DataInputStream in =
                new java.io.DataInputStream(new java.io.ByteArrayInputStream(bytes))) {
            int format = in.readUnsignedByte();
            int methods = in.readInt();
            if (format != BYTES_FORMAT || methods != c.layout.methodCount) {
                throw new IllegalArgumentException(
                        "edge counts of format "
                                + format
                                + " for "
                                + methods
                                + " methods, expected format "
                                + BYTES_FORMAT
                                + " for "
                                + c.layout.methodCount);
            }
            c.decisions = in.readLong();
            c.ignored = in.readLong();
            for (int m = 0; m < c.counts.length; m++) {
                readSparse(in, c.counts[m]);
            }
            readSparse(in, c.entries);
            for (int k = in.readInt(); k > 0; k--) {
                var bySymbol = new java.util.HashMap<Integer, long[]>();
                c.successors.put(in.readLong(), bySymbol);
                for (int n = in.readInt(); n > 0; n--) {
                    bySymbol.put(in.readInt(), new long[] {in.readLong()});
                }
            }
        } catch (java.io.IOException | IndexOutOfBoundsException e) {
            throw new IllegalArgumentException("edge counts do not fit the branch table: " + e);
        }
        return c;
    }

    private static void writeSparse(java.io.DataOutputStream out, long[] values)
            throws java.io.IOException {
        int nonZero = 0;
        for (long v : values) {
            nonZero += v == 0 ? 0 : 1;
        }
        out.writeInt(nonZero);
        for (int i = 0; i < values.length; i++) {
            if (values[i] != 0) {
                out.writeInt(i);
                out.writeLong(values[i]);
            }
        }
    }

    private static void readSparse(java.io.DataInputStream in, long[] values)
            throws java.io.IOException {
        for (int n = in.readInt(); n > 0; n--) {
            values[in.readInt()] = in.readLong();
        }
    }

    BranchLayout layout() {
        return layout;
    }

    long[] rawCounts(int methodId) {
        return counts[methodId];
    }
}
