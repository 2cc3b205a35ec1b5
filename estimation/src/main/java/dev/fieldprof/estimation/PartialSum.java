package dev.fieldprof.estimation;

import java.util.Arrays;

/**
 * A running sum of randomized reports: the report count n and {@code F̂(v) = Σ R(F_i)(v)} per
 * method (docs/architecture.md, "The privacy contract"). Sums of disjoint report sets merge
 * exactly, which is what lets the job sum one app version in parallel shards and merge them per
 * window.
 *
 * <p>Not thread-safe. The getters and setters and the public no-argument constructor make it a
 * Flink POJO, so it serializes efficiently as window state.
 */
public final class PartialSum {
    private long reports;
    private long[] sums;

    /** An empty sum of no methods; its width is set by the first report added. */
    public PartialSum() {
        this.sums = new long[0];
    }

    /** An empty sum over {@code width} methods. */
    public PartialSum(int width) {
        if (width < 0) {
            throw new IllegalArgumentException("width must be >= 0, got " + width);
        }
        this.sums = new long[width];
    }

    /** A sum with given contents (the array is copied). */
    public PartialSum(long reports, long[] sums) {
        if (reports < 0) {
            throw new IllegalArgumentException("reports must be >= 0, got " + reports);
        }
        this.reports = reports;
        this.sums = sums.clone();
    }

    /** Adds one report's randomized counts. */
    public PartialSum add(int[] counts) {
        widen(counts.length);
        for (int v = 0; v < counts.length; v++) {
            sums[v] += counts[v];
        }
        reports++;
        return this;
    }

    /** Adds one report's randomized counts given as a list (as decoded from Avro). */
    public PartialSum add(java.util.List<Integer> counts) {
        widen(counts.size());
        int v = 0;
        for (Integer count : counts) {
            sums[v++] += count;
        }
        reports++;
        return this;
    }

    /**
     * Adds one user-level report: 1 for each method of its subset, 0 for the others (Y(v) = 1[v in
     * Z]), in time proportional to the subset's size, not to {@code width}.
     *
     * @param subset distinct method ids in [0, width)
     * @param width |V|, the length of the sum
     */
    public PartialSum addSubset(int[] subset, int width) {
        widen(width);
        for (int id : subset) {
            sums[id]++;
        }
        reports++;
        return this;
    }

    /** Adds every report of {@code other} to this sum and returns this. */
    public PartialSum merge(PartialSum other) {
        widen(other.sums.length);
        for (int v = 0; v < other.sums.length; v++) {
            sums[v] += other.sums[v];
        }
        reports += other.reports;
        return this;
    }

    private void widen(int width) {
        if (sums.length == width) {
            return;
        }
        if (reports == 0 && isZero()) {
            sums = Arrays.copyOf(sums, Math.max(width, sums.length));
            return;
        }
        throw new IllegalArgumentException(
                "cannot add a vector of length " + width + " to a sum of length " + sums.length);
    }

    private boolean isZero() {
        for (long s : sums) {
            if (s != 0) {
                return false;
            }
        }
        return true;
    }

    /** n: the number of reports summed. */
    public long getReports() {
        return reports;
    }

    public void setReports(long reports) {
        this.reports = reports;
    }

    /** F̂: the per-method sums (the live array, for Flink's serializer; do not modify). */
    public long[] getSums() {
        return sums;
    }

    public void setSums(long[] sums) {
        this.sums = sums;
    }

    public int width() {
        return sums.length;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PartialSum other
                && reports == other.reports
                && Arrays.equals(sums, other.sums);
    }

    @Override
    public int hashCode() {
        return 31 * Long.hashCode(reports) + Arrays.hashCode(sums);
    }

    @Override
    public String toString() {
        return "PartialSum{reports=" + reports + ", width=" + sums.length + "}";
    }
}
