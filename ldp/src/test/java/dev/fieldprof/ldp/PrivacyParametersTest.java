package dev.fieldprof.ldp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.fieldprof.schemas.PrivacyConfig;
import org.junit.jupiter.api.Test;

class PrivacyParametersTest {
    @Test
    void parsesNumbersAndNaturalLogarithms() {
        assertThat(PrivacyParameters.parseEpsilon("ln(9)")).isEqualTo(Math.log(9));
        assertThat(PrivacyParameters.parseEpsilon(" LN( 2.5 ) ")).isEqualTo(Math.log(2.5));
        assertThat(PrivacyParameters.parseEpsilon("1.25")).isEqualTo(1.25);
    }

    @Test
    void rejectsUnparsableEpsilonNamingTheForms() {
        assertThatThrownBy(() -> PrivacyParameters.parseEpsilon("log9"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("epsilon must be a number or ln(x), e.g. 2.2 or ln(9), got 'log9'");
        assertThatThrownBy(() -> PrivacyParameters.parseEpsilon("ln(0.5)"))
                .hasMessage("epsilon = ln(x) needs a finite x > 1, got ln(0.5)");
    }

    @Test
    void rejectsOutOfRangeParameters() {
        assertThatThrownBy(() -> new PrivacyParameters(0, 1, 5))
                .hasMessage("epsilon must be finite and > 0, got 0.0");
        assertThatThrownBy(() -> new PrivacyParameters(1, 0, 5))
                .hasMessage("t must be in [1, k=5], got 0");
        assertThatThrownBy(() -> new PrivacyParameters(1, 6, 5))
                .hasMessage("t must be in [1, k=5], got 6");
        assertThatThrownBy(() -> new PrivacyParameters(1, 1, 0))
                .hasMessage("k must be >= 1, got 0");
    }

    @Test
    void rejectsParametersWhereAOrPDegenerateInDoubles() {
        // e^(1e-17) == 1.0 and 1e3/(1+e^1000) is NaN: the estimator would divide by a - 1 = 0,
        // or the randomizer would report counts unchanged.
        assertThat(Math.exp(1e-17 / 2)).isEqualTo(1.0);
        assertThatThrownBy(() -> new PrivacyParameters(1e-17, 1, 5))
                .hasMessage(
                        "epsilon/(2t) must be in [1.0E-9, 30.0] so that a = e^(epsilon/(2t)) > 1"
                                + " and p = a/(1+a) < 1 hold in doubles, got epsilon=1.0E-17, t=1");
        assertThatThrownBy(() -> new PrivacyParameters(80, 1, 5))
                .hasMessageStartingWith("epsilon/(2t) must be in [1.0E-9, 30.0]");
        // The bounds themselves are usable.
        PrivacyParameters largest = new PrivacyParameters(60, 1, 5);
        assertThat(largest.p()).isLessThan(1.0);
        assertThat(1 - largest.p()).isPositive();
        assertThat(new PrivacyParameters(2e-9, 1, 5).a()).isGreaterThan(1.0);
    }

    @Test
    void readsAPublishedPrivacyConfigAsAValue() {
        PrivacyParameters published =
                PrivacyParameters.of(
                        new PrivacyConfig(
                                "default",
                                Math.log(9),
                                1,
                                100,
                                dev.fieldprof.schemas.PrivacyMode.EPSILON_T,
                                null));
        assertThat(published).isEqualTo(new PrivacyParameters(Math.log(9), 1, 100));
        assertThat(published).hasSameHashCodeAs(new PrivacyParameters(Math.log(9), 1, 100));
        assertThat(published).isNotEqualTo(new PrivacyParameters(Math.log(9), 2, 100));
        assertThat(published.p()).isCloseTo(0.75, within(1e-15));
    }
}
