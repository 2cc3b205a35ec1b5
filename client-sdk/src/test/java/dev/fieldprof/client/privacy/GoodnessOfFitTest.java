package dev.fieldprof.client.privacy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class GoodnessOfFitTest {
    @Test
    void upperTailMatchesKnownChiSquareQuantiles() {
        // Table values: chi2(1) 3.841 -> 0.05, chi2(10) 23.209 -> 0.01, chi2(100) 124.342 -> 0.05.
        assertThat(GoodnessOfFit.upperTail(3.841459, 1)).isCloseTo(0.05, within(1e-6));
        assertThat(GoodnessOfFit.upperTail(23.209251, 10)).isCloseTo(0.01, within(1e-6));
        assertThat(GoodnessOfFit.upperTail(124.342113, 100)).isCloseTo(0.05, within(1e-6));
        assertThat(GoodnessOfFit.upperTail(2, 2)).isCloseTo(Math.exp(-1), within(1e-12));
    }
}
