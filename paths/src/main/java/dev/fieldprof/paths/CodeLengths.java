package dev.fieldprof.paths;

/**
 * Where a path coder's bits go, for benchmarks: the ideal code length (-log2 of each coded
 * probability) split into branch-outcome bits and call-structure bits (callees, exits, exceptional
 * exits and, in format version 1, which event comes next). Attach it with the encoders' {@code
 * meter} setters; not used on devices. Not thread-safe.
 */
public final class CodeLengths {
    static final int BRANCH = 0;
    static final int CALL = 1;

    private static final double LN2 = Math.log(2);

    private final double[] bits = new double[2];
    int category = CALL;

    /** Adds the code length of a symbol of frequency {@code freq} out of {@code total}. */
    void add(int freq, int total) {
        bits[category] += Math.log((double) total / freq) / LN2;
    }

    /** Adds the code length of an outcome of probability {@code p} (0 < p <= 1). */
    void addProbability(double p) {
        bits[category] -= Math.log(p) / LN2;
    }

    /**
     * Moves {@code -log2(p)} from branch bits to call bits: of an edge coded jointly with "no more
     * calls here" (probability p), that share is call structure.
     */
    void moveToCalls(double p) {
        double b = -Math.log(p) / LN2;
        bits[CALL] += b;
        bits[BRANCH] -= b;
    }

    /** Bits spent on branch outcomes. */
    public double branchBits() {
        return bits[BRANCH];
    }

    /** Bits spent on the call structure (callees, exits, exceptional exits, event kinds). */
    public double callBits() {
        return bits[CALL];
    }
}
