package dev.fieldprof.client.paths;

/**
 * Counts taken out-edges of every branch node, and method entries, from decoded paths (the edge
 * counting step of AdapTracer's TraceParser, section 6.3); {@link ModelUpdater} turns the counts
 * into the next model. Not thread-safe; merge per-report counters with {@link #addAll}.
 */
public final class EdgeCounter implements PathEventSink {
    private final BranchLayout layout;
    private final long[][] counts;
    private final long[] entries;
    private long decisions;
    private long ignored;

    /** Empty counts for the branch nodes of {@code table}. */
    public EdgeCounter(BranchTable table) {
        this.layout = BranchLayout.of(table);
        this.counts = new long[layout.methodCount][];
        for (int m = 0; m < layout.methodCount; m++) {
            counts[m] = new long[layout.edgeCount(m)];
        }
        this.entries = new long[layout.methodCount];
    }

    @Override
    public void enter(int methodId) {
        if (methodId >= 0 && methodId < layout.methodCount) {
            entries[methodId]++;
        } else {
            ignored++;
        }
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
    }

    @Override
    public void exit(int methodId, boolean exceptional) {}

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
    }

    BranchLayout layout() {
        return layout;
    }

    long[] rawCounts(int methodId) {
        return counts[methodId];
    }
}
