package dev.fieldprof.jobs.frequency.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.jobs.frequency.records.ShuffledBatches;
import dev.fieldprof.ldp.ShuffleAmplification;
import dev.fieldprof.schemas.EstimateWindow;
import org.junit.jupiter.api.Test;

/** The central (ε, δ) an estimate states: amplification at its smallest batch. */
class CentralGuaranteeTest {
    private static final double EPSILON0 = Math.log(9);

    private static EstimateWindow window() {
        return new EstimateWindow();
    }

    @Test
    void aShuffledEstimateHoldsTheGuaranteeOfItsSmallestBatch() {
        EstimateWindow window = window();
        ShuffledBatches batches =
                new ShuffledBatches().add("b-1", 20_000).add("b-2", 10_000).add("b-3", 15_000);

        new CentralGuarantee().state(window, batches, new ShuffleTerms(5_000, 1e-6), EPSILON0);

        assertThat(window.getShuffledBatchSizes()).containsExactly(10_000, 15_000, 20_000);
        assertThat(window.getCentralEpsilon())
                .isEqualTo(new ShuffleAmplification(10_000, EPSILON0).centralEpsilon(1e-6));
        // The figure the docs print for 10,000 reports at ln 9 (0.1818, rounded up).
        assertThat(window.getCentralEpsilon()).isBetween(0.1817, 0.1818);
        assertThat(window.getCentralDelta()).isEqualTo(1e-6);
    }

    @Test
    void aLocalOnlyEstimateStatesNoCentralGuarantee() {
        EstimateWindow noTerms = window();
        new CentralGuarantee()
                .state(noTerms, new ShuffledBatches().add("b-1", 10_000), null, EPSILON0);
        EstimateWindow noBatches = window();
        new CentralGuarantee()
                .state(noBatches, new ShuffledBatches(), new ShuffleTerms(100, 1e-6), EPSILON0);

        // Left as they were: the builder's defaults (no sizes, 0, 0) in the job's windows.
        for (EstimateWindow window : new EstimateWindow[] {noTerms, noBatches}) {
            assertThat(window.getShuffledBatchSizes()).isNull();
            assertThat(window.getCentralEpsilon()).isEqualTo(0.0);
            assertThat(window.getCentralDelta()).isEqualTo(0.0);
        }
    }

    @Test
    void anEpsilon0BeyondTheBoundsRangeIsNotAmplified() {
        assertThat(new CentralGuarantee().centralEpsilon(10_000, 60, 1e-6)).isEqualTo(60.0);
    }
}
