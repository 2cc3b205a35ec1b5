package dev.fieldprof.paths;

import java.util.Arrays;
import java.util.TreeMap;

/**
 * An immutable {@link BranchTable} held in arrays, for tests, tools and any caller that has the
 * branch nodes as plain data (for example from a ProgramModel record). Thread-safe.
 *
 * <pre>{@code
 * BranchTable table = ArrayBranchTable.builder(2)
 *         .branch(0, 3, 2)   // method 0, block 3: two out-edges
 *         .branch(1, 0, 5)   // method 1, block 0: a switch with five
 *         .build();
 * }</pre>
 */
public final class ArrayBranchTable implements BranchTable {
    private final int[][] blocks;
    private final int[][] degrees;

    private ArrayBranchTable(int[][] blocks, int[][] degrees) {
        this.blocks = blocks;
        this.degrees = degrees;
    }

    /**
     * Starts a table of {@code methodCount} methods, none with branch nodes yet.
     *
     * @param methodCount number of methods, 0 <= methodCount <= {@link BranchTable#MAX_METHODS}
     */
    public static Builder builder(int methodCount) {
        return new Builder(methodCount);
    }

    /** Copies any table into an {@code ArrayBranchTable}. */
    public static ArrayBranchTable copyOf(BranchTable table) {
        Builder b = builder(table.methodCount());
        for (int m = 0; m < table.methodCount(); m++) {
            for (int block : table.branchBlocks(m)) {
                b.branch(m, block, table.outDegree(m, block));
            }
        }
        return b.build();
    }

    @Override
    public int methodCount() {
        return blocks.length;
    }

    @Override
    public int[] branchBlocks(int methodId) {
        return blocks[methodId].clone();
    }

    @Override
    public int outDegree(int methodId, int blockId) {
        int i = Arrays.binarySearch(blocks[methodId], blockId);
        if (i < 0) {
            throw new IllegalArgumentException(
                    "block " + blockId + " of method " + methodId + " is not a branch node");
        }
        return degrees[methodId][i];
    }

    /** Collects branch nodes; not thread-safe. */
    public static final class Builder {
        private final TreeMap<Integer, Integer>[] nodes;

        @SuppressWarnings("unchecked")
        private Builder(int methodCount) {
            if (methodCount < 0 || methodCount > BranchTable.MAX_METHODS) {
                throw new IllegalArgumentException(
                        "methodCount must be in [0, "
                                + BranchTable.MAX_METHODS
                                + "], got "
                                + methodCount);
            }
            nodes = new TreeMap[methodCount];
            for (int m = 0; m < methodCount; m++) {
                nodes[m] = new TreeMap<>();
            }
        }

        /**
         * Declares a branch node.
         *
         * @param methodId 0 <= methodId < methodCount
         * @param blockId block number, >= 0, not declared before for this method
         * @param outDegree number of out-edges, 2 <= outDegree <= {@link BranchTable#MAX_DEGREE}
         */
        public Builder branch(int methodId, int blockId, int outDegree) {
            if (methodId < 0 || methodId >= nodes.length) {
                throw new IllegalArgumentException(
                        "methodId must be in [0, " + nodes.length + "), got " + methodId);
            }
            if (blockId < 0) {
                throw new IllegalArgumentException("blockId must be >= 0, got " + blockId);
            }
            if (outDegree < 2 || outDegree > BranchTable.MAX_DEGREE) {
                throw new IllegalArgumentException(
                        "outDegree must be in [2, "
                                + BranchTable.MAX_DEGREE
                                + "], got "
                                + outDegree);
            }
            if (nodes[methodId].putIfAbsent(blockId, outDegree) != null) {
                throw new IllegalArgumentException(
                        "block " + blockId + " of method " + methodId + " declared twice");
            }
            return this;
        }

        public ArrayBranchTable build() {
            int n = nodes.length;
            int[][] blocks = new int[n][];
            int[][] degrees = new int[n][];
            for (int m = 0; m < n; m++) {
                blocks[m] = nodes[m].keySet().stream().mapToInt(Integer::intValue).toArray();
                degrees[m] = nodes[m].values().stream().mapToInt(Integer::intValue).toArray();
            }
            return new ArrayBranchTable(blocks, degrees);
        }
    }
}
