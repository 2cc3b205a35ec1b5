package dev.fieldprof.paths;

import java.util.Arrays;

/**
 * The decoding side of path format versions 3 and 4 ({@link CallSitePathEncoder}): follows each
 * frame from position to position as the encoder did, one symbol per event. {@link PathDecoder}
 * hands it the version-3 reports. Not thread-safe.
 */
final class CallSitePathDecoder {
    private final BranchLayout layout;
    private final CallSiteModel sites;
    private int[] frameMethod = new int[64];
    private int[] framePosition = new int[64];

    CallSitePathDecoder(EdgeModel model) {
        this.layout = model.layout;
        this.sites = new CallSiteModel(model);
    }

    void decode(byte[] report, PathReportHeader h, PathEventSink sink)
            throws InvalidPathReportException {
        try {
            decodeFrames(report, h, sink);
        } finally {
            if (frameMethod.length > PathDecoder.RETAINED_FRAMES) {
                frameMethod = new int[64];
                framePosition = new int[64];
            }
        }
    }

    private void decodeFrames(byte[] report, PathReportHeader h, PathEventSink sink)
            throws InvalidPathReportException {
        int[] openMethods = h.openMethods();
        int[] openPositions = h.openPositions();
        int depth = openMethods.length;
        while (frameMethod.length <= depth + 1) {
            grow();
        }
        int methods = layout.methodCount;
        if (h.rootPosition() > methods) {
            throw new InvalidPathReportException(
                    "outermost position " + h.rootPosition() + " names no method of the model");
        }
        frameMethod[0] = methods;
        framePosition[0] = h.rootPosition();
        for (int i = 0; i < depth; i++) {
            int m = openMethods[i];
            if (m >= methods || openPositions[i] / CallSiteModel.LEVELS > layout.edgeCount(m)) {
                throw new InvalidPathReportException(
                        "open frame " + i + " names method " + m + " or edge beyond the model");
            }
            frameMethod[i + 1] = m;
            framePosition[i + 1] = openPositions[i];
        }
        sites.reset();
        sink.begin(h);
        RangeDecoder dec =
                new RangeDecoder(report, h.codedOffset(), report.length - h.codedOffset());
        try {
            for (long i = 0; i < h.eventCount(); i++) {
                int m = frameMethod[depth];
                int pos = framePosition[depth];
                int symbol = sites.decode(dec, sites.rowsOf(m), m, pos);
                if (symbol < 0) {
                    throw new InvalidPathReportException("corrupt stream at event " + i);
                }
                int edgeEnd = CallSiteModel.FIRST_EDGE + (m == methods ? 0 : layout.edgeCount(m));
                if (symbol < CallSiteModel.FIRST_EDGE) {
                    if (depth == 0) {
                        throw new InvalidPathReportException(
                                "corrupt stream: exit with no open frame at event " + i);
                    }
                    sink.exit(m, symbol == CallSiteModel.THROW);
                    depth--;
                } else if (symbol < edgeEnd) {
                    int g = symbol - CallSiteModel.FIRST_EDGE;
                    int[] starts = layout.edgeStart[m];
                    int ord = Arrays.binarySearch(starts, g);
                    ord = ord < 0 ? -ord - 2 : ord;
                    sink.branch(m, layout.blocks[m][ord], g - starts[ord]);
                    framePosition[depth] = (g + 1) * CallSiteModel.LEVELS;
                } else {
                    int callee = symbol - edgeEnd;
                    if (callee >= methods) {
                        throw new InvalidPathReportException(
                                "corrupt stream: call of method " + callee + " at event " + i);
                    }
                    if (depth + 1 >= PathDecoder.MAX_DEPTH) {
                        throw new InvalidPathReportException(
                                "stack deeper than "
                                        + PathDecoder.MAX_DEPTH
                                        + " frames at event "
                                        + i);
                    }
                    sink.enter(callee);
                    if (depth == 0) {
                        framePosition[0] = callee + 1;
                    } else if ((pos & (CallSiteModel.LEVELS - 1)) != CallSiteModel.LEVELS - 1) {
                        framePosition[depth] = pos + 1;
                    }
                    if (++depth == frameMethod.length) {
                        grow();
                    }
                    frameMethod[depth] = callee;
                    framePosition[depth] = 0;
                }
            }
            int check = dec.decodeUniform(1 << 16);
            int digest =
                    sites.digest(
                            CallSitePathEncoder.frameDigest(frameMethod, framePosition, depth));
            if (h.formatVersion() == PathFormat.VERSION_4) {
                digest = CallSitePathEncoder.droppedDigest(digest, h.droppedSegments());
            }
            int want = PathFormat.check(digest);
            if (check != want) {
                throw new InvalidPathReportException(
                        "corrupt stream: end check "
                                + Integer.toHexString(check)
                                + " instead of "
                                + Integer.toHexString(want));
            }
        } catch (IllegalStateException | ArrayIndexOutOfBoundsException e) {
            throw new InvalidPathReportException("corrupt stream: " + e.getMessage(), e);
        }
    }

    private void grow() {
        int n = frameMethod.length * 2;
        frameMethod = Arrays.copyOf(frameMethod, n);
        framePosition = Arrays.copyOf(framePosition, n);
    }
}
