package dev.fieldprof.analysis.plan;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Exact plans for the example of Section 4.2 of probe distribution (docs/references.md) (|U| = 8,
 * h_bound = 5, n = 3, events e1..e7 and clusters c1..c6 as printed there; u1..u8 are methods 0..7),
 * for every strategy with its own weights and with each of the weight settings of Table 1 of probe
 * distribution. Seed 2026; the climbs freeze after 20,000 bad moves.
 */
class PlanFixtureTest {

    static final ProbeSets EVENTS =
            ProbeSets.of(
                    8,
                    List.of(
                            new int[] {0, 2, 4},
                            new int[] {1, 3, 5},
                            new int[] {2, 4, 6},
                            new int[] {3, 5, 7},
                            new int[] {0, 1, 2},
                            new int[] {3, 4, 5},
                            new int[] {5, 6, 7}));

    static final ProbeSets CLUSTERS =
            ProbeSets.of(
                    8,
                    List.of(
                            new int[] {0, 2, 4, 6},
                            new int[] {0, 1, 2},
                            new int[] {2, 4, 6, 7},
                            new int[] {3, 4, 5, 7},
                            new int[] {1, 3, 5},
                            new int[] {5, 6, 7}));

    static ProbeSets targetOf(Strategy strategy) {
        return switch (strategy.target()) {
            case PROBES -> ProbeSets.singletons(8);
            case EVENTS -> EVENTS;
            case CLUSTERS -> CLUSTERS;
        };
    }

    @ParameterizedTest(name = "{0} weights {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "random-probes |  | [[1, 2, 3, 4, 7], [1, 2, 3, 5, 7], [0, 1, 2, 4, 7]] | [[1, 2,"
                        + " 3, 4, 7], [1, 2, 3, 5, 7], [0, 1, 2, 4, 7]] | 7.25 | 0.0 | 1",
                "random-probes | 0.5,0.0,0.5 | [[1, 2, 3, 4, 7], [1, 2, 3, 5, 7], [0, 1, 2, 4, 7]]"
                        + " | [[1, 2, 3, 4, 7], [1, 2, 3, 5, 7], [0, 1, 2, 4, 7]] | 7.25 | 0.0 | 1",
                "random-probes | 0.0,0.5,0.5 | [[1, 2, 3, 4, 7], [1, 2, 3, 5, 7], [0, 1, 2, 4, 7]]"
                        + " | [[1, 2, 3, 4, 7], [1, 2, 3, 5, 7], [0, 1, 2, 4, 7]] | 7.25 | 0.0 | 1",
                "random-probes | 0.4,0.2,0.4 | [[1, 2, 3, 4, 7], [1, 2, 3, 5, 7], [0, 1, 2, 4, 7]]"
                        + " | [[1, 2, 3, 4, 7], [1, 2, 3, 5, 7], [0, 1, 2, 4, 7]] | 7.25 | 0.0 | 1",
                "balanced-probes |  | [[1, 2, 3, 4, 7], [0, 2, 5, 6, 7], [0, 1, 3, 4, 6]] | [[1, 2,"
                        + " 3, 4, 7], [0, 2, 5, 6, 7], [0, 1, 3, 4, 6]] | 1.75 | 0.0 | 0",
                "balanced-probes | 0.5,0.0,0.5 | [[1, 2, 3, 4, 7], [0, 2, 5, 6, 7], [0, 1, 3, 4,"
                    + " 6]] | [[1, 2, 3, 4, 7], [0, 2, 5, 6, 7], [0, 1, 3, 4, 6]] | 1.75 | 0.0 | 0",
                "balanced-probes | 0.0,0.5,0.5 | [[1, 2, 3, 4, 7], [0, 2, 5, 6, 7], [0, 1, 3, 4,"
                    + " 6]] | [[1, 2, 3, 4, 7], [0, 2, 5, 6, 7], [0, 1, 3, 4, 6]] | 1.75 | 0.0 | 0",
                "balanced-probes | 0.4,0.2,0.4 | [[1, 2, 3, 4, 7], [0, 2, 5, 6, 7], [0, 1, 3, 4,"
                    + " 6]] | [[1, 2, 3, 4, 7], [0, 2, 5, 6, 7], [0, 1, 3, 4, 6]] | 1.75 | 0.0 | 0",
                "packed-probes |  | [[1, 2, 3, 4, 7], [0, 1, 3, 6, 7], [1, 2, 5, 6, 7]] | [[1, 2,"
                        + " 3, 4, 7], [0, 1, 3, 6, 7], [1, 2, 5, 6, 7]] | 5.25 | 0.0 | 0",
                "packed-probes | 0.5,0.0,0.5 | [[0, 1, 3, 4, 7], [2, 3, 4, 6, 7], [0, 1, 2, 5, 6]]"
                        + " | [[0, 1, 3, 4, 7], [2, 3, 4, 6, 7], [0, 1, 2, 5, 6]] | 1.75 | 0.0 | 0",
                "packed-probes | 0.0,0.5,0.5 | [[1, 2, 3, 4, 7], [0, 1, 3, 6, 7], [1, 2, 5, 6, 7]]"
                        + " | [[1, 2, 3, 4, 7], [0, 1, 3, 6, 7], [1, 2, 5, 6, 7]] | 5.25 | 0.0 | 0",
                "packed-probes | 0.4,0.2,0.4 | [[0, 1, 3, 4, 7], [2, 3, 4, 6, 7], [0, 1, 2, 5, 6]]"
                        + " | [[0, 1, 3, 4, 7], [2, 3, 4, 6, 7], [0, 1, 2, 5, 6]] | 1.75 | 0.0 | 0",
                "balanced-packed-probes |  | [[0, 1, 3, 4, 7], [2, 3, 4, 6, 7], [0, 1, 2, 5, 6]] |"
                        + " [[0, 1, 3, 4, 7], [2, 3, 4, 6, 7], [0, 1, 2, 5, 6]] | 1.75 | 0.0 | 0",
                "balanced-packed-probes | 0.5,0.0,0.5 | [[0, 1, 3, 4, 7], [2, 3, 4, 6, 7], [0, 1,"
                    + " 2, 5, 6]] | [[0, 1, 3, 4, 7], [2, 3, 4, 6, 7], [0, 1, 2, 5, 6]] | 1.75 |"
                    + " 0.0 | 0",
                "balanced-packed-probes | 0.0,0.5,0.5 | [[1, 2, 3, 4, 7], [0, 1, 3, 6, 7], [1, 2,"
                    + " 5, 6, 7]] | [[1, 2, 3, 4, 7], [0, 1, 3, 6, 7], [1, 2, 5, 6, 7]] | 5.25 |"
                    + " 0.0 | 0",
                "balanced-packed-probes | 0.4,0.2,0.4 | [[0, 1, 3, 4, 7], [2, 3, 4, 6, 7], [0, 1,"
                    + " 2, 5, 6]] | [[0, 1, 3, 4, 7], [2, 3, 4, 6, 7], [0, 1, 2, 5, 6]] | 1.75 |"
                    + " 0.0 | 0",
                "random-events |  | [[1, 3, 4, 5, 7], [0, 1, 2, 4, 6], [3, 4, 5, 6, 7]] | [[1, 3,"
                        + " 5], [0, 2, 4], [3, 5, 6]] | 8.571428571428571 | 1.0 | 0",
                "random-events | 0.5,0.0,0.5 | [[1, 3, 4, 5, 7], [0, 1, 2, 4, 6], [3, 4, 5, 6, 7]]"
                        + " | [[1, 3, 5], [0, 2, 4], [3, 5, 6]] | 8.571428571428571 | 1.0 | 0",
                "random-events | 0.0,0.5,0.5 | [[1, 3, 4, 5, 7], [0, 1, 2, 4, 6], [3, 4, 5, 6, 7]]"
                        + " | [[1, 3, 5], [0, 2, 4], [3, 5, 6]] | 8.571428571428571 | 1.0 | 0",
                "random-events | 0.4,0.2,0.4 | [[1, 3, 4, 5, 7], [0, 1, 2, 4, 6], [3, 4, 5, 6, 7]]"
                        + " | [[1, 3, 5], [0, 2, 4], [3, 5, 6]] | 8.571428571428571 | 1.0 | 0",
                "balanced-events |  | [[0, 2, 3, 4, 5], [0, 1, 2, 4, 6], [1, 3, 5, 6, 7]] | [[0,"
                        + " 5], [2, 4], [1, 3, 6]] | 0.0 | 1.0 | 0",
                "balanced-events | 0.5,0.0,0.5 | [[0, 2, 3, 4, 5], [0, 1, 2, 4, 6], [1, 3, 5, 6,"
                        + " 7]] | [[0, 5], [2, 4], [1, 3, 6]] | 0.0 | 1.0 | 0",
                "balanced-events | 0.0,0.5,0.5 | [[1, 3, 5, 6, 7], [0, 1, 2, 4, 6], [3, 4, 5, 6,"
                        + " 7]] | [[1, 3, 6], [0, 2, 4], [3, 5, 6]] | 8.571428571428571 | 0.0 | 0",
                "balanced-events | 0.4,0.2,0.4 | [[0, 1, 2, 3, 5], [0, 2, 4, 6], [3, 4, 5, 6, 7]] |"
                        + " [[1, 4], [0, 2], [3, 5, 6]] | 0.0 | 1.5 | 0",
                "packed-events |  | [[1, 3, 5, 6, 7], [0, 1, 2, 4, 6], [3, 4, 5, 6, 7]] | [[1, 3,"
                        + " 6], [0, 2, 4], [3, 5, 6]] | 8.571428571428571 | 0.0 | 0",
                "packed-events | 0.5,0.0,0.5 | [[0, 2, 3, 4, 5], [0, 1, 2, 4, 6], [1, 3, 5, 6, 7]]"
                        + " | [[0, 5], [2, 4], [1, 3, 6]] | 0.0 | 1.0 | 0",
                "packed-events | 0.0,0.5,0.5 | [[1, 3, 5, 6, 7], [0, 1, 2, 4, 6], [3, 4, 5, 6, 7]]"
                        + " | [[1, 3, 6], [0, 2, 4], [3, 5, 6]] | 8.571428571428571 | 0.0 | 0",
                "packed-events | 0.4,0.2,0.4 | [[0, 1, 2, 3, 5], [0, 2, 4, 6], [3, 4, 5, 6, 7]] |"
                        + " [[1, 4], [0, 2], [3, 5, 6]] | 0.0 | 1.5 | 0",
                "balanced-packed-events |  | [[0, 1, 2, 3, 5], [0, 2, 4, 6], [3, 4, 5, 6, 7]] |"
                        + " [[1, 4], [0, 2], [3, 5, 6]] | 0.0 | 1.5 | 0",
                "balanced-packed-events | 0.5,0.0,0.5 | [[0, 2, 3, 4, 5], [0, 1, 2, 4, 6], [1, 3,"
                        + " 5, 6, 7]] | [[0, 5], [2, 4], [1, 3, 6]] | 0.0 | 1.0 | 0",
                "balanced-packed-events | 0.0,0.5,0.5 | [[1, 3, 5, 6, 7], [0, 1, 2, 4, 6], [3, 4,"
                    + " 5, 6, 7]] | [[1, 3, 6], [0, 2, 4], [3, 5, 6]] | 8.571428571428571 | 0.0 |"
                    + " 0",
                "balanced-packed-events | 0.4,0.2,0.4 | [[0, 1, 2, 3, 5], [0, 2, 4, 6], [3, 4, 5,"
                        + " 6, 7]] | [[1, 4], [0, 2], [3, 5, 6]] | 0.0 | 1.5 | 0",
                "random-clusters |  | [[1, 3, 4, 5, 7], [3, 4, 5, 6, 7], [0, 2, 4, 6, 7]] | [[3,"
                        + " 4], [3, 5], [0, 2]] | 7.0 | 2.0 | 3",
                "random-clusters | 0.5,0.0,0.5 | [[1, 3, 4, 5, 7], [3, 4, 5, 6, 7], [0, 2, 4, 6,"
                        + " 7]] | [[3, 4], [3, 5], [0, 2]] | 7.0 | 2.0 | 3",
                "random-clusters | 0.0,0.5,0.5 | [[1, 3, 4, 5, 7], [3, 4, 5, 6, 7], [0, 2, 4, 6,"
                        + " 7]] | [[3, 4], [3, 5], [0, 2]] | 7.0 | 2.0 | 3",
                "random-clusters | 0.4,0.2,0.4 | [[1, 3, 4, 5, 7], [3, 4, 5, 6, 7], [0, 2, 4, 6,"
                        + " 7]] | [[3, 4], [3, 5], [0, 2]] | 7.0 | 2.0 | 3",
                "balanced-clusters |  | [[0, 1, 2, 3, 5], [3, 4, 5, 6, 7], [0, 2, 4, 6, 7]] | [[1,"
                        + " 4], [3, 5], [0, 2]] | 0.0 | 1.5 | 0",
                "balanced-clusters | 0.5,0.0,0.5 | [[0, 1, 2, 3, 5], [3, 4, 5, 6, 7], [0, 2, 4, 6,"
                        + " 7]] | [[1, 4], [3, 5], [0, 2]] | 0.0 | 1.5 | 0",
                "balanced-clusters | 0.0,0.5,0.5 | [[0, 1, 2, 3, 5], [3, 4, 5, 6, 7], [0, 2, 4, 6,"
                        + " 7]] | [[1, 4], [3, 5], [0, 2]] | 0.0 | 1.5 | 0",
                "balanced-clusters | 0.4,0.2,0.4 | [[0, 1, 2, 3, 5], [3, 4, 5, 6, 7], [0, 2, 4, 6,"
                        + " 7]] | [[1, 4], [3, 5], [0, 2]] | 0.0 | 1.5 | 0",
                "packed-clusters |  | [[0, 1, 2, 3, 5], [3, 4, 5, 6, 7], [0, 2, 4, 6, 7]] | [[1,"
                        + " 4], [3, 5], [0, 2]] | 0.0 | 1.5 | 0",
                "packed-clusters | 0.5,0.0,0.5 | [[0, 1, 2, 3, 5], [3, 4, 5, 6, 7], [0, 2, 4, 6,"
                        + " 7]] | [[1, 4], [3, 5], [0, 2]] | 0.0 | 1.5 | 0",
                "packed-clusters | 0.0,0.5,0.5 | [[0, 1, 2, 3, 5], [3, 4, 5, 6, 7], [0, 2, 4, 6,"
                        + " 7]] | [[1, 4], [3, 5], [0, 2]] | 0.0 | 1.5 | 0",
                "packed-clusters | 0.4,0.2,0.4 | [[0, 1, 2, 3, 5], [3, 4, 5, 6, 7], [0, 2, 4, 6,"
                        + " 7]] | [[1, 4], [3, 5], [0, 2]] | 0.0 | 1.5 | 0",
                "balanced-packed-clusters |  | [[0, 1, 2, 3, 5], [3, 4, 5, 6, 7], [0, 2, 4, 6, 7]]"
                        + " | [[1, 4], [3, 5], [0, 2]] | 0.0 | 1.5 | 0",
                "balanced-packed-clusters | 0.5,0.0,0.5 | [[0, 1, 2, 3, 5], [3, 4, 5, 6, 7], [0, 2,"
                        + " 4, 6, 7]] | [[1, 4], [3, 5], [0, 2]] | 0.0 | 1.5 | 0",
                "balanced-packed-clusters | 0.0,0.5,0.5 | [[0, 1, 2, 3, 5], [3, 4, 5, 6, 7], [0, 2,"
                        + " 4, 6, 7]] | [[1, 4], [3, 5], [0, 2]] | 0.0 | 1.5 | 0",
                "balanced-packed-clusters | 0.4,0.2,0.4 | [[0, 1, 2, 3, 5], [3, 4, 5, 6, 7], [0, 2,"
                        + " 4, 6, 7]] | [[1, 4], [3, 5], [0, 2]] | 0.0 | 1.5 | 0",
            })
    void plansThePapersExampleExactly(
            String strategyName,
            String weights,
            String methods,
            String placed,
            double balance,
            double packing,
            long allUsed) {
        Strategy strategy = Strategy.parse(strategyName);
        PlanOptions options =
                PlanOptions.of(strategy, 3, 5, 2026L)
                        .withCostUnit(MethodCosts.METHODS)
                        .withWeights(weights == null ? null : CostWeights.parse(weights))
                        .withClimbBounds(20_000, Long.MAX_VALUE);
        ProbeSets sets = targetOf(strategy);
        MethodCosts costs = MethodCosts.unit(8);

        Placement placement = ProbePlanner.distribute(sets, costs, options);

        assertThat(Arrays.deepToString(placement.methods())).isEqualTo(methods);
        assertThat(Arrays.deepToString(placement.placements())).isEqualTo(placed);
        assertThat(placement.terms()).isEqualTo(new CostTerms(balance, packing, allUsed));
        assertThat(placement.terms())
                .isEqualTo(DistributionCost.of(sets, costs, placement.placements()));
        for (long used : placement.used()) {
            assertThat(used).isLessThanOrEqualTo(5);
        }
    }
}
