package dev.fieldprof.benchmarks.estimation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fieldprof.jobs.frequency.core.ReportValidation;
import org.junit.jupiter.api.Test;

/** The benchmarked per-report work sums exactly what the fixture reports hold; fast. */
class ReportIngestTest {
    @Test
    void sumsEveryFixtureReportOfTheRingOnce() {
        ReportIngest ingest = new ReportIngest(50, 8, 3);
        long[] expected = new long[50];
        for (int i = 0; i < 8; i++) {
            int[] counts = ReportValidation.decode(ingest.record(i)).counts;
            for (int v = 0; v < counts.length; v++) {
                expected[v] += counts[v];
            }
        }
        long reports = 0;
        for (int i = 0; i < 8; i++) {
            reports = ingest.ingestNext();
        }
        assertThat(reports).isEqualTo(8);
        assertThat(ingest.sum().getSums()).containsExactly(expected);
    }

    @Test
    void rejectsARingThatIsNoPowerOfTwo() {
        assertThatThrownBy(() -> new ReportIngest(50, 6, 3))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("power of two");
    }
}
