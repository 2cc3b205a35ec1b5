package dev.fieldprof.analysis.plan;

/**
 * The cost terms of Section 4.3 of probe distribution (docs/references.md) computed from scratch,
 * straight from their definitions, in O(n·|V| + Σ placed set sizes). The reference the incremental
 * {@link Distribution} is tested against, and what reports use for a finished plan.
 */
public final class DistributionCost {

    private DistributionCost() {}

    /**
     * @param placements per variant, the indices of the sets placed in it (no duplicates)
     */
    public static CostTerms of(ProbeSets sets, MethodCosts costs, int[][] placements) {
        int setCount = sets.size();
        int[] timesUsed = new int[setCount];
        long[] overlaps = new long[placements.length];
        for (int v = 0; v < placements.length; v++) {
            int[] use = new int[sets.methodCount()];
            for (int e : placements[v]) {
                timesUsed[e]++;
                for (int m : sets.membersView(e)) {
                    use[m]++;
                }
            }
            for (int m = 0; m < use.length; m++) {
                if (use[m] >= 2) {
                    overlaps[v] += costs.cost(m);
                }
            }
        }
        long timesUsedSum = 0;
        for (int t : timesUsed) {
            timesUsedSum += t;
        }
        long scaled = 0;
        long allUsed = 0;
        for (int e = 0; e < setCount; e++) {
            long length = sets.length(e, costs);
            scaled += length * Math.abs((long) timesUsed[e] * setCount - timesUsedSum);
            if (timesUsed[e] == 0) {
                allUsed += length;
            }
        }
        return new CostTerms(
                CostTerms.balance(scaled, setCount), CostTerms.packing(overlaps), allUsed);
    }
}
