package dev.fieldprof.analysis.plan;

/**
 * The outcome of distributing one kind of probe set over the variants.
 *
 * @param sets the sets that were distributed (single probes, events or clusters)
 * @param placements per variant, the indices of the sets placed in it, ascending
 * @param methods per variant, the method ids it traces, ascending
 * @param used per variant, the cost units its methods take
 * @param terms BALANCE, PACKING and ALLUSED over {@code sets}
 * @param moves hill-climb moves made (0 without a climb)
 * @param acceptedMoves moves kept
 * @param stoppedBecause why the climb stopped ("cost 0", "frozen", "move limit"), or "no climb"
 */
public record Placement(
        ProbeSets sets,
        int[][] placements,
        int[][] methods,
        long[] used,
        CostTerms terms,
        long moves,
        long acceptedMoves,
        String stoppedBecause) {}
