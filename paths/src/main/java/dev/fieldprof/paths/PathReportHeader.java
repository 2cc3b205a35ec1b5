package dev.fieldprof.paths;

import java.util.Arrays;

/**
 * The uncoded header of a path report (see {@link CallSitePathEncoder} for the byte layout of
 * version 3, the {@code PathEncoder} test fixture for version 1): format version, the model version
 * the stream was coded with, the number of coded events, and the frames open when the report began
 * (outermost first), each with the context its next event is predicted from. {@code codedOffset} is
 * where the range-coded stream starts. Version 3 also carries each frame's exact position ({@code
 * openPositions}, {@code rootPosition}); its {@code openLastEdges} and {@code openCalls} are
 * derived from them (calls returned, capped at 4) for sinks that count version-1 contexts. Version
 * 4 adds {@code droppedSegments}: how many segments of raw events the device dropped (whole, never
 * coded) between the thread's previous report and this one; 0 for every other version.
 */
public record PathReportHeader(
        int formatVersion,
        long modelVersion,
        long eventCount,
        int rootCalls,
        int[] openMethods,
        int[] openLastEdges,
        int[] openCalls,
        int codedOffset,
        int rootPosition,
        int[] openPositions,
        long droppedSegments) {

    /** Version-3 header (no dropped segments). */
    public PathReportHeader(
            int formatVersion,
            long modelVersion,
            long eventCount,
            int rootCalls,
            int[] openMethods,
            int[] openLastEdges,
            int[] openCalls,
            int codedOffset,
            int rootPosition,
            int[] openPositions) {
        this(
                formatVersion,
                modelVersion,
                eventCount,
                rootCalls,
                openMethods,
                openLastEdges,
                openCalls,
                codedOffset,
                rootPosition,
                openPositions,
                0);
    }

    /** Version-1 header (no positions). */
    public PathReportHeader(
            int formatVersion,
            long modelVersion,
            long eventCount,
            int rootCalls,
            int[] openMethods,
            int[] openLastEdges,
            int[] openCalls,
            int codedOffset) {
        this(
                formatVersion,
                modelVersion,
                eventCount,
                rootCalls,
                openMethods,
                openLastEdges,
                openCalls,
                codedOffset,
                0,
                new int[0],
                0);
    }

    /** Version 3: per open frame, its position (last local edge + 1) * 8 + calls made since. */
    @Override
    public int[] openPositions() {
        return openPositions.clone();
    }

    /** Methods open when the report began, outermost first. */
    @Override
    public int[] openMethods() {
        return openMethods.clone();
    }

    /** Per open frame, its last coded local edge + 1 (0 = none since entry). */
    @Override
    public int[] openLastEdges() {
        return openLastEdges.clone();
    }

    /** Per open frame, calls returned since its last edge (capped). */
    @Override
    public int[] openCalls() {
        return openCalls.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PathReportHeader h
                && formatVersion == h.formatVersion
                && modelVersion == h.modelVersion
                && eventCount == h.eventCount
                && rootCalls == h.rootCalls
                && Arrays.equals(openMethods, h.openMethods)
                && Arrays.equals(openLastEdges, h.openLastEdges)
                && Arrays.equals(openCalls, h.openCalls)
                && codedOffset == h.codedOffset
                && rootPosition == h.rootPosition
                && Arrays.equals(openPositions, h.openPositions)
                && droppedSegments == h.droppedSegments;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(modelVersion) * 31 + Arrays.hashCode(openMethods);
    }

    @Override
    public String toString() {
        return "PathReportHeader{format="
                + formatVersion
                + ", model="
                + modelVersion
                + ", events="
                + eventCount
                + ", open="
                + Arrays.toString(openMethods)
                + "}";
    }
}
