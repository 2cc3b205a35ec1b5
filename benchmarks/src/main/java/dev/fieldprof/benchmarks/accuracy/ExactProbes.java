package dev.fieldprof.benchmarks.accuracy;

/**
 * Exact method-entry counts for recording ground truth: {@link CountingProgramLoader} defines a
 * renamed copy of this class as {@code dev.fieldprof.client.Probes} for the instrumented program it
 * loads, so the unchanged instrumented bytecode counts here instead of into a device runtime (whose
 * counts are sampled and randomized before anything leaves it).
 */
public final class ExactProbes {
    // One driver thread per program; a monitor keeps counts exact should a library start another.
    private static long[] counts = new long[0];
    private static long outOfRange;
    private static long total;

    private ExactProbes() {}

    /** The probe the instrumenter inserts at every method entry. */
    public static synchronized void enter(int methodId) {
        if (methodId >= 0 && methodId < counts.length) {
            counts[methodId]++;
            total++;
        } else {
            outOfRange++;
        }
    }

    /** Starts a new run of a program with {@code methods} method ids. */
    public static synchronized void reset(int methods) {
        counts = new long[methods];
        outOfRange = 0;
        total = 0;
    }

    /** In-range entries of the current run (so a driver need not copy the counts to stop). */
    public static synchronized long total() {
        return total;
    }

    /** The counts of the current run by method id. */
    public static synchronized long[] snapshot() {
        return counts.clone();
    }

    /** Entries with an id outside [0, |V|) in the current run (0 unless model and jar differ). */
    public static synchronized long outOfRange() {
        return outOfRange;
    }
}
