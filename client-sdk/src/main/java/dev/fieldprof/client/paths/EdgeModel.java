package dev.fieldprof.client.paths;

import java.util.Arrays;

/**
 * A published edge-probability model (DESIGN.md "Paths"): per branch node, identified by method id
 * and block id, one positive integer frequency per out-edge, plus the model version that path
 * reports name and AdapTracer's adaptation parameters {@code inc} and {@code bound} (AdapTracer
 * section 4.1, Algorithm 1). Immutable and thread-safe; {@link AdaptiveEdgeModel} is the mutable
 * copy a coder adapts during one report.
 *
 * <p>{@link #DEFAULT_INC} = 24 was chosen by measurement ({@code IncChoiceTest} prints bits per
 * decision for inc in {1, 2, 4, 8, 16, 32} on skewed and mixed synthetic branches, starting from
 * the uniform model, bound 8192): larger inc learns a skewed branch faster, 32 starts to lose on
 * branches whose bias drifts, and 16-32 are within 1% of each other on the mixed set.
 *
 * <pre>{@code
 * EdgeModel m0 = EdgeModel.uniform(table);                      // version 0, all ones
 * EdgeModel m1 = EdgeModel.builder(m0).version(1)
 *         .frequencies(7, 12, new int[] {90, 10}).build();      // method 7, block 12
 * }</pre>
 */
public final class EdgeModel {
    /** Default increment per taken edge, chosen by measurement (see the class comment). */
    public static final int DEFAULT_INC = 24;

    /** Default bound on a node's total before its counts are halved. */
    public static final int DEFAULT_BOUND = 1 << 13;

    private final long version;
    private final int inc;
    private final int bound;
    final BranchLayout layout;
    // Per method, frequencies by local edge index (layout.edgeStart[m][ordinal] + edge).
    final int[][] freqs;

    private EdgeModel(long version, int inc, int bound, BranchLayout layout, int[][] freqs) {
        this.version = version;
        this.inc = inc;
        this.bound = bound;
        this.layout = layout;
        this.freqs = freqs;
    }

    /** The uniform model (every frequency 1), version 0, default inc and bound. */
    public static EdgeModel uniform(BranchTable table) {
        return uniform(table, 0, DEFAULT_INC, DEFAULT_BOUND);
    }

    /**
     * The uniform model (every frequency 1): the model of a device that has received none.
     *
     * @param version model version, >= 0
     * @param inc increment per taken edge, 1 <= inc <= 4096
     * @param bound node total that triggers halving, max out-degree <= bound <= 65536 - inc
     */
    public static EdgeModel uniform(BranchTable table, long version, int inc, int bound) {
        return new Builder(BranchLayout.of(table), null)
                .version(version)
                .inc(inc)
                .bound(bound)
                .build();
    }

    /** A builder for a model with the same branch nodes, starting from a copy of {@code base}. */
    public static Builder builder(EdgeModel base) {
        return new Builder(base.layout, base).version(base.version).inc(base.inc).bound(base.bound);
    }

    public long version() {
        return version;
    }

    public int inc() {
        return inc;
    }

    public int bound() {
        return bound;
    }

    /** The branch nodes and out-degrees this model is for. */
    public BranchTable branchTable() {
        return layout;
    }

    /** True if the model covers exactly the branch nodes and out-degrees of {@code table}. */
    public boolean matches(BranchTable table) {
        try {
            return layout.sameAs(BranchLayout.of(table));
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** A copy of the frequencies of the out-edges of a branch node. */
    public int[] frequencies(int methodId, int blockId) {
        int degree = layout.outDegree(methodId, blockId);
        int from = layout.edgeStart[methodId][layout.ordinal(methodId, blockId)];
        return Arrays.copyOfRange(freqs[methodId], from, from + degree);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof EdgeModel other
                && version == other.version
                && inc == other.inc
                && bound == other.bound
                && layout.sameAs(other.layout)
                && Arrays.deepEquals(freqs, other.freqs);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(version) * 31 + Arrays.deepHashCode(freqs);
    }

    @Override
    public String toString() {
        return "EdgeModel{version="
                + version
                + ", inc="
                + inc
                + ", bound="
                + bound
                + ", methods="
                + layout.methodCount
                + "}";
    }

    /** Builds a model; not thread-safe. */
    public static final class Builder {
        private final BranchLayout layout;
        private final int[][] freqs;
        private long version;
        private int inc = DEFAULT_INC;
        private int bound = DEFAULT_BOUND;

        private Builder(BranchLayout layout, EdgeModel base) {
            this.layout = layout;
            this.freqs = new int[layout.methodCount + 1][];
            for (int m = 0; m <= layout.methodCount; m++) {
                if (base != null) {
                    freqs[m] = base.freqs[m].clone();
                } else {
                    freqs[m] = new int[layout.edgeCount(m)];
                    Arrays.fill(freqs[m], 1);
                }
            }
        }

        /**
         * @param version >= 0
         */
        public Builder version(long version) {
            if (version < 0) {
                throw new IllegalArgumentException("version must be >= 0, got " + version);
            }
            this.version = version;
            return this;
        }

        /**
         * @param inc 1 <= inc <= 4096
         */
        public Builder inc(int inc) {
            if (inc < 1 || inc > 4096) {
                throw new IllegalArgumentException("inc must be in [1, 4096], got " + inc);
            }
            this.inc = inc;
            return this;
        }

        /**
         * @param bound max out-degree <= bound <= 65536 - inc (checked by {@link #build()})
         */
        public Builder bound(int bound) {
            this.bound = bound;
            return this;
        }

        /**
         * Sets the frequencies of one branch node.
         *
         * @param freqs one value >= 1 per out-edge; their sum must not exceed the bound
         */
        public Builder frequencies(int methodId, int blockId, int[] freqs) {
            int degree = layout.outDegree(methodId, blockId);
            if (freqs.length != degree) {
                throw new IllegalArgumentException(
                        "block "
                                + blockId
                                + " of method "
                                + methodId
                                + " has "
                                + degree
                                + " out-edges, got "
                                + freqs.length
                                + " frequencies");
            }
            for (int f : freqs) {
                if (f < 1) {
                    throw new IllegalArgumentException(
                            "frequencies must be >= 1, got " + Arrays.toString(freqs));
                }
            }
            int from = layout.edgeStart[methodId][layout.ordinal(methodId, blockId)];
            System.arraycopy(freqs, 0, this.freqs[methodId], from, degree);
            return this;
        }

        /**
         * @throws IllegalArgumentException if bound or a node's total is out of range
         */
        public EdgeModel build() {
            if (bound < 2 || bound > RangeEncoder.MAX_TOTAL - inc) {
                throw new IllegalArgumentException(
                        "bound must be in [2, "
                                + (RangeEncoder.MAX_TOTAL - inc)
                                + "] for inc "
                                + inc
                                + ", got "
                                + bound);
            }
            for (int m = 0; m < layout.methodCount; m++) {
                int[] s = layout.edgeStart[m];
                for (int ord = 0; ord + 1 < s.length; ord++) {
                    long total = 0;
                    for (int e = s[ord]; e < s[ord + 1]; e++) {
                        total += freqs[m][e];
                    }
                    if (total > bound) {
                        throw new IllegalArgumentException(
                                "frequencies of block "
                                        + layout.blocks[m][ord]
                                        + " of method "
                                        + m
                                        + " sum to "
                                        + total
                                        + ", above the bound "
                                        + bound);
                    }
                }
            }
            int[][] copy = new int[freqs.length][];
            for (int m = 0; m < freqs.length; m++) {
                copy[m] = freqs[m].clone();
            }
            return new EdgeModel(version, inc, bound, layout, copy);
        }
    }
}
