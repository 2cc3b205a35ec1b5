package dev.fieldprof.jobs.paths;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.client.paths.EdgeModel;
import dev.fieldprof.client.paths.EdgeModelRecords;
import dev.fieldprof.client.paths.ModelUpdater;
import dev.fieldprof.jobs.frequency.records.EncodedRecord;
import dev.fieldprof.jobs.frequency.records.RawRecord;
import dev.fieldprof.schemas.DeadLetter;
import dev.fieldprof.schemas.RecordCodec;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.util.KeyedBroadcastOperatorTestHarness;
import org.apache.flink.streaming.util.ProcessFunctionTestHarnesses;
import org.junit.jupiter.api.Test;

/** The learner's own windows: timers, broadcast branch tables, late reports. */
class LearnEdgeModelsTest {
    private static final String APP = PathModelJobITCase.APP;
    private static final long TABLE_WAIT = 60_000;
    private static final RecordCodec<DeadLetter> LETTERS = RecordCodec.of(DeadLetter.class);
    private static final RecordCodec<dev.fieldprof.schemas.EdgeModel> MODELS =
            RecordCodec.of(dev.fieldprof.schemas.EdgeModel.class);

    private static KeyedBroadcastOperatorTestHarness<
                    String, PathReportEnvelope, ProgramBranches, EncodedRecord>
            harness(Map<String, String> overrides) throws Exception {
        var harness =
                ProcessFunctionTestHarnesses.forKeyedBroadcastProcessFunction(
                        new LearnEdgeModels(
                                overrides,
                                Duration.ofMinutes(1),
                                false,
                                4,
                                ModelUpdater.DEFAULT_TARGET_TOTAL,
                                Duration.ofMillis(TABLE_WAIT),
                                Map.of()),
                        new PathModelJob.AppVersionKey(),
                        Types.STRING,
                        LearnEdgeModels.BRANCHES);
        // The program models never hold event time back (EventTime.ofReferenceData in the job).
        harness.processBroadcastWatermark(Long.MAX_VALUE);
        return harness;
    }

    private static PathReportEnvelope report(String id, byte[] coded, long offset, long ts) {
        return new PathReportEnvelope(
                APP, id, 0, coded, new RawRecord("paths", 0, offset, ts, null, new byte[] {1}));
    }

    private static List<String> letters(KeyedBroadcastOperatorTestHarness<?, ?, ?, ?> harness) {
        var side = harness.getSideOutput(PathDeadLetters.TAG);
        if (side == null) {
            return List.of();
        }
        return side.stream()
                .map(r -> LETTERS.decode(r.getValue().value))
                .map(l -> l.getOffset() + " " + l.getReasonCode() + " " + l.getReason())
                .toList();
    }

    @Test
    void usesTheTableBroadcastBeforeTheWindowClosesAndDeadLettersLateReports() throws Exception {
        var harness = harness(Map.of());
        EdgeModel v0 = EdgeModel.uniform(PathModelJobITCase.TABLE);
        byte[] first = PathModelJobITCase.codedRun(v0, 1);
        // The report comes before its app version's program model: it waits in its window.
        harness.processElement(report("a", first, 0, 1_000), 1_000);
        harness.processBroadcastElement(new ProgramBranches(APP, PathModelJobITCase.BRANCHES), 0);
        assertThat(harness.extractOutputValues()).isEmpty();
        harness.processWatermark(59_999);

        PathModelAggregator expected =
                new PathModelAggregator(v0, 4, new ModelUpdater(ModelUpdater.DEFAULT_TARGET_TOTAL));
        expected.add(first);
        EdgeModel v1 = expected.closeWindow().orElseThrow();
        List<EncodedRecord> out = harness.extractOutputValues();
        assertThat(out).hasSize(1);
        dev.fieldprof.schemas.EdgeModel record = MODELS.decode(out.get(0).value);
        assertThat(record.getVersion()).isEqualTo(1L);
        assertThat(EdgeModelRecords.fromRecord(record, PathModelJobITCase.TABLE)).isEqualTo(v1);

        // Its window has closed: a report of it now is late.
        harness.processElement(report("late", first, 1, 30_000), 30_000);
        assertThat(letters(harness))
                .containsExactly(
                        "1 LATE late: record time 30000 is in a window that closed at" + " 60000");
        harness.close();
    }

    @Test
    void aClosedWindowWaitsForItsTableAndIsLearnedWhenItComes() throws Exception {
        var harness = harness(Map.of());
        EdgeModel v0 = EdgeModel.uniform(PathModelJobITCase.TABLE);
        byte[] first = PathModelJobITCase.codedRun(v0, 2);
        harness.setProcessingTime(1_000);
        harness.processElement(report("a", first, 7, 1_000), 1_000);
        // The window closes before the program model is read (a job's start, a backlog).
        harness.processWatermark(59_999);
        assertThat(harness.extractOutputValues()).isEmpty();
        assertThat(letters(harness)).isEmpty();

        harness.setProcessingTime(1_000 + TABLE_WAIT - 1);
        harness.processBroadcastElement(new ProgramBranches(APP, PathModelJobITCase.BRANCHES), 0);
        PathModelAggregator expected =
                new PathModelAggregator(v0, 4, new ModelUpdater(ModelUpdater.DEFAULT_TARGET_TOTAL));
        expected.add(first);
        EdgeModel v1 = expected.closeWindow().orElseThrow();
        List<EncodedRecord> out = harness.extractOutputValues();
        assertThat(out).hasSize(1);
        dev.fieldprof.schemas.EdgeModel record = MODELS.decode(out.get(0).value);
        assertThat(record.getVersion()).isEqualTo(1L);
        assertThat(record.getCreatedAtMillis().toEpochMilli()).isEqualTo(60_000L);
        assertThat(EdgeModelRecords.fromRecord(record, PathModelJobITCase.TABLE)).isEqualTo(v1);

        // The wait's timer still fires, and finds nothing left to expire.
        harness.setProcessingTime(1_000 + TABLE_WAIT);
        assertThat(letters(harness)).isEmpty();
        harness.close();
    }

    @Test
    void deadLettersTheWindowsWhoseTableDoesNotComeWithinTheWait() throws Exception {
        var harness = harness(Map.of());
        byte[] coded = PathModelJobITCase.codedRun(EdgeModel.uniform(PathModelJobITCase.TABLE), 2);
        harness.setProcessingTime(1_000);
        harness.processElement(report("a", coded, 7, 1_000), 1_000);
        harness.processElement(report("b", coded, 8, 61_000), 61_000);
        harness.processWatermark(59_999);
        harness.setProcessingTime(1_000 + TABLE_WAIT - 1);
        assertThat(letters(harness)).isEmpty();
        harness.setProcessingTime(1_000 + TABLE_WAIT);
        assertThat(letters(harness))
                .containsExactly(
                        "7 UNKNOWN_APP_VERSION no branch table for app version paths:1 within PT1M"
                                + " of its window's end: no program model with CFGs and no"
                                + " --branches");
        // A table arriving later serves the windows still open.
        harness.processBroadcastElement(new ProgramBranches(APP, PathModelJobITCase.BRANCHES), 0);
        harness.processWatermark(119_999);
        assertThat(harness.extractOutputValues()).hasSize(1);
        assertThat(letters(harness)).hasSize(1);
        harness.close();
    }

    @Test
    void deadLettersWhatStillWaitsForATableWhenTheInputEnds() throws Exception {
        var harness = harness(Map.of());
        byte[] coded = PathModelJobITCase.codedRun(EdgeModel.uniform(PathModelJobITCase.TABLE), 2);
        harness.processElement(report("a", coded, 7, 1_000), 1_000);
        harness.processWatermark(59_999);
        assertThat(letters(harness)).isEmpty();
        harness.processWatermark(Long.MAX_VALUE);
        assertThat(letters(harness))
                .containsExactly(
                        "7 UNKNOWN_APP_VERSION no branch table for app version paths:1 before the"
                                + " input ended: no program model with CFGs and no --branches");
        harness.close();
    }

    @Test
    void theBranchesOverrideWinsOverTheProgramModel() throws Exception {
        var harness = harness(Map.of(APP, PathModelJobITCase.BRANCHES));
        byte[] coded = PathModelJobITCase.codedRun(EdgeModel.uniform(PathModelJobITCase.TABLE), 3);
        harness.processBroadcastElement(
                new ProgramBranches(APP, "fieldprof-branches 1\nmethods 3\n2 0:2\n"), 0);
        harness.processElement(report("a", coded, 0, 1_000), 1_000);
        harness.processWatermark(59_999);
        assertThat(letters(harness)).isEmpty();
        assertThat(harness.extractOutputValues()).hasSize(1);
        harness.close();
    }
}
