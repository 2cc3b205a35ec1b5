package dev.fieldprof.paths;

import java.util.Arrays;

/**
 * Decodes path reports back into the exact event sequence (the decoding side of AdapTracer,
 * docs/references.md), given the edge model version each report names and so the branch nodes and
 * fan-outs that model was built for: format version 3 ({@link CallSitePathEncoder}, what devices
 * write) and version 1 (written today only by the {@code PathEncoder} test fixture). Reusable for
 * many reports of one model; not thread-safe.
 *
 * <pre>{@code
 * long version = PathDecoder.readHeader(report).modelVersion();
 * PathDecoder decoder = new PathDecoder(models.get(version));
 * decoder.decode(report, new EdgeCounter(table));   // or a PathRecording
 * }</pre>
 */
public final class PathDecoder {
    /**
     * Default limit on the events of one report. The bytes cannot bound the count: the range coder
     * reads zeros past the end of a report, and a run of a position's likeliest event costs about
     * 3·10⁻⁷ bits each, so 2²⁸ nested calls fit in 23 bytes, and a sink that records events (the
     * jobs' scratch recording) would grow with the claim. Devices cut a report at 2¹⁶ events (the
     * SDK's PathTracer.MAX_REPORT_EVENTS, plus the few exits one exception unwinds); 2²⁰ leaves
     * sixteen times that for other encoders while keeping what one report can make a job hold to a
     * few MB.
     */
    public static final long DEFAULT_MAX_EVENTS = 1L << 20;

    /**
     * Deepest call stack a report may open (frames in its header plus calls during it). A JVM
     * thread at the usual stack sizes (512 KB to 8 MB) holds tens of thousands of frames at most,
     * since a frame takes tens of bytes or more; 2²⁰ frames would need tens of MB of stack. Deeper
     * claims are refused before the frame arrays (12 bytes a frame) grow beyond a few MB.
     */
    public static final int MAX_DEPTH = 1 << 20;

    /**
     * Frame capacity a decoder keeps between reports: one deep report must not leave every cached
     * decoder holding MBs.
     */
    static final int RETAINED_FRAMES = 1 << 12;

    private final EdgeModel model;
    private final BranchLayout layout;
    private final AdaptiveEdgeModel edges;
    private final SuccessorModel successors;
    private final long maxEvents;
    private CallSitePathDecoder callSites;
    private int[] frameMethod = new int[64];
    private int[] frameEdge = new int[64];
    private int[] frameCalls = new int[64];

    /** A decoder for reports coded with {@code model}, at most {@link #DEFAULT_MAX_EVENTS}. */
    public PathDecoder(EdgeModel model) {
        this(model, DEFAULT_MAX_EVENTS);
    }

    /**
     * @param model the model the reports name
     * @param maxEvents reports claiming more events are rejected, >= 0
     */
    public PathDecoder(EdgeModel model, long maxEvents) {
        if (maxEvents < 0) {
            throw new IllegalArgumentException("maxEvents must be >= 0, got " + maxEvents);
        }
        this.model = model;
        this.layout = model.layout;
        this.edges = new AdaptiveEdgeModel(model);
        this.successors = new SuccessorModel(model);
        this.maxEvents = maxEvents;
    }

    public EdgeModel model() {
        return model;
    }

    /**
     * Reads the uncoded header, for example to find the model version before decoding.
     *
     * @throws InvalidPathReportException on an unknown format version or a truncated header
     */
    public static PathReportHeader readHeader(byte[] report) throws InvalidPathReportException {
        if (report == null || report.length == 0) {
            throw new InvalidPathReportException("empty path report");
        }
        int format = report[0] & 0xFF;
        if (format == PathFormat.VERSION_3 || format == PathFormat.VERSION_4) {
            return readHeaderV3(report, format);
        }
        if (format != PathFormat.VERSION_1) {
            throw new InvalidPathReportException(
                    "unsupported path format version "
                            + format
                            + "; this decoder reads versions 1, 3 and 4");
        }
        PathFormat.Reader in = new PathFormat.Reader(report, 1);
        long modelVersion = in.varLong("model version");
        long events = in.varLong("event count");
        // Each open frame takes at least two bytes: bounds the allocation by the report size.
        long frames = in.varLong("open frame count");
        int rootCalls = (int) (frames % PathFormat.PACK);
        if (frames / PathFormat.PACK > report.length / 2) {
            throw new InvalidPathReportException(
                    "malformed header: "
                            + frames / PathFormat.PACK
                            + " open frames in "
                            + report.length
                            + " bytes (each takes two at least)");
        }
        if (frames / PathFormat.PACK >= MAX_DEPTH) {
            throw new InvalidPathReportException(
                    "header opens " + frames / PathFormat.PACK + " frames, limit " + MAX_DEPTH);
        }
        int d = (int) (frames / PathFormat.PACK);
        int[] methods = new int[d];
        int[] lastEdges = new int[d];
        int[] calls = new int[d];
        for (int i = 0; i < d; i++) {
            methods[i] = in.varInt("open method id", BranchTable.MAX_METHODS);
            long context = in.varLong("open frame context");
            if (context < 0 || context / PathFormat.PACK > Integer.MAX_VALUE) {
                throw new InvalidPathReportException("malformed header: open frame context");
            }
            lastEdges[i] = (int) (context / PathFormat.PACK);
            calls[i] = (int) (context % PathFormat.PACK);
        }
        if (modelVersion < 0 || events < 0 || frames < 0) {
            throw new InvalidPathReportException("malformed header: negative version or count");
        }
        return new PathReportHeader(
                format, modelVersion, events, rootCalls, methods, lastEdges, calls, in.pos);
    }

    private static PathReportHeader readHeaderV3(byte[] report, int format)
            throws InvalidPathReportException {
        PathFormat.Reader in = new PathFormat.Reader(report, 1);
        long modelVersion = in.varLong("model version");
        long droppedSegments =
                format == PathFormat.VERSION_4 ? in.varLong("dropped segment count") : 0;
        if (droppedSegments < 0) {
            throw new InvalidPathReportException("malformed header: negative dropped segments");
        }
        long events = in.varLong("event count");
        // Each open frame takes at least two bytes: bounds the allocation by the report size.
        int d = in.varInt("open frame count", report.length / 2 + 1);
        if (d >= MAX_DEPTH) {
            throw new InvalidPathReportException(
                    "header opens " + d + " frames, limit " + MAX_DEPTH);
        }
        long root = in.varLong("outermost position");
        if (root < 0 || root / PathFormat.PACK > BranchTable.MAX_METHODS) {
            throw new InvalidPathReportException("malformed header: outermost position");
        }
        int rootPosition = (int) (root / PathFormat.PACK);
        int rootCalls = (int) (root % PathFormat.PACK);
        int[] methods = new int[d];
        int[] positions = new int[d];
        int[] lastEdges = new int[d];
        int[] calls = new int[d];
        for (int i = 0; i < d; i++) {
            methods[i] = in.varInt("open method id", BranchTable.MAX_METHODS);
            positions[i] = in.varInt("open frame position", Integer.MAX_VALUE);
            lastEdges[i] = positions[i] / CallSiteModel.LEVELS;
            int made = positions[i] % CallSiteModel.LEVELS;
            // Calls returned: a frame below the top has one call still open.
            int returned = i == d - 1 ? made : Math.max(0, made - 1);
            calls[i] = Math.min(returned, SuccessorModel.CALL_LEVELS);
        }
        if (modelVersion < 0 || events < 0) {
            throw new InvalidPathReportException("malformed header: negative version or count");
        }
        return new PathReportHeader(
                format,
                modelVersion,
                events,
                rootCalls,
                methods,
                lastEdges,
                calls,
                in.pos,
                rootPosition,
                positions,
                droppedSegments);
    }

    /**
     * Decodes one report into {@code sink}, event by event.
     *
     * @return the report's header
     * @throws InvalidPathReportException if the report is not decodable with this decoder's model;
     *     events already passed to the sink must then be discarded
     */
    public PathReportHeader decode(byte[] report, PathEventSink sink)
            throws InvalidPathReportException {
        PathReportHeader h = readHeader(report);
        if (h.modelVersion() != model.version()) {
            throw new InvalidPathReportException(
                    "report coded with edge model version "
                            + h.modelVersion()
                            + ", decoder holds version "
                            + model.version());
        }
        if (h.eventCount() > maxEvents) {
            throw new InvalidPathReportException(
                    "report claims " + h.eventCount() + " events, limit " + maxEvents);
        }
        if (h.formatVersion() != PathFormat.VERSION_1) {
            if (callSites == null) {
                callSites = new CallSitePathDecoder(model);
            }
            callSites.decode(report, h, sink);
            return h;
        }
        try {
            decodeVersion1(report, h, sink);
        } finally {
            if (frameMethod.length > RETAINED_FRAMES) {
                frameMethod = new int[64];
                frameEdge = new int[64];
                frameCalls = new int[64];
            }
        }
        return h;
    }

    private void decodeVersion1(byte[] report, PathReportHeader h, PathEventSink sink)
            throws InvalidPathReportException {
        edges.reset();
        successors.reset();
        int[] openMethods = h.openMethods();
        int[] openLastEdges = h.openLastEdges();
        int[] openCalls = h.openCalls();
        int depth = openMethods.length;
        while (frameMethod.length <= depth + 1) {
            grow();
        }
        frameMethod[0] = layout.methodCount;
        frameEdge[0] = 0;
        frameCalls[0] = h.rootCalls();
        for (int i = 0; i < depth; i++) {
            int m = openMethods[i];
            if (m >= layout.methodCount || openLastEdges[i] > layout.edgeCount(m)) {
                throw new InvalidPathReportException(
                        "open frame " + i + " names method " + m + " or edge beyond the model");
            }
            frameMethod[i + 1] = m;
            frameEdge[i + 1] = openLastEdges[i];
            frameCalls[i + 1] = openCalls[i];
        }
        sink.begin(h);
        RangeDecoder dec =
                new RangeDecoder(report, h.codedOffset(), report.length - h.codedOffset());
        try {
            for (long i = 0; i < h.eventCount(); i++) {
                int m = frameMethod[depth];
                int b = layout.branchCount(m);
                int symbol =
                        successors.decode(
                                dec,
                                m,
                                SuccessorModel.context(frameEdge[depth], frameCalls[depth]));
                if (symbol < 0) {
                    throw new InvalidPathReportException("corrupt stream at event " + i);
                }
                if (symbol < SuccessorModel.FIRST_BRANCH) {
                    if (depth == 0) {
                        throw new InvalidPathReportException(
                                "corrupt stream: exit with no open frame at event " + i);
                    }
                    sink.exit(m, symbol == SuccessorModel.THROW);
                    depth--;
                    if (frameCalls[depth] < SuccessorModel.CALL_LEVELS) {
                        frameCalls[depth]++;
                    }
                } else if (symbol < SuccessorModel.FIRST_BRANCH + b) {
                    int ord = symbol - SuccessorModel.FIRST_BRANCH;
                    int edge = edges.decode(dec, m, ord);
                    sink.branch(m, layout.blocks[m][ord], edge);
                    frameEdge[depth] = layout.edgeStart[m][ord] + edge + 1;
                    frameCalls[depth] = 0;
                } else {
                    int callee = symbol - SuccessorModel.FIRST_BRANCH - b;
                    if (depth + 1 >= MAX_DEPTH) {
                        throw new InvalidPathReportException(
                                "stack deeper than " + MAX_DEPTH + " frames at event " + i);
                    }
                    sink.enter(callee);
                    if (++depth == frameMethod.length) {
                        grow();
                    }
                    frameMethod[depth] = callee;
                    frameEdge[depth] = 0;
                    frameCalls[depth] = 0;
                }
            }
            int check = dec.decodeUniform(1 << 16);
            int digest = PathFormat.mix(PathFormat.CHECK_SEED, depth);
            for (int i = 0; i <= depth; i++) {
                digest = PathFormat.mix(digest, frameMethod[i]);
                digest = PathFormat.mix(digest, frameEdge[i]);
            }
            int want = PathFormat.check(successors.digest(digest));
            if (check != want) {
                throw new InvalidPathReportException(
                        "corrupt stream: end check "
                                + Integer.toHexString(check)
                                + " instead of "
                                + Integer.toHexString(want));
            }
        } catch (IllegalStateException e) {
            throw new InvalidPathReportException(e.getMessage(), e);
        }
    }

    private void grow() {
        int n = frameMethod.length * 2;
        frameMethod = Arrays.copyOf(frameMethod, n);
        frameEdge = Arrays.copyOf(frameEdge, n);
        frameCalls = Arrays.copyOf(frameCalls, n);
    }
}
