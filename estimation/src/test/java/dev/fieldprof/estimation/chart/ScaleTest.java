package dev.fieldprof.estimation.chart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class ScaleTest {

    @Test
    void logDecadesWidenToWholeDecadesAndSpanOneAtLeast() {
        assertThat(Scale.logDecades(0.03, 0.9)).isEqualTo(Scale.log(0.01, 1));
        assertThat(Scale.logDecades(250, 300)).isEqualTo(Scale.log(100, 1000));
        assertThat(Scale.log(0.01, 1).decades()).containsExactly(0.01, 0.1, 1.0);
    }

    @Test
    void decadesAreThePowersOfTenInsideTheRange() {
        assertThat(Scale.log(0.5, 2000).decades()).containsExactly(1.0, 10.0, 100.0, 1000.0);
    }

    @Test
    void stepsSpanTheRangeEvenly() {
        assertThat(Scale.linear(0, 15).steps(5)).containsExactly(0.0, 3.0, 6.0, 9.0, 12.0, 15.0);
    }

    @Test
    void fractionsAreLinearOrLogarithmicAndClampedToTheAxis() {
        assertThat(Scale.linear(0, 4).fraction(1)).isEqualTo(0.25);
        assertThat(Scale.log(1, 10_000).fraction(100)).isCloseTo(0.5, within(1e-12));
        assertThat(Scale.log(1, 100).fraction(0)).isZero();
        assertThat(Scale.log(1, 100).fraction(1e6)).isEqualTo(1.0);
        assertThat(Scale.linear(0, 1).fraction(-3)).isZero();
        assertThat(Scale.linear(0, 1).fraction(Double.NaN)).isNaN();
    }

    @Test
    void aLogScaleNeedsPositiveEnds() {
        assertThatThrownBy(() -> Scale.log(0, 10)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Scale.linear(1, 1)).isInstanceOf(IllegalArgumentException.class);
    }
}
