package dev.fieldprof.jobs.frequency;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.jobs.frequency.functions.Keys;
import dev.fieldprof.jobs.frequency.functions.ValidateReports;
import dev.fieldprof.jobs.frequency.records.ProgramUpdate;
import dev.fieldprof.jobs.frequency.records.RawRecord;
import dev.fieldprof.jobs.frequency.records.ReportRecord;
import dev.fieldprof.schemas.DeadLetter;
import dev.fieldprof.schemas.DeadLetterReason;
import dev.fieldprof.schemas.ProgramModel;
import dev.fieldprof.schemas.RecordCodec;
import java.time.Duration;
import java.util.List;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.streaming.util.KeyedBroadcastOperatorTestHarness;
import org.apache.flink.streaming.util.ProcessFunctionTestHarnesses;
import org.junit.jupiter.api.Test;

/** State, timers and watermarks of the validation step, on Flink's operator harness. */
class ValidateReportsTest {
    private static final RecordCodec<DeadLetter> LETTERS = RecordCodec.of(DeadLetter.class);
    private static final RecordCodec<ProgramModel> PROGRAMS = RecordCodec.of(ProgramModel.class);
    private static final long WAIT = 300_000;
    private static final long WINDOW = 60_000;

    private static KeyedBroadcastOperatorTestHarness<
                    Tuple2<String, Integer>, ReportRecord, ProgramUpdate, ReportRecord>
            harness(int maxPending) throws Exception {
        return ProcessFunctionTestHarnesses.forKeyedBroadcastProcessFunction(
                new ValidateReports(Duration.ofMillis(WAIT), maxPending, Duration.ofMillis(WINDOW)),
                new Keys.AppShard(1),
                Types.TUPLE(Types.STRING, Types.INT),
                ValidateReports.PROGRAMS);
    }

    private static ReportRecord report(String id, String app, long timestamp, int... counts) {
        return new ReportRecord(
                id,
                "device",
                app,
                "default",
                4,
                counts,
                new RawRecord("reports", 0, timestamp, timestamp, null, new byte[] {1}));
    }

    private static ProgramUpdate model(String app) {
        ProgramModel model = FrequencyEstimationJobITCase.model(app, 3, new int[][] {{0, 1}});
        return new ProgramUpdate(app, PROGRAMS.encode(model));
    }

    private static List<DeadLetter> letters(KeyedBroadcastOperatorTestHarness<?, ?, ?, ?> harness) {
        var side = harness.getSideOutput(DeadLetters.TAG);
        if (side == null) {
            return List.of();
        }
        return side.stream().map(r -> LETTERS.decode(r.getValue().value)).toList();
    }

    @Test
    void releasesWaitingReportsWhenTheirModelArrives() throws Exception {
        var harness = harness(10);
        harness.processElement(report("r1", "app:1", 1_000, 1, 2, 1), 1_000);
        assertThat(harness.extractOutputValues()).isEmpty();
        harness.processBroadcastElement(model("app:1"), 0);
        assertThat(harness.extractOutputValues()).extracting(r -> r.reportId).containsExactly("r1");
        // Known model: straight through.
        harness.processElement(report("r2", "app:1", 2_000, 0, 0, 4), 2_000);
        assertThat(harness.extractOutputValues())
                .extracting(r -> r.reportId)
                .containsExactly("r1", "r2");
        assertThat(letters(harness)).isEmpty();
        harness.close();
    }

    @Test
    void deadLettersReportsWhoseModelNeverComes() throws Exception {
        var harness = harness(10);
        harness.processElement(report("r1", "ghost:1", 1_000, 1, 2, 1), 1_000);
        harness.processElement(report("r2", "ghost:1", 5_000, 1, 2, 1), 5_000);
        harness.processBroadcastWatermark(Long.MAX_VALUE);
        harness.processWatermark(1_000 + WAIT);
        assertThat(letters(harness))
                .extracting(DeadLetter::getReasonCode, DeadLetter::getOffset)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(
                                DeadLetterReason.MODEL_WAIT_EXPIRED, 1_000L));
        harness.processWatermark(5_000 + WAIT);
        assertThat(letters(harness)).hasSize(2);
        assertThat(harness.extractOutputValues()).isEmpty();
        harness.close();
    }

    @Test
    void boundsTheReportsThatWait() throws Exception {
        var harness = harness(1);
        harness.processElement(report("r1", "app:1", 1_000, 1, 2, 1), 1_000);
        harness.processElement(report("r2", "app:1", 2_000, 1, 2, 1), 2_000);
        assertThat(letters(harness))
                .singleElement()
                .satisfies(l -> assertThat(l.getReason()).contains("1 reports already wait"));
        harness.processBroadcastElement(model("app:1"), 0);
        assertThat(harness.extractOutputValues()).extracting(r -> r.reportId).containsExactly("r1");
        harness.close();
    }

    @Test
    void deadLettersAReleasedReportWhoseWindowClosed() throws Exception {
        var harness = harness(10);
        harness.processElement(report("r1", "app:1", 1_000, 1, 2, 1), 1_000);
        harness.processBroadcastWatermark(WINDOW);
        harness.processWatermark(WINDOW);
        harness.processBroadcastElement(model("app:1"), WINDOW);
        assertThat(harness.extractOutputValues()).isEmpty();
        assertThat(letters(harness))
                .singleElement()
                .satisfies(l -> assertThat(l.getReason()).startsWith("late"));
        harness.close();
    }

    @Test
    void rejectsReportsThatDoNotFitTheModel() throws Exception {
        var harness = harness(10);
        harness.processBroadcastElement(model("app:1"), 0);
        harness.processElement(report("ok", "app:1", 1_000, 4, 0, 0), 1_000);
        harness.processElement(report("long", "app:1", 1_000, 1, 1, 1, 1), 1_000);
        harness.processElement(report("neg", "app:1", 1_000, 1, -1, 4), 1_000);
        assertThat(harness.extractOutputValues()).extracting(r -> r.reportId).containsExactly("ok");
        assertThat(letters(harness))
                .extracting(DeadLetter::getReasonCode)
                .containsExactly(
                        DeadLetterReason.WRONG_VECTOR_LENGTH, DeadLetterReason.COUNT_OUT_OF_RANGE);
        harness.close();
    }
}
