package dev.fieldprof.analysis.constraints;

/**
 * Which version of the order-pair rules (frequency profiling, docs/references.md) to apply. {@link
 * #SOUND} is the default and what every model uses; {@link #PAPER} is that design's Section 4.3 as
 * written (exits are returns and throw statements, any single CHA target counts, only overrides of
 * platform methods make callers unknown) and exists to measure, on real runs, what each refinement
 * of SOUND fixes.
 */
public enum PairRules {
    /**
     * Implicit exceptions are exits, the receiver must be non-null, the target set must be closed,
     * and every unknown-caller rule of {@link UnknownCallers} applies.
     */
    SOUND,
    /** The published conditions only; unsound on Java programs (see the soundness report). */
    PAPER
}
