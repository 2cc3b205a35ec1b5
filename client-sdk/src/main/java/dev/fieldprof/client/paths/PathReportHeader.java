package dev.fieldprof.client.paths;

import java.util.Arrays;

/**
 * The uncoded header of a path report (see {@link PathEncoder} for the byte layout): format
 * version, the model version the stream was coded with, the number of coded events, and the frames
 * open when the report began (outermost first), each with the context its next event is predicted
 * from. {@code codedOffset} is where the range-coded stream starts.
 */
public record PathReportHeader(
        int formatVersion,
        long modelVersion,
        long eventCount,
        int rootCalls,
        int[] openMethods,
        int[] openLastEdges,
        int[] openCalls,
        int codedOffset) {

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
                && codedOffset == h.codedOffset;
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
