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
            // 7 * 11 = 77 probes over 13 locations: 5 or 6 each (Algorithm 1's range of one).
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
}
