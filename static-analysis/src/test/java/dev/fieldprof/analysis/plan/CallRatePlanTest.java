package dev.fieldprof.analysis.plan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.bytecode.model.ProgramModels;
import dev.fieldprof.schemas.ProgramModel;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Plans weighed by call rates on six methods without calls (each its own root): a, b, c, d run
 * rarely, e and f are hot. In the published unit (probe distribution, docs/references.md) all six
 * cost the same and a variant may draw both hot methods; weighed by call rate a hot method costs
 * what three rare ones do.
 */
class CallRatePlanTest {

    private static final ProgramModel MODEL =
            ProgramModels.build(
                    "six:1",
                    Instant.ofEpochMilli(0),
                    List.of(
                            "<t: void a()>",
                            "<t: void b()>",
                            "<t: void c()>",
                            "<t: void d()>",
                            "<t: void e()>",
                            "<t: void f()>"),
                    List.of(),
                    ProgramModels.privacyConfig("default", 1.0, 1, 20, 6),
                    Map.of());

    private static final int E = 4;
    private static final int F = 5;

    /** e and f each 40% of all entries (rate 2.4, cost 3), the rest 5% each (rate 0.3, cost 1). */
    private static final CallRates HOT_E_F =
            CallRates.fromShares(new double[] {0.05, 0.05, 0.05, 0.05, 0.4, 0.4}, 0.0);

    private static PlanOptions options(int variants, long hBound, long seed) {
        return PlanOptions.of(Strategy.BALANCED_PROBES, variants, hBound, seed)
                .withCostUnit(MethodCosts.METHODS);
    }

    @Test
    void weighedByCallRatesTheTwoHotMethodsNeverShareAVariant() {
        PlanResult plan = ProbePlanner.plan(MODEL, options(2, 5, 7L), HOT_E_F);

        assertThat(plan.costs().toArray()).containsExactly(1, 1, 1, 1, 3, 3);
        assertThat(plan.costs().unit()).isEqualTo("methods x call rate");
        // Every method traced somewhere, e in one variant and f in the other, each filled to 5.
        assertThat(Arrays.deepToString(plan.placement().methods()))
                .isEqualTo("[[1, 2, 4], [0, 3, 5]]");
        assertThat(plan.placement().used()).containsExactly(5, 5);
        assertThat(plan.overBoundMethods()).isEmpty();
        for (long seed = 1; seed <= 50; seed++) {
            for (int[] variant :
                    ProbePlanner.plan(MODEL, options(2, 5, seed), HOT_E_F).placement().methods()) {
                assertThat(contains(variant, E) && contains(variant, F))
                        .as("seed %d: %s", seed, Arrays.toString(variant))
                        .isFalse();
            }
        }
    }

    @Test
    void inThePapersUnitSomeSeedPutsBothHotMethodsInOneVariant() {
        // The same share of the program per variant (half of it) counted in methods.
        int together = 0;
        for (long seed = 1; seed <= 50; seed++) {
            for (int[] variant :
                    ProbePlanner.plan(MODEL, options(2, 3, seed)).placement().methods()) {
                if (contains(variant, E) && contains(variant, F)) {
                    together++;
                }
            }
        }
        // Variant 0 draws 3 of the 6 methods at random, variant 1 takes the rest: both hot ones
        // share a variant with probability 2/5, in 24 of these 50 seeds.
        assertThat(together).isEqualTo(24);
    }

    @Test
    void aMethodCostlierThanTheBoundAloneIsTracedByNoVariant() {
        // e: 70% of entries (rate 4.2, cost 5) against an h-bound of 4; the rest 6% (cost 1).
        CallRates hotE = CallRates.fromShares(new double[] {0.06, 0.06, 0.06, 0.06, 0.7, 0.06}, 0);

        PlanResult plan = ProbePlanner.plan(MODEL, options(3, 4, 7L), hotE);

        assertThat(plan.costs().toArray()).containsExactly(1, 1, 1, 1, 5, 1);
        assertThat(plan.overBoundMethods()).containsExactly(E);
        assertThat(Arrays.deepToString(plan.placement().methods()))
                .isEqualTo("[[0, 1, 2, 5], [0, 1, 2, 3], [0, 1, 3, 5]]");
        assertThat(plan.placement().used()).containsExactly(4, 4, 4);
    }

    private static boolean contains(int[] methods, int m) {
        return Arrays.stream(methods).anyMatch(x -> x == m);
    }
}
