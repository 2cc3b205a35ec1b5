package dev.fieldprof.ldp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** The chi-square machinery the statistical tests rely on: deterministic, exact expectations. */
class GoodnessOfFitTest {
    @Test
    void upperTailMatchesKnownChiSquareQuantiles() {
        // Table values: chi2(1) 3.841 -> 0.05, chi2(10) 23.209 -> 0.01, chi2(100) 124.342 -> 0.05.
        assertThat(GoodnessOfFit.upperTail(3.841459, 1)).isCloseTo(0.05, within(1e-6));
        assertThat(GoodnessOfFit.upperTail(23.209251, 10)).isCloseTo(0.01, within(1e-6));
        assertThat(GoodnessOfFit.upperTail(124.342113, 100)).isCloseTo(0.05, within(1e-6));
        assertThat(GoodnessOfFit.upperTail(2, 2)).isCloseTo(Math.exp(-1), within(1e-12));
        // Far tails, computed with mpmath's gammainc at 40 digits.
        assertThat(GoodnessOfFit.upperTail(30, 7))
                .isCloseTo(9.4959725081341838e-5, within(1e-5 * 9.5e-5));
        assertThat(GoodnessOfFit.upperTail(120, 51))
                .isCloseTo(1.7288918608233702e-7, within(1e-5 * 1.73e-7));
    }

    @Test
    void upperTailMatchesClosedFormsForEvenAndOddDegrees() {
        // Even df = 2m: Q = e^(-x/2) sum_{j<m} (x/2)^j / j!. Odd df: Q(df + 2) = Q(df) +
        // (x/2)^(df/2) e^(-x/2) / Gamma(df/2 + 1), which ties every odd df to df = 1.
        for (double x : new double[] {0.5, 3, 17, 45, 120, 400}) {
            double term = Math.exp(-x / 2);
            double sum = 0;
            for (int m = 1; m <= 150; m++) {
                sum += term;
                term *= (x / 2) / m;
                double expected = sum;
                assertThat(GoodnessOfFit.upperTail(x, 2 * m))
                        .as("x=%s df=%d", x, 2 * m)
                        .isCloseTo(expected, within(1e-11 * expected + 1e-300));
            }
            for (int df = 1; df < 300; df += 2) {
                double step =
                        Math.exp(
                                (df / 2.0) * Math.log(x / 2)
                                        - x / 2
                                        - GoodnessOfFit.logGamma(df / 2.0 + 1));
                double expected = GoodnessOfFit.upperTail(x, df) + step;
                assertThat(GoodnessOfFit.upperTail(x, df + 2))
                        .as("x=%s df=%d", x, df + 2)
                        .isCloseTo(expected, within(1e-10 * expected + 1e-300));
            }
        }
    }

    @Test
    void quantileInvertsTheUpperTail() {
        // Reference quantiles from mpmath (findroot on gammainc, 40 digits).
        assertThat(GoodnessOfFit.quantile(1e-6, 1)).isCloseTo(23.928126976934829, within(1e-9));
        assertThat(GoodnessOfFit.quantile(1e-6, 10)).isCloseTo(46.863046846784383, within(1e-9));
        assertThat(GoodnessOfFit.quantile(1e-6, 100)).isCloseTo(182.12677711954758, within(1e-8));
        assertThat(GoodnessOfFit.quantile(1e-7, 255)).isCloseTo(390.2420663698581, within(1e-8));
        assertThat(GoodnessOfFit.quantile(1e-9, 3)).isCloseTo(44.841275330562401, within(1e-9));
        // Closed form for df = 2: -2 ln(alpha).
        assertThat(GoodnessOfFit.quantile(1e-6, 2)).isCloseTo(-2 * Math.log(1e-6), within(1e-9));
    }

    @Test
    void poolsSmallTailCellsIntoTheirNeighbours() {
        // Probabilities over 6 cells, 100 draws: expectations 1, 2, 30, 60, 4, 3. Left to right:
        // {1, 2, 30} = 33 closes the first cell, {60} the second, and the remainder {4, 3} = 7
        // reaches 5 and closes a third: 3 cells, df = 2.
        double[] probability = {0.01, 0.02, 0.30, 0.60, 0.04, 0.03};
        long[] observed = {1, 2, 30, 60, 4, 3};
        GoodnessOfFit.Result exact = GoodnessOfFit.test(observed, probability, 1e-6);
        assertThat(exact.degrees()).isEqualTo(2);
        assertThat(exact.statistic()).isCloseTo(0, within(1e-12));
        // Expectations 60, 38, 1, 1: the right remainder {1, 1} = 2 < 5 joins {38}: 2 cells.
        double[] rightSkew = {0.60, 0.38, 0.01, 0.01};
        GoodnessOfFit.Result pooled =
                GoodnessOfFit.test(new long[] {60, 36, 2, 2}, rightSkew, 1e-6);
        assertThat(pooled.degrees()).isEqualTo(1);
        // Cells (60 vs 60) and (40 vs 40): a draw in a tiny cell no longer blows the statistic up.
        assertThat(pooled.statistic()).isCloseTo(0, within(1e-12));
        assertThat(pooled.critical()).isCloseTo(23.928126976934829, within(1e-9));
    }

    @Test
    void tailCellsCarryTheMassBeyondTheWindow() {
        // Geometric pmf 2^-(x+1) on x >= 0, window [1, 3]: cell 0 holds x <= 1 (3/4), cell 2 holds
        // x >= 3 (1/8). 800 draws observed exactly at expectation give a statistic of 0.
        long[] observed = {600, 100, 100};
        GoodnessOfFit.Result result =
                GoodnessOfFit.test(observed, 1, x -> x < 0 ? 0 : Math.pow(0.5, x + 1), 1e-6);
        assertThat(result.degrees()).isEqualTo(2);
        assertThat(result.statistic()).isCloseTo(0, within(1e-9));
    }
}
