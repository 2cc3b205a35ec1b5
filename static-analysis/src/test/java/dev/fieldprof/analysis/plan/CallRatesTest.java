package dev.fieldprof.analysis.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class CallRatesTest {

    @Test
    void sharesAtOrBelowTheFloorArePricedAtItAndCounted() {
        CallRates rates = CallRates.fromShares(new double[] {0.5, 0.3, -0.05, 0.0, 0.25}, 0.01);

        // share * |V| (5): the mean method has rate 1; -0.05 and 0.0 are raised to 0.01.
        assertThat(rates.rates()).containsExactly(2.5, 1.5, 0.05, 0.05, 1.25);
        assertThat(rates.clamped()).isEqualTo(2);
        assertThat(rates.floorShare()).isEqualTo(0.01);
    }

    @Test
    void countsGiveRatesRelativeToTheMeanMethod() {
        CallRates rates = CallRates.fromCounts(new long[] {6, 2, 0, 0});

        assertThat(rates.rates()).containsExactly(3.0, 1.0, 0.0, 0.0);
        assertThat(rates.clamped()).isEqualTo(2);
    }

    @Test
    void weighsBranchProbesByRateRoundingUpToAtLeastOne() {
        MethodCosts costs =
                MethodCosts.of(new long[] {2, 3, 1, 4}, MethodCosts.BRANCH_PROBES)
                        .timesCallRates(CallRates.fromCounts(new long[] {6, 2, 0, 0}).rates());

        assertThat(costs.toArray()).containsExactly(6, 3, 1, 1);
        assertThat(costs.unit()).isEqualTo("branch-probes x call rate");
    }

    @Test
    void rejectsWhatIsNotAShareOrACount() {
        assertThatThrownBy(() -> CallRates.fromShares(new double[] {0.5, Double.NaN}, 0))
                .hasMessage("estimated share of method 1 is not a number: NaN");
        assertThatThrownBy(() -> CallRates.fromShares(new double[] {0.5}, -0.1))
                .hasMessage("call-rate floor must be a finite share >= 0, was -0.1");
        assertThatThrownBy(() -> CallRates.fromShares(new double[0], 0))
                .hasMessage("need the share of at least one method");
        assertThatThrownBy(() -> CallRates.fromCounts(new long[] {0, 0}))
                .hasMessage("the recorded run entered no method");
        assertThatThrownBy(() -> CallRates.fromCounts(new long[] {3, -1}))
                .hasMessage("entry count of method 1 must be >= 0, was -1");
    }
}
