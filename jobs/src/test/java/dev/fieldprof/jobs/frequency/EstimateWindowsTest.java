package dev.fieldprof.jobs.frequency;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.estimation.PartialSum;
import dev.fieldprof.jobs.frequency.core.ProgramIndex;
import dev.fieldprof.jobs.frequency.functions.EstimateWindows;
import dev.fieldprof.jobs.frequency.functions.Keys;
import dev.fieldprof.jobs.frequency.records.WindowSum;
import dev.fieldprof.jobs.io.EncodedRecord;
import dev.fieldprof.jobs.testing.TestProgramModels;
import dev.fieldprof.schemas.EstimateWindow;
import dev.fieldprof.schemas.ProgramModel;
import dev.fieldprof.schemas.RecordCodec;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.util.ProcessFunctionTestHarnesses;
import org.junit.jupiter.api.Test;

/** The estimating step on Flink's operator harness: waiting for a model and the running total. */
class EstimateWindowsTest {
    private static final RecordCodec<EstimateWindow> ESTIMATES =
            RecordCodec.of(EstimateWindow.class);

    private static final ProgramModel MODEL =
            TestProgramModels.model("app:1", 3, new int[][] {{0, 1}});
    private static final long GENERATION = ProgramIndex.of(MODEL).shape().generation();

    private static WindowSum sum(long start, long reports, long... sums) {
        return new WindowSum(
                "app:1",
                "default",
                GENERATION,
                -1,
                start,
                start + 60_000,
                new PartialSum(reports, sums));
    }

    @Test
    void waitsForTheModelThenEmitsWindowAndCumulativeEstimates() throws Exception {
        var harness =
                ProcessFunctionTestHarnesses.forKeyedBroadcastProcessFunction(
                        new EstimateWindows("reports", 0.25, 2),
                        new Keys.AppConfig(),
                        Types.TUPLE(Types.STRING, Types.STRING, Types.LONG),
                        EstimateWindows.PROGRAMS);
        // k = 4 per report: two reports hold 8 randomized events per method at most.
        harness.processElement(sum(0, 2, 5, 3, 4), 59_999);
        assertThat(harness.extractOutputValues()).isEmpty();

        harness.processBroadcastElement(TestProgramModels.update(MODEL), 0);
        harness.processElement(sum(60_000, 1, 1, 2, 3), 119_999);

        List<EncodedRecord> out = harness.extractOutputValues();
        assertThat(out).hasSize(4);
        assertThat(new String(out.get(0).key, StandardCharsets.UTF_8))
                .isEqualTo(
                        "app:1\u0000default\u0000"
                                + Long.toHexString(GENERATION)
                                + "\u00000-60000");
        assertThat(new String(out.get(1).key, StandardCharsets.UTF_8))
                .isEqualTo(
                        "app:1\u0000default\u0000"
                                + Long.toHexString(GENERATION)
                                + "\u0000cumulative");
        List<EstimateWindow> estimates = out.stream().map(r -> ESTIMATES.decode(r.value)).toList();
        assertThat(estimates)
                .extracting(
                        EstimateWindow::getCumulative,
                        w -> w.getWindowStartMillis().toEpochMilli(),
                        w -> w.getWindowEndMillis().toEpochMilli(),
                        EstimateWindow::getReports)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(false, 0L, 60_000L, 2L),
                        org.assertj.core.groups.Tuple.tuple(true, 0L, 60_000L, 2L),
                        org.assertj.core.groups.Tuple.tuple(false, 60_000L, 120_000L, 1L),
                        org.assertj.core.groups.Tuple.tuple(true, 0L, 120_000L, 3L));
        // Cumulative ĝ of three reports with F̂ = (6, 5, 7), a = 3, n·k = 12.
        double a = new dev.fieldprof.ldp.PrivacyParameters(2 * Math.log(3), 1, 4).a();
        assertThat(estimates.get(3).getNormalized().get(0))
                .isCloseTo(
                        ((a + 1) * 6 - 12) / (a - 1) / 12,
                        org.assertj.core.api.Assertions.within(1e-12));
        assertThat(estimates.get(3).getTop()).hasSize(2);
        harness.close();
    }

    @Test
    void aRevisionIsPublishedUnderItsWindowsKeyAndAddsOnlyItsNewReportsToTheCumulativeEstimate()
            throws Exception {
        var harness =
                ProcessFunctionTestHarnesses.forKeyedBroadcastProcessFunction(
                        new EstimateWindows("reports", 0.25, 2),
                        new Keys.AppConfig(),
                        Types.TUPLE(Types.STRING, Types.STRING, Types.LONG),
                        EstimateWindows.PROGRAMS);
        harness.processBroadcastElement(TestProgramModels.update(MODEL), 0);
        harness.processElement(sum(0, 2, 5, 3, 4), 59_999);
        // Revision 2 of the same window: three reports in all, one of them new.
        harness.processElement(
                WindowSum.revision(
                        "app:1",
                        "default",
                        GENERATION,
                        0,
                        60_000,
                        new PartialSum(3, new long[] {6, 5, 7}),
                        new PartialSum(1, new long[] {1, 2, 3}),
                        2),
                59_999);

        List<EncodedRecord> out = harness.extractOutputValues();
        List<EstimateWindow> estimates = out.stream().map(r -> ESTIMATES.decode(r.value)).toList();
        assertThat(estimates)
                .extracting(
                        EstimateWindow::getCumulative,
                        EstimateWindow::getRevision,
                        EstimateWindow::getReports)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(false, 1, 2L),
                        org.assertj.core.groups.Tuple.tuple(true, 1, 2L),
                        org.assertj.core.groups.Tuple.tuple(false, 2, 3L),
                        org.assertj.core.groups.Tuple.tuple(true, 2, 3L));
        assertThat(out.get(2).key).isEqualTo(out.get(0).key);
        assertThat(out.get(3).key).isEqualTo(out.get(1).key);
        harness.close();
    }
}
