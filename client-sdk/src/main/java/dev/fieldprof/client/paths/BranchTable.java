package dev.fieldprof.client.paths;

/**
 * What the path coder needs to know of each method's bytecode CFG: which blocks are branch nodes
 * (blocks with two or more out-edges) and how many out-edges each has. Device and server must use
 * the same table (built by ASM from the same bytes, DESIGN.md "Paths"); static analysis implements
 * it from its CFGs, {@link ArrayBranchTable} from plain arrays.
 *
 * <p>Method ids are dense, {@code 0 .. methodCount() - 1}; block ids are the CFG's block numbers
 * (any non-negative ints); an edge index is the position of the out-edge in the CFG's order.
 */
public interface BranchTable {

    /** Number of methods; method ids are {@code 0 .. methodCount() - 1}. */
    int methodCount();

    /** Block ids of the method's branch nodes in ascending order; empty if it has none. */
    int[] branchBlocks(int methodId);

    /** Out-degree (>= 2) of the branch node {@code blockId} of the method. */
    int outDegree(int methodId, int blockId);
}
