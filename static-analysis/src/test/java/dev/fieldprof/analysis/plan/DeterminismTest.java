package dev.fieldprof.analysis.plan;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class DeterminismTest {

    // A call graph with shared callees, a cycle and an unreachable pair calling each other.
    static final ModelCallGraph GRAPH =
            new ModelCallGraph(
                    new int[][] {
                        {1, 2, 3}, {4, 5}, {4, 6}, {7}, {8}, {8, 9}, {9}, {1}, {}, {}, {11}, {10},
                        {0, 13}, {}
                    },
                    new boolean[14]);

    static final MethodCosts COSTS =
            MethodCosts.of(
                    new long[] {1, 3, 2, 1, 4, 1, 2, 1, 5, 1, 2, 2, 1, 3},
                    MethodCosts.BRANCH_PROBES);

    static PlanResult plan(Strategy strategy, long seed) {
        return ProbePlanner.plan(
                GRAPH,
                COSTS,
                PlanOptions.of(strategy, 4, 9, seed).withClimbBounds(5_000, Long.MAX_VALUE));
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void sameSeedGivesTheSamePlan(Strategy strategy) {
        PlanResult first = plan(strategy, 42L);
        PlanResult second = plan(strategy, 42L);
        assertThat(second.salt()).isEqualTo(first.salt());
        assertThat(Arrays.deepToString(second.placement().methods()))
                .isEqualTo(Arrays.deepToString(first.placement().methods()));
        assertThat(second.toRecord()).isEqualTo(first.toRecord());
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void anotherSeedDrawsAnotherSalt(Strategy strategy) {
        assertThat(plan(strategy, 43L).salt()).isNotEqualTo(plan(strategy, 42L).salt());
    }
}
