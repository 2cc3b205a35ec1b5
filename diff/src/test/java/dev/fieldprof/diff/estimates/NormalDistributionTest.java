package dev.fieldprof.diff.estimates;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class NormalDistributionTest {

    @Test
    void twoSidedTailMatchesTabulatedValues() {
        // Pr[|Z| >= z], reference values to 16 digits (erfc(z/sqrt 2)).
        assertThat(NormalDistribution.twoSidedTail(0)).isEqualTo(1.0);
        assertThat(NormalDistribution.twoSidedTail(1)).isCloseTo(0.3173105078629141, within(1e-13));
        assertThat(NormalDistribution.twoSidedTail(NormalDistribution.Z_95))
                .isCloseTo(0.05, within(1e-13));
        assertThat(NormalDistribution.twoSidedTail(-3))
                .isCloseTo(0.002699796063260191, within(1e-14));
        assertThat(NormalDistribution.twoSidedTail(6) / 1.973175290075e-9)
                .isCloseTo(1, within(1e-9));
        assertThat(NormalDistribution.twoSidedTail(Double.POSITIVE_INFINITY)).isZero();
    }

    @Test
    void erfcIsContinuousWhereTheTwoExpansionsMeet() {
        double below = NormalDistribution.erfc(Math.nextDown(2.0));
        double at = NormalDistribution.erfc(2.0);
        assertThat(below / at).isCloseTo(1, within(1e-9));
        assertThat(at).isCloseTo(0.004677734981047266, within(1e-17));
        assertThat(NormalDistribution.erfc(3.0)).isCloseTo(2.209049699858544e-5, within(1e-19));
    }
}
