package dev.fieldprof.analysis.plan;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * On inputs small enough to enumerate every distribution, the hill climb reaches the optimal cost.
 * The search space is the published planner's (probe distribution, docs/references.md, Section 4.1:
 * every variant holds h_bound probes): each variant holds probe sets within its h-bound and is
 * full: at h_bound, or no further set fits. Without that constraint the cost of Section 4.3 can
 * prefer empty variants (BALANCE is 0 when nothing is used).
 */
class HillClimbBruteForceTest {

    static final List<CostWeights> WEIGHTS =
            List.of(CostWeights.BALANCED, CostWeights.PACKED, CostWeights.BALANCED_PACKED);

    /** The least cost over all distributions, by enumeration. */
    static double optimum(
            ProbeSets sets, MethodCosts costs, int variants, long hBound, CostWeights weights) {
        List<int[]> feasible = new ArrayList<>();
        for (int mask = 0; mask < 1 << sets.size(); mask++) {
            boolean[] traced = new boolean[sets.methodCount()];
            long used = 0;
            int[] members = new int[Integer.bitCount(mask)];
            int k = 0;
            for (int e = 0; e < sets.size(); e++) {
                if ((mask >> e & 1) == 1) {
                    members[k++] = e;
                    for (int m : sets.members(e)) {
                        if (!traced[m]) {
                            traced[m] = true;
                            used += costs.cost(m);
                        }
                    }
                }
            }
            if (used <= hBound && !roomForAnother(sets, costs, traced, used, hBound, mask)) {
                feasible.add(members);
            }
        }
        double best = Double.POSITIVE_INFINITY;
        int[] choice = new int[variants];
        while (true) {
            int[][] placements = new int[variants][];
            for (int v = 0; v < variants; v++) {
                placements[v] = feasible.get(choice[v]);
            }
            best = Math.min(best, DistributionCost.of(sets, costs, placements).cost(weights));
            int v = 0;
            while (v < variants && ++choice[v] == feasible.size()) {
                choice[v++] = 0;
            }
            if (v == variants) {
                return best;
            }
        }
    }

    /**
     * Whether the variant is not full: it has budget left and some set not in the mask still fits
     * (a variant at exactly h_bound counts as full, as in the published planner).
     */
    static boolean roomForAnother(
            ProbeSets sets, MethodCosts costs, boolean[] traced, long used, long hBound, int mask) {
        if (used == hBound) {
            return false;
        }
        for (int e = 0; e < sets.size(); e++) {
            if ((mask >> e & 1) == 0) {
                long added = 0;
                for (int m : sets.members(e)) {
                    if (!traced[m]) {
                        added += costs.cost(m);
                    }
                }
                if (used + added <= hBound) {
                    return true;
                }
            }
        }
        return false;
    }

    @ParameterizedTest(name = "input seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void climbReachesTheEnumeratedOptimum(long inputSeed) {
        SplittableRandom input = new SplittableRandom(inputSeed);
        int methods = 4 + input.nextInt(3);
        ProbeSets sets = DistributionTest.randomSets(input, methods, 3 + input.nextInt(3), 3);
        MethodCosts costs = DistributionTest.randomCosts(input, methods);
        int variants = 2 + input.nextInt(2);
        long hBound = 3 + input.nextInt(6);
        for (CostWeights weights : WEIGHTS) {
            double optimum = optimum(sets, costs, variants, hBound, weights);
            Strategy strategy = Strategy.BALANCED_PACKED_EVENTS;
            PlanOptions options =
                    PlanOptions.of(strategy, variants, hBound, 100 + inputSeed)
                            .withWeights(weights)
                            .withClimbBounds(20_000, Long.MAX_VALUE);
            Placement placement = ProbePlanner.distribute(sets, costs, options);
            assertThat(placement.terms().cost(weights))
                    .as("input seed %d, weights %s", inputSeed, weights)
                    .isEqualTo(optimum);
        }
    }
}
