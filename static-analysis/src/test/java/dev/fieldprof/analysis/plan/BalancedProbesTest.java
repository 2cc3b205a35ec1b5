package dev.fieldprof.analysis.plan;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class BalancedProbesTest {

    @Test
    void everyLocationIsTracedInAsManyVariantsAsAnyOtherGiveOrTakeOne() {
        for (long seed = 1; seed <= 20; seed++) {
            PlanOptions options =
                    PlanOptions.of(Strategy.BALANCED_PROBES, 7, 11, seed)
                            .withCostUnit(MethodCosts.METHODS);
            Placement placement =
                    ProbePlanner.distribute(
                            ProbeSets.singletons(13), MethodCosts.unit(13), options);
            int[] timesUsed = new int[13];
            for (int[] methods : placement.methods()) {
                assertThat(methods).hasSize(11);
                for (int m : methods) {
                    timesUsed[m]++;
                }
            }
            int min = java.util.Arrays.stream(timesUsed).min().getAsInt();
            int max = java.util.Arrays.stream(timesUsed).max().getAsInt();
            // 7 * 11 = 77 probes over 13 locations: 5 or 6 each (balanced-probes' range of one).
            assertThat(max - min).as("seed %d", seed).isLessThanOrEqualTo(1);
            assertThat(min).as("seed %d", seed).isEqualTo(5);
        }
    }

    @Test
    void weighedMethodsThatNoLongerFitAreSkippedNotOverfilled() {
        MethodCosts costs = MethodCosts.of(new long[] {4, 1, 1, 3, 2}, MethodCosts.BRANCH_PROBES);
        PlanOptions options = PlanOptions.of(Strategy.BALANCED_PROBES, 4, 5, 3L);
        Placement placement = ProbePlanner.distribute(ProbeSets.singletons(5), costs, options);
        for (long used : placement.used()) {
            assertThat(used).isBetween(4L, 5L);
        }
    }

    @Test
    void costlierMethodsGoFirstWithinACountLevelSoEveryMethodThatFitsIsTraced() {
        // Two methods of cost 3 and four of cost 1, two variants of 5: one 3 and two 1s each.
        // In random order alone a variant could take the four 1s first and leave a 3 to nobody.
        MethodCosts costs =
                MethodCosts.of(new long[] {1, 1, 1, 1, 3, 3}, MethodCosts.BRANCH_PROBES);
        for (long seed = 1; seed <= 50; seed++) {
            Placement placement =
                    ProbePlanner.distribute(
                            ProbeSets.singletons(6),
                            costs,
                            PlanOptions.of(Strategy.BALANCED_PROBES, 2, 5, seed));
            int[] timesUsed = new int[6];
            for (int[] methods : placement.methods()) {
                for (int m : methods) {
                    timesUsed[m]++;
                }
            }
            assertThat(timesUsed).as("seed %d", seed).containsExactly(1, 1, 1, 1, 1, 1);
            assertThat(placement.used()).as("seed %d", seed).containsExactly(5, 5);
        }
    }
}
