package dev.fieldprof.paths;

import java.util.Arrays;

/**
 * A {@link BranchTable} compiled into dense arrays for the coder's hot path: per method, block id
 * to branch ordinal, and each branch node's first local edge index. Immutable and thread-safe;
 * shared by an {@link EdgeModel} and every coder that uses it.
 */
final class BranchLayout implements BranchTable {

    final int methodCount;
    final int[][] blocks;
    final int[][] ordinalByBlock;
    final int[][] edgeStart;

    private BranchLayout(
            int methodCount, int[][] blocks, int[][] ordinalByBlock, int[][] edgeStart) {
        this.methodCount = methodCount;
        this.blocks = blocks;
        this.ordinalByBlock = ordinalByBlock;
        this.edgeStart = edgeStart;
    }

    static BranchLayout of(BranchTable table) {
        if (table instanceof BranchLayout layout) {
            return layout;
        }
        int n = table.methodCount();
        if (n < 0 || n > MAX_METHODS) {
            throw new IllegalArgumentException(
                    "methodCount must be in [0, " + MAX_METHODS + "], got " + n);
        }
        // One extra, empty entry for the root pseudo-method that calls the outermost methods.
        int[][] blocks = new int[n + 1][];
        int[][] ordinal = new int[n + 1][];
        int[][] start = new int[n + 1][];
        for (int m = 0; m < n; m++) {
            int[] b = table.branchBlocks(m).clone();
            int[] s = new int[b.length + 1];
            int max = -1;
            for (int i = 0; i < b.length; i++) {
                if (b[i] < 0 || b[i] > MAX_BLOCK || (i > 0 && b[i] <= b[i - 1])) {
                    throw new IllegalArgumentException(
                            "branch blocks of method "
                                    + m
                                    + " must be ascending ids in [0, "
                                    + MAX_BLOCK
                                    + "], got "
                                    + Arrays.toString(b));
                }
                int d = table.outDegree(m, b[i]);
                if (d < 2 || d > MAX_DEGREE) {
                    throw new IllegalArgumentException(
                            "out-degree of block "
                                    + b[i]
                                    + " of method "
                                    + m
                                    + " must be in [2, "
                                    + MAX_DEGREE
                                    + "], got "
                                    + d);
                }
                s[i + 1] = s[i] + d;
                max = b[i];
            }
            int[] o = new int[max + 1];
            Arrays.fill(o, -1);
            for (int i = 0; i < b.length; i++) {
                o[b[i]] = i;
            }
            blocks[m] = b;
            ordinal[m] = o;
            start[m] = s;
        }
        blocks[n] = new int[0];
        ordinal[n] = new int[0];
        start[n] = new int[] {0};
        return new BranchLayout(n, blocks, ordinal, start);
    }

    /** Branch ordinal of a block, or -1 if it is not a branch node of the method. */
    int ordinal(int methodId, int blockId) {
        int[] o = ordinalByBlock[methodId];
        return blockId >= 0 && blockId < o.length ? o[blockId] : -1;
    }

    int branchCount(int methodId) {
        return blocks[methodId].length;
    }

    int edgeCount(int methodId) {
        int[] s = edgeStart[methodId];
        return s[s.length - 1];
    }

    @Override
    public int methodCount() {
        return methodCount;
    }

    @Override
    public int[] branchBlocks(int methodId) {
        checkMethod(methodId);
        return blocks[methodId].clone();
    }

    @Override
    public int outDegree(int methodId, int blockId) {
        checkMethod(methodId);
        int ord = ordinal(methodId, blockId);
        if (ord < 0) {
            throw new IllegalArgumentException(
                    "block " + blockId + " of method " + methodId + " is not a branch node");
        }
        return edgeStart[methodId][ord + 1] - edgeStart[methodId][ord];
    }

    private void checkMethod(int methodId) {
        if (methodId < 0 || methodId >= methodCount) {
            throw new IllegalArgumentException(
                    "methodId must be in [0, " + methodCount + "), got " + methodId);
        }
    }

    /**
     * A 64-bit hash of every (method, block, out-degree) and the method count: equal tables give
     * equal fingerprints, so a device can refuse a model built for other bytecode.
     */
    long fingerprint() {
        long h = 0xCBF2_9CE4_8422_2325L ^ methodCount;
        for (int m = 0; m < methodCount; m++) {
            int[] b = blocks[m];
            int[] s = edgeStart[m];
            for (int i = 0; i < b.length; i++) {
                h = (h ^ m) * 0x100_0000_01B3L;
                h = (h ^ b[i]) * 0x100_0000_01B3L;
                h = (h ^ (s[i + 1] - s[i])) * 0x100_0000_01B3L;
            }
        }
        return h ^ (h >>> 29);
    }

    /** True if both describe the same branch nodes with the same out-degrees. */
    boolean sameAs(BranchLayout other) {
        return other == this
                || (methodCount == other.methodCount
                        && Arrays.deepEquals(blocks, other.blocks)
                        && Arrays.deepEquals(edgeStart, other.edgeStart));
    }
}
