package dev.fieldprof.bytecode.cfg;

import java.util.List;

/**
 * The control-flow graph of one method as ASM reads its bytecode, on the same bytes the
 * instrumenter rewrites, so device and decoder agree on block and edge ids. Block 0 is the entry;
 * ids follow bytecode order; edge ids follow (source block, normal edges in instruction order, then
 * exception edges in handler-table order).
 *
 * @param signature Soot signature of the method
 * @param blocks basic blocks in bytecode order
 * @param edges edges by id
 * @param branchBlocks blocks with two or more distinct normal successors, where a path encoder
 *     records the choice
 * @param backEdges ids of edges that go back to a block on the current depth-first path from the
 *     entry (loop back edges)
 * @param exitBlocks blocks that end in a return or throw
 */
public record BytecodeCfg(
        String signature,
        List<Block> blocks,
        List<Edge> edges,
        List<Integer> branchBlocks,
        List<Integer> backEdges,
        List<Integer> exitBlocks) {

    /**
     * A basic block: instructions {@code [firstInstruction, lastInstruction]} as indices of the
     * method's ASM InsnList (labels, line numbers and frames included), holding {@code opcodeCount}
     * real instructions.
     */
    public record Block(int id, int firstInstruction, int lastInstruction, int opcodeCount) {}

    /** An edge between blocks; {@code label} names switch keys or the caught exception type. */
    public record Edge(int id, int from, int to, EdgeKind kind, String label) {}

    public BytecodeCfg {
        blocks = List.copyOf(blocks);
        edges = List.copyOf(edges);
        branchBlocks = List.copyOf(branchBlocks);
        backEdges = List.copyOf(backEdges);
        exitBlocks = List.copyOf(exitBlocks);
    }
}
