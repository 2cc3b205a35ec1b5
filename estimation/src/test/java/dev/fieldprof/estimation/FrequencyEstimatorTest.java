package dev.fieldprof.estimation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.fieldprof.ldp.PrivacyParameters;
import java.util.List;
import org.junit.jupiter.api.Test;

class FrequencyEstimatorTest {
    /** ε = 2·ln 3 and t = 1 give a = 3 (up to the rounding of exp and log), p = 3/4. */
    private static final PrivacyParameters A_IS_THREE =
            new PrivacyParameters(2 * Math.log(3), 1, 4);

    @Test
    void derivesAAndPFromEpsilonAndT() {
        PrivacyParameters parameters = new PrivacyParameters(Math.log(9), 10, 100);
        assertThat(parameters.a()).isCloseTo(Math.pow(9, 1.0 / 20), within(1e-15));
        assertThat(A_IS_THREE.a()).isCloseTo(3.0, within(1e-15));
        assertThat(A_IS_THREE.p()).isCloseTo(0.75, within(1e-15));
    }

    @Test
    void estimatesExactlyFromKnownSums() {
        // Two reports with k = 4: F̂ = (5, 3, 4), n·k = 8, Ĝ = (4·F̂ − 8)/2 = 2·F̂ − 4.
        PartialSum sum = new PartialSum().add(new int[] {3, 1, 0}).add(List.of(2, 2, 4));
        FrequencyEstimate estimate = new FrequencyEstimator(A_IS_THREE).estimate(sum);
        assertThat(estimate.reports()).isEqualTo(2);
        assertThat(estimate.unbiased()).containsExactly(new double[] {6, 2, 4}, within(1e-12));
        assertThat(estimate.normalized())
                .containsExactly(new double[] {0.75, 0.25, 0.5}, within(1e-13));
        assertThat(estimate.standardError()).isCloseTo(Math.sqrt(3.0 / 8) / 2, within(1e-15));
        // ε-t: the variance of a reported count is k·p(1 − p) whatever the share, so every
        // method's standard error is the common one.
        assertThat(estimate.standardErrors())
                .containsExactly(
                        new double[] {
                            0.30618621784789724, 0.30618621784789724, 0.30618621784789724
                        },
                        within(1e-15));
    }

    /**
     * User-level: se(v) = √(μ̂(1 − μ̂)/n)/(p − q) with μ̂ = S(v)/n clamped into [q, p]. At |V| = 4,
     * ω = 1 (randomized response), ε = ln 3: p = 1/2 and q = 1/6, so p − q = 1/3; n = 12.
     */
    @Test
    void userLevelStandardErrorsArePlugInsClampedIntoQToP() {
        dev.fieldprof.ldp.SubsetSelection oracle =
                new dev.fieldprof.ldp.SubsetSelection(4, Math.log(3), 1);
        assertThat(oracle.p()).isCloseTo(0.5, within(1e-15));
        assertThat(oracle.q()).isCloseTo(1.0 / 6, within(1e-15));
        // S = 0: μ̂ = 0 clamps to q = 1/6: √((1/6)(5/6)/12)·3 = the share-0 error.
        assertThat(FrequencyEstimator.plugInStandardError(oracle, 0, 12))
                .isCloseTo(oracle.standardErrorAtZero(12), within(1e-15))
                .isCloseTo(0.3227486121839514, within(1e-15));
        // S = 3: μ̂ = 1/4 inside [q, p]: √((1/4)(3/4)/12)·3 = 0.375.
        assertThat(FrequencyEstimator.plugInStandardError(oracle, 3, 12))
                .isCloseTo(0.375, within(1e-15));
        // S = 12: μ̂ = 1 clamps to p = 1/2: √((1/2)(1/2)/12)·3 = the share-1 error.
        assertThat(FrequencyEstimator.plugInStandardError(oracle, 12, 12))
                .isCloseTo(oracle.standardError(1, 12), within(1e-15))
                .isCloseTo(0.4330127018922193, within(1e-15));
    }

    @Test
    void mergesShardsToTheSameSumAsOneStream() {
        PartialSum one = new PartialSum().add(new int[] {1, 2}).add(new int[] {3, 4});
        PartialSum shardA = new PartialSum().add(new int[] {1, 2});
        PartialSum shardB = new PartialSum(2).add(new int[] {3, 4});
        assertThat(new PartialSum().merge(shardA).merge(shardB)).isEqualTo(one);
        assertThat(one.getReports()).isEqualTo(2);
        assertThat(one.getSums()).containsExactly(4, 6);
    }

    @Test
    void rejectsVectorsOfAnotherWidth() {
        PartialSum sum = new PartialSum().add(new int[] {1, 2});
        assertThatThrownBy(() -> sum.add(new int[] {1, 2, 3}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("length 3");
    }

    @Test
    void rejectsEstimateOfNoReports() {
        assertThatThrownBy(() -> new FrequencyEstimator(A_IS_THREE).estimate(new PartialSum(3)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void computesHotSetRelativeErrorAndCoverage() {
        double[] truth = {0.5, 0.2, 0.15, 0.1, 0.05};
        double[] estimate = {0.4, 0.1, 0.2, 0.2, 0.1};
        assertThat(FrequencyMetrics.hotSet(truth, 0.25)).containsExactly(0, 1, 2);
        assertThat(FrequencyMetrics.hotSet(estimate, 0.25)).containsExactly(0, 2, 3, 1, 4);
        assertThat(FrequencyMetrics.top(estimate, 2)).containsExactly(0, 2);
        // |0.1| + |0.1| + |0.05| + |0.1| + |0.05| = 0.4 over a total of 1.
        assertThat(FrequencyMetrics.relativeError(truth, estimate)).isCloseTo(0.4, within(1e-15));
        assertThat(FrequencyMetrics.relativeError(truth, estimate, new int[] {0, 1}))
                .isCloseTo(0.2 / 0.7, within(1e-15));
        double[] missesOne = {0.5, 0.0, 0.3, 0.1, 0.1};
        assertThat(FrequencyMetrics.hotMethodCoverage(truth, missesOne, 0.25))
                .isCloseTo(2.0 / 3, within(1e-15));
    }
}
