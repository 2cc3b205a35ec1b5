package dev.fieldprof.ldp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

/**
 * The central guarantee of a shuffled batch against figures computed elsewhere: the bracket
 * published with the reference implementation of the clone reduction (n = 10^5, ε₀ = 4, δ = 10^−6:
 * between 0.16754 and 0.17279, closed form ≈ 0.54), an independent exact summation of the same
 * divergence over every c and a (scipy's binomials, no blocks, no truncation: 0.16976976 and
 * 0.18175150, each the upper end of a bisection interval of width 1.2e−7 and 6.5e−8), the closed
 * form evaluated by hand, and the one case with a formula (n = 1).
 */
class ShuffleAmplificationTest {
    private static final double LN9 = Math.log(9);

    @Test
    void aHundredThousandReportsAtEpsilonFourHoldEpsilonPointOneSeventeen() {
        ShuffleAmplification batch = new ShuffleAmplification(100_000, 4);
        double epsilon = batch.centralEpsilon(1e-6);

        // Exact summation: the threshold lies in (0.16976965, 0.16976977]; this is an upper
        // bound within the bisection tolerance (1e-7) of it.
        assertThat(epsilon).isBetween(0.16976965, 0.16976977 + 1.1e-7);
        assertThat(epsilon).isBetween(0.1675385583317841, 0.172790550755978);
        assertThat(epsilon).isLessThanOrEqualTo(0.17);
        assertThat(batch.delta(epsilon)).isLessThanOrEqualTo(1e-6);
        assertThat(batch.delta(epsilon - 2e-7)).isGreaterThan(1e-6);
        // ln(1 + tanh(2)·(8·√(e^4·ln(4·10^6))/√10^5 + 8·e^4/10^5)).
        assertThat(batch.closedForm(1e-6).getAsDouble())
                .isCloseTo(0.5346339916517077, within(1e-12));
    }

    @Test
    void tenThousandReportsAtLnNineHoldEpsilonPointOneNine() {
        ShuffleAmplification batch = new ShuffleAmplification(10_000, LN9);
        double epsilon = batch.centralEpsilon(1e-6);

        assertThat(epsilon).isBetween(0.18175143, 0.18175150 + 1.1e-7);
        assertThat(epsilon).isLessThanOrEqualTo(0.19);
        assertThat(batch.closedForm(1e-6).getAsDouble())
                .isCloseTo(0.5621031192472855, within(1e-12));
    }

    @Test
    void aSingleReportKeepsItsLocalEpsilonLessTheDeltaItMayFail() {
        // n = 1: P = (Δ, 1 − Δ), Q = (1 − Δ, Δ), so δ(ε) = α − e^ε·(1 − α) and the central ε is
        // ln((α − δ)/(1 − α)) = ε₀ + ln(1 − δ/α).
        double alpha = 1 / (1 + Math.exp(-1));
        ShuffleAmplification batch = new ShuffleAmplification(1, 1);
        assertThat(batch.delta(0.5)).isCloseTo(alpha - Math.exp(0.5) * (1 - alpha), within(1e-15));
        assertThat(batch.centralEpsilon(1e-6))
                .isBetween(1 + Math.log(1 - 1e-6 / alpha), 1 + Math.log(1 - 1e-6 / alpha) + 1.1e-7);
    }

    @Test
    void moreReportsGiveASmallerCentralEpsilon() {
        double previous = Double.POSITIVE_INFINITY;
        long[] sizes = {100, 1_000, 10_000, 100_000, 1_000_000};
        double[] expected = new double[sizes.length];
        for (int i = 0; i < sizes.length; i++) {
            expected[i] = new ShuffleAmplification(sizes[i], LN9).centralEpsilon(1e-6);
            assertThat(expected[i]).as("n = %d", sizes[i]).isLessThan(previous);
            previous = expected[i];
        }
        assertThat(expected[0]).isLessThan(LN9);
    }

    @Test
    void aLargerLocalEpsilonGivesALargerCentralEpsilon() {
        double previous = 0;
        for (double epsilon0 : new double[] {0.5, 1, Math.log(3), 2, LN9, 4, 6, 8}) {
            double central = new ShuffleAmplification(10_000, epsilon0).centralEpsilon(1e-6);
            assertThat(central).as("epsilon0 %s", epsilon0).isGreaterThan(previous);
            assertThat(central).as("epsilon0 %s", epsilon0).isLessThan(epsilon0);
            previous = central;
        }
    }

    @Test
    void theNumericalBoundIsNeverLooserThanTheClosedForm() {
        for (long n : new long[] {1_000, 10_000, 100_000}) {
            for (double epsilon0 : new double[] {0.5, 1, 2, 4}) {
                ShuffleAmplification batch = new ShuffleAmplification(n, epsilon0);
                OptionalDouble closed = batch.closedForm(1e-6);
                if (closed.isPresent()) {
                    assertThat(batch.centralEpsilon(1e-6))
                            .as("n %d, epsilon0 %s", n, epsilon0)
                            .isLessThan(closed.getAsDouble());
                    assertThat(batch.delta(closed.getAsDouble())).isLessThanOrEqualTo(1e-6);
                }
            }
        }
    }

    @Test
    void theClosedFormAppliesOnlyUpToItsLimit() {
        // ln(10^5/(16·ln(2·10^6))) = 6.0656.
        assertThat(ShuffleAmplification.closedFormLimit(100_000, 1e-6))
                .isCloseTo(6.065591186073028, within(1e-12));
        assertThat(ShuffleAmplification.closedForm(100_000, 6.06, 1e-6)).isPresent();
        assertThat(ShuffleAmplification.closedForm(100_000, 6.07, 1e-6)).isEmpty();
        assertThat(ShuffleAmplification.closedForm(100, 0.1, 1e-6)).isEmpty();
    }

    @Test
    void deltaFallsWithEpsilonAndVanishesAtTheLocalEpsilon() {
        ShuffleAmplification batch = new ShuffleAmplification(5_000, 2);
        double previous = 1;
        for (double epsilon = 0; epsilon < 2; epsilon += 0.05) {
            double delta = batch.delta(epsilon);
            assertThat(delta).as("epsilon %s", epsilon).isLessThanOrEqualTo(previous);
            previous = delta;
        }
        assertThat(batch.delta(2)).isZero();
        // The exact summation: 0.023356284362940783 and 3.220786792622242e-19. Never below them.
        assertThat(batch.delta(0)).isBetween(0.023356284362940783, 0.023356284362940783 + 1e-12);
        assertThat(batch.delta(0.5))
                .isBetween(3.220786792622242e-19, 3.220786792622242e-19 * (1 + 1e-6));
    }

    @Test
    void aLocalEpsilonTooLargeForAnyCloneIsNotAmplified() {
        // e^−50·10^6 ≈ 2e−16 expected clones: the central ε is ε₀ less what δ buys, as for n = 1.
        double alpha = 1 / (1 + Math.exp(-50));
        double central = new ShuffleAmplification(1_000_000, 50).centralEpsilon(1e-6);
        assertThat(central).isBetween(50 + Math.log(1 - 1e-6 / alpha) - 1e-6, 50.0);
    }

    @Test
    void refusesWhatHasNoMeaning() {
        assertThatThrownBy(() -> new ShuffleAmplification(0, 1))
                .hasMessage("the batch size must be in [1, 10^9], got 0");
        assertThatThrownBy(() -> new ShuffleAmplification(10, 0))
                .hasMessage("epsilon0 must be in (0, 50.0], got 0.0");
        assertThatThrownBy(() -> new ShuffleAmplification(10, Double.NaN))
                .hasMessage("epsilon0 must be in (0, 50.0], got NaN");
        assertThatThrownBy(() -> new ShuffleAmplification(10, 51))
                .hasMessage("epsilon0 must be in (0, 50.0], got 51.0");
        ShuffleAmplification batch = new ShuffleAmplification(10, 1);
        assertThatThrownBy(() -> batch.centralEpsilon(1))
                .hasMessage("delta must be in (0, 1), got 1.0");
        assertThatThrownBy(() -> batch.centralEpsilon(0))
                .hasMessage("delta must be in (0, 1), got 0.0");
        assertThatThrownBy(() -> batch.delta(-1)).hasMessage("epsilon must be >= 0, got -1.0");
    }
}
