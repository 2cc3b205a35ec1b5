package dev.fieldprof.bytecode.cfg;

/** Why control can go from one basic block to another. */
public enum EdgeKind {
    /** Falls into the next block (no jump at the end of the block, or a call/store). */
    FALLTHROUGH,
    /** Unconditional jump ({@code goto}, {@code jsr}). */
    JUMP,
    /** Conditional jump taken. */
    BRANCH_TAKEN,
    /** Conditional jump not taken: falls through to the next block. */
    BRANCH_NOT_TAKEN,
    /** A case of a {@code tableswitch}/{@code lookupswitch}; the label lists the keys. */
    SWITCH_CASE,
    /** The default of a switch (the label also lists keys that share its target). */
    SWITCH_DEFAULT,
    /** To an exception handler covering the block; the label is the caught type or "any". */
    EXCEPTION
}
