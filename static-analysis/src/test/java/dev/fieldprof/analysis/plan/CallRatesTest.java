package dev.fieldprof.analysis.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class CallRatesTest {

    @Test
    void sharesAtOrBelowTheFloorArePricedAtItAndCounted() {
        CallRates rates = CallRates.fromShares(new double[] {0.5, 0.25, -0.05, 0.0}, 0.125);

        // -0.05 and 0.0 are raised to 0.125; the priced shares {0.5, 0.25, 0.125, 0.125} have
        // mean 0.25, the rate of the mean method, 1.
        assertThat(rates.rates()).containsExactly(2.0, 1.0, 0.5, 0.5);
        assertThat(rates.clamped()).isEqualTo(2);
        assertThat(rates.floorShare()).isEqualTo(0.125);
    }

    @Test
    void anEstimateThatTellsNoMethodFromTheFloorLeavesEveryRateAtOne() {
        // A few reports: the standard error 0.375 is above every share, so all are priced at it.
        // Relative to 1/|V| each would have had rate 1.5, and no method would have fit an
        // h-bound chosen in the static unit (seen on google-java-format with 4 reports).
        CallRates rates = CallRates.fromShares(new double[] {0.1, -0.2, 0.05, 0.0}, 0.375);

        assertThat(rates.rates()).containsExactly(1.0, 1.0, 1.0, 1.0);
        assertThat(rates.clamped()).isEqualTo(4);
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
