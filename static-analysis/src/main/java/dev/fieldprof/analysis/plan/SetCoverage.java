package dev.fieldprof.analysis.plan;

/**
 * Which probe sets the finished variants observe: a set is fully covered by a variant when the
 * variant traces every one of its methods, whether or not the planner placed that very set there
 * (another set's probes may complete it).
 *
 * @param perVariant per variant, how many sets it fully covers
 * @param coveredAnywhere sets that at least one variant fully covers
 * @param uncoveredLength summed length (cost units) of the sets no variant covers: ALLUSED judged
 *     by coverage
 */
public record SetCoverage(int[] perVariant, int coveredAnywhere, long uncoveredLength) {

    /** O(n·(|V| + Σ|e|)). */
    public static SetCoverage of(ProbeSets sets, MethodCosts costs, int[][] methodsPerVariant) {
        int[] perVariant = new int[methodsPerVariant.length];
        boolean[] covered = new boolean[sets.size()];
        boolean[] traced = new boolean[sets.methodCount()];
        for (int v = 0; v < methodsPerVariant.length; v++) {
            for (int m : methodsPerVariant[v]) {
                traced[m] = true;
            }
            for (int e = 0; e < sets.size(); e++) {
                boolean all = true;
                for (int m : sets.membersView(e)) {
                    if (!traced[m]) {
                        all = false;
                        break;
                    }
                }
                if (all) {
                    perVariant[v]++;
                    covered[e] = true;
                }
            }
            for (int m : methodsPerVariant[v]) {
                traced[m] = false;
            }
        }
        int anywhere = 0;
        long uncovered = 0;
        for (int e = 0; e < sets.size(); e++) {
            if (covered[e]) {
                anywhere++;
            } else {
                uncovered += sets.length(e, costs);
            }
        }
        return new SetCoverage(perVariant, anywhere, uncovered);
    }
}
