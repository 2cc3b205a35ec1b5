package dev.fieldprof.paths;

/**
 * What the path coder needs to know of each method's bytecode CFG: which blocks are branch nodes
 * (blocks with two or more out-edges) and how many out-edges each has. Device and server must use
 * the same table (built by ASM from the same bytes, docs/architecture.md, "Paths"); static analysis
 * implements it from its CFGs, {@link ArrayBranchTable} from plain arrays.
 *
 * <p>Method ids are dense, {@code 0 .. methodCount() - 1}; block ids are the CFG's block numbers
 * (any non-negative ints); an edge index is the position of the out-edge in the CFG's order.
 */
public interface BranchTable {
    /** Most methods a table may have, so that coded symbols stay ints. */
    int MAX_METHODS = 1 << 28;

    /** Largest out-degree of a branch node (a tableswitch with more cases is not traced). */
    int MAX_DEGREE = 1 << 12;

    /** Largest block id, bounding the coder's per-method lookup array. */
    int MAX_BLOCK = 1 << 20;

    /** Number of methods; method ids are {@code 0 .. methodCount() - 1}. */
    int methodCount();

    /** Block ids of the method's branch nodes in ascending order; empty if it has none. */
    int[] branchBlocks(int methodId);

    /** Out-degree (>= 2) of the branch node {@code blockId} of the method. */
    int outDegree(int methodId, int blockId);
}
