package dev.fieldprof.paths;

import java.util.Arrays;

/**
 * A published edge-probability model (docs/architecture.md, "Paths"): per branch node, identified
 * by method id and block id, one positive integer frequency per out-edge, plus the model version
 * that path reports name and AdapTracer's adaptation parameters {@code inc} and {@code bound} (its
 * adaptive update rule; AdapTracer in docs/references.md). Immutable and thread-safe; {@link
 * AdaptiveEdgeModel} is the mutable copy a coder adapts during one report.
 *
 * <p>{@link #DEFAULT_INC} = 4 was chosen by measurement ({@code IncChoiceTest} prints bits per
 * decision for inc in {1, 2, 4, 8, 16, 32}, bound 8192, on skewed and on mixed synthetic branch
 * streams (random biases, Zipf-like switches, drifting biases), reports of 1,000 and 20,000
 * decisions, starting cold from the uniform model or from a model trained on earlier reports). Mean
 * bits/decision over the eight columns: inc 1: 0.7106, 2: 0.7059, 4: 0.7061, 8: 0.7117, 16: 0.7198,
 * 32: 0.7310. Among the incs within 0.5% of the best mean, 4 codes the skewed streams (most real
 * branches) best from a cold start: 0.4187 and 0.3005 bits against 0.4480 and 0.3026 for inc 2.
 * Larger incs learn skewed nodes faster but overreact on balanced ones. AdapTracer's own
 * measurement (docs/references.md) settled on 3.
 *
 * <pre>{@code
 * EdgeModel m0 = EdgeModel.uniform(table);                      // version 0, all ones
 * EdgeModel m1 = EdgeModel.builder(m0).version(1)
 *         .frequencies(7, 12, new int[] {90, 10}).build();      // method 7, block 12
 * }</pre>
 */
public final class EdgeModel {
    /** Default increment per taken edge, chosen by measurement (see the class comment). */
    public static final int DEFAULT_INC = 4;

    /** Default bound on a node's total before its counts are halved. */
    public static final int DEFAULT_BOUND = 1 << 13;

    private final long version;
    private final String writer;
    private final int inc;
    private final int bound;
    final BranchLayout layout;
    // Per method, frequencies by local edge index (layout.edgeStart[m][ordinal] + edge).
    final int[][] freqs;
    // Per method (index methodCount = the outermost frame), successor hints: ascending contexts,
    // and per context the candidate symbols and their starting counts.
    final int[][] hintContexts;
    final int[][][] hintSymbols;
    final int[][][] hintFreqs;

    private EdgeModel(
            long version,
            String writer,
            int inc,
            int bound,
            BranchLayout layout,
            int[][] freqs,
            int[][] hintContexts,
            int[][][] hintSymbols,
            int[][][] hintFreqs) {
        this.version = version;
        this.writer = writer;
        this.inc = inc;
        this.bound = bound;
        this.layout = layout;
        this.freqs = freqs;
        this.hintContexts = hintContexts;
        this.hintSymbols = hintSymbols;
        this.hintFreqs = hintFreqs;
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

    /**
     * This model as a device of a probe-plan variant adopts it: the branch nodes and successor
     * hints of the methods it traces, and of the outermost frame, as published; every other method
     * uniform, so a device holds nothing learned for methods it never codes (the job learns each
     * method only from the devices that trace it). Its reports decode with the published model: a
     * device codes only the frames of its traced methods and the outermost one.
     *
     * @param traced one flag per method
     * @throws IllegalArgumentException if {@code traced} does not have one flag per method
     */
    public EdgeModel restrictedTo(boolean[] traced) {
        if (traced.length != layout.methodCount) {
            throw new IllegalArgumentException(
                    "need one flag per method (" + layout.methodCount + "), got " + traced.length);
        }
        Builder restricted = builder(this);
        for (int m = 0; m < traced.length; m++) {
            if (!traced[m]) {
                restricted.forget(m);
            }
        }
        return restricted.build();
    }

    /** A builder for a model with the same branch nodes, starting from a copy of {@code base}. */
    public static Builder builder(EdgeModel base) {
        return new Builder(base.layout, base)
                .version(base.version)
                .writer(base.writer)
                .inc(base.inc)
                .bound(base.bound);
    }

    public long version() {
        return version;
    }

    /**
     * Which job published this version ("" for the uniform model and for models of records without
     * one): with the version it identifies the model, should two writers ever publish one version.
     */
    public String writer() {
        return writer;
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

    /**
     * A 64-bit fingerprint of the branch nodes and out-degrees the model is for; equal for equal
     * tables. Publish it with the model so that a device whose bytecode differs refuses it.
     */
    public long branchFingerprint() {
        return layout.fingerprint();
    }

    /** The fingerprint {@link #branchFingerprint()} would give for {@code table}. */
    public static long branchFingerprint(BranchTable table) {
        return BranchLayout.of(table).fingerprint();
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

    /**
     * Contexts (ascending) of a frame of {@code methodId} that have successor hints; {@code
     * methodId == methodCount} denotes the outermost frame. See {@link Builder#successors}.
     */
    public int[] successorContexts(int methodId) {
        return hintContexts[checkHintMethod(methodId)].clone();
    }

    /** Hinted next-event symbols of a context (empty if none); see {@link Builder#successors}. */
    public int[] successorSymbols(int methodId, int context) {
        int i = Arrays.binarySearch(hintContexts[checkHintMethod(methodId)], context);
        return i < 0 ? new int[0] : hintSymbols[methodId][i].clone();
    }

    /** Starting counts of {@link #successorSymbols} (empty if none). */
    public int[] successorFrequencies(int methodId, int context) {
        int i = Arrays.binarySearch(hintContexts[checkHintMethod(methodId)], context);
        return i < 0 ? new int[0] : hintFreqs[methodId][i].clone();
    }

    private int checkHintMethod(int methodId) {
        if (methodId < 0 || methodId > layout.methodCount) {
            throw new IllegalArgumentException(
                    "methodId must be in [0, " + layout.methodCount + "], got " + methodId);
        }
        return methodId;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof EdgeModel other
                && version == other.version
                && writer.equals(other.writer)
                && inc == other.inc
                && bound == other.bound
                && layout.sameAs(other.layout)
                && Arrays.deepEquals(freqs, other.freqs)
                && Arrays.deepEquals(hintContexts, other.hintContexts)
                && Arrays.deepEquals(hintSymbols, other.hintSymbols)
                && Arrays.deepEquals(hintFreqs, other.hintFreqs);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(version) * 31 + Arrays.deepHashCode(freqs);
    }

    @Override
    public String toString() {
        return "EdgeModel{version="
                + version
                + (writer.isEmpty() ? "" : ", writer=" + writer)
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
        private final java.util.List<java.util.TreeMap<Integer, int[][]>> hints =
                new java.util.ArrayList<>();
        private long version;
        private String writer = "";
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
                java.util.TreeMap<Integer, int[][]> h = new java.util.TreeMap<>();
                if (base != null) {
                    for (int i = 0; i < base.hintContexts[m].length; i++) {
                        h.put(
                                base.hintContexts[m][i],
                                new int[][] {base.hintSymbols[m][i], base.hintFreqs[m][i]});
                    }
                }
                hints.add(h);
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
         * @param writer the publishing job's id, "" for none; not null
         */
        public Builder writer(String writer) {
            this.writer = java.util.Objects.requireNonNull(writer, "writer");
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
         * Sets the successor hints of one context: the next events a frame in that context most
         * likely codes, which seed the report's successor tables (see {@code SuccessorModel}), so
         * that a short report does not pay to learn them. Contexts and symbols follow path format
         * version 1: a frame's context is {@code (lastEdge + 1) * 4 + min(callsReturned, 3)}, where
         * lastEdge is the local index of the frame's last taken edge (out-edges numbered
         * consecutively over the method's branch nodes in ascending block order; -1 right after
         * entry) and callsReturned counts calls returned to the frame since; symbols are 0 = normal
         * exit, 1 = exceptional exit, 2 + b = branch node with ordinal b (ascending block order), 2
         * + B + c = call of method c, B being the method's branch node count.
         *
         * @param methodId 0 <= methodId <= methodCount (methodCount: the outermost frame)
         * @param context 0 <= context < (method's out-edge count + 1) * 4
         * @param symbols at most 4 distinct valid symbols; empty removes the context's hints
         * @param freqs one starting count >= 1 per symbol, summing to at most 8191
         */
        public Builder successors(int methodId, int context, int[] symbols, int[] freqs) {
            if (methodId < 0 || methodId > layout.methodCount) {
                throw new IllegalArgumentException(
                        "methodId must be in [0, " + layout.methodCount + "], got " + methodId);
            }
            int contexts = (layout.edgeCount(methodId) + 1) * SuccessorModel.CALL_LEVELS;
            if (context < 0 || context >= contexts) {
                throw new IllegalArgumentException(
                        "context must be in [0, " + contexts + "), got " + context);
            }
            if (symbols.length != freqs.length || symbols.length > SuccessorModel.CANDIDATES) {
                throw new IllegalArgumentException(
                        "need as many frequencies as symbols, at most "
                                + SuccessorModel.CANDIDATES
                                + ", got "
                                + symbols.length
                                + " and "
                                + freqs.length);
            }
            long limit =
                    SuccessorModel.FIRST_BRANCH
                            + (long) layout.branchCount(methodId)
                            + layout.methodCount;
            long sum = 0;
            for (int i = 0; i < symbols.length; i++) {
                if (symbols[i] < 0 || symbols[i] >= limit || freqs[i] < 1) {
                    throw new IllegalArgumentException(
                            "symbols must be in [0, "
                                    + limit
                                    + ") with frequencies >= 1, got "
                                    + Arrays.toString(symbols)
                                    + " / "
                                    + Arrays.toString(freqs));
                }
                for (int j = 0; j < i; j++) {
                    if (symbols[j] == symbols[i]) {
                        throw new IllegalArgumentException(
                                "symbols must be distinct, got " + Arrays.toString(symbols));
                    }
                }
                sum += freqs[i];
            }
            if (sum > SuccessorModel.BOUND - 1) {
                throw new IllegalArgumentException(
                        "successor frequencies must sum to at most "
                                + (SuccessorModel.BOUND - 1)
                                + ", got "
                                + sum);
            }
            if (symbols.length == 0) {
                hints.get(methodId).remove(context);
            } else {
                hints.get(methodId).put(context, new int[][] {symbols.clone(), freqs.clone()});
            }
            return this;
        }

        /** Makes a method's nodes uniform and drops its successor hints. */
        private void forget(int methodId) {
            Arrays.fill(freqs[methodId], 1);
            hints.get(methodId).clear();
        }

        /**
         * Checks and builds the model. @throws IllegalArgumentException if bound or a node's total
         * is out of range
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
            int n = freqs.length;
            int[][] copy = new int[n][];
            int[][] contexts = new int[n][];
            int[][][] symbols = new int[n][][];
            int[][][] counts = new int[n][][];
            for (int m = 0; m < n; m++) {
                copy[m] = freqs[m].clone();
                java.util.TreeMap<Integer, int[][]> h = hints.get(m);
                contexts[m] = new int[h.size()];
                symbols[m] = new int[h.size()][];
                counts[m] = new int[h.size()][];
                int i = 0;
                for (var e : h.entrySet()) {
                    contexts[m][i] = e.getKey();
                    symbols[m][i] = e.getValue()[0].clone();
                    counts[m][i] = e.getValue()[1].clone();
                    i++;
                }
            }
            return new EdgeModel(
                    version, writer, inc, bound, layout, copy, contexts, symbols, counts);
        }
    }
}
