package dev.fieldprof.jobs.frequency.validation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import dev.fieldprof.jobs.frequency.core.DeadLetters;
import dev.fieldprof.jobs.frequency.core.ProgramIndex;
import dev.fieldprof.jobs.frequency.functions.Keys;
import dev.fieldprof.jobs.frequency.records.ProgramUpdate;
import dev.fieldprof.jobs.frequency.records.ReportRecord;
import dev.fieldprof.jobs.io.RawRecord;
import dev.fieldprof.jobs.testing.TestProgramModels;
import dev.fieldprof.schemas.DeadLetter;
import dev.fieldprof.schemas.DeadLetterReason;
import dev.fieldprof.schemas.ProgramModel;
import dev.fieldprof.schemas.RecordCodec;
import java.time.Duration;
import java.util.List;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.runtime.watermarkstatus.WatermarkStatus;
import org.apache.flink.streaming.util.AbstractStreamOperatorTestHarness;
import org.apache.flink.streaming.util.KeyedTwoInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;

/** State, timers and the watermark hold of the validation step, on Flink's operator harness. */
class ValidateReportsTest {
    private static final RecordCodec<DeadLetter> LETTERS = RecordCodec.of(DeadLetter.class);
    private static final long WAIT = 300_000;

    private static KeyedTwoInputStreamOperatorTestHarness<
                    org.apache.flink.api.java.tuple.Tuple2<String, Integer>,
                    ReportRecord,
                    ProgramUpdate,
                    ReportRecord>
            harness(int maxPending) throws Exception {
        var harness =
                new KeyedTwoInputStreamOperatorTestHarness<>(
                        new ValidateReports(
                                Duration.ofMillis(WAIT), Duration.ofMillis(WAIT), maxPending),
                        new Keys.AppShard(1),
                        new Keys.ProgramShard(),
                        Types.TUPLE(Types.STRING, Types.INT));
        harness.open();
        return harness;
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
        return TestProgramModels.update(TestProgramModels.model(app, 3, new int[][] {{0, 1}}));
    }

    private static List<DeadLetter> letters(KeyedTwoInputStreamOperatorTestHarness<?, ?, ?, ?> h) {
        var side = h.getSideOutput(DeadLetters.TAG);
        return side == null
                ? List.of()
                : side.stream().map(r -> LETTERS.decode(r.getValue().value)).toList();
    }

    /** Records (id@timestamp), watermarks (W) and statuses, in output order. */
    private static List<String> output(KeyedTwoInputStreamOperatorTestHarness<?, ?, ?, ?> h) {
        return h.getOutput().stream()
                .map(
                        element -> {
                            if (element instanceof StreamRecord<?> record
                                    && record.getValue() instanceof ReportRecord report) {
                                return report.reportId + "@" + record.getTimestamp();
                            }
                            if (element instanceof Watermark watermark) {
                                return "W" + watermark.getTimestamp();
                            }
                            return element.toString();
                        })
                .toList();
    }

    @Test
    void releasesWaitingReportsWithTheirOwnTimestampWhenTheirModelArrives() throws Exception {
        var harness = harness(10);
        harness.processElement1(report("r1", "app:1", 1_000, 1, 2, 1), 1_000);
        assertThat(harness.extractOutputValues()).isEmpty();
        harness.processElement2(model("app:1"), 90_000);
        // Known model: straight through.
        harness.processElement1(report("r2", "app:1", 2_000, 0, 0, 4), 2_000);
        assertThat(output(harness)).containsExactly("r1@1000", "r2@2000");
        assertThat(letters(harness)).isEmpty();
        // Valid reports go on without their bytes, but with where they are in Kafka.
        assertThat(harness.extractOutputValues())
                .extracting(r -> r.raw.value, r -> r.raw.topic, r -> r.raw.offset)
                .containsExactly(tuple(null, "reports", 1_000L), tuple(null, "reports", 2_000L));
        harness.close();
    }

    @Test
    void holdsTheWatermarkBelowAWaitingReportUntilItsModelArrives() throws Exception {
        var harness = harness(10);
        harness.processWatermark2(new Watermark(Long.MAX_VALUE)); // models never hold time
        harness.processWatermark1(new Watermark(500));
        harness.processElement1(report("r1", "app:1", 1_000, 1, 2, 1), 1_000);
        harness.processWatermark1(new Watermark(70_000));
        harness.processWatermark1(new Watermark(80_000));
        harness.processElement2(model("app:1"), 200_000);
        assertThat(output(harness)).containsExactly("W500", "W999", "r1@1000", "W80000");
        harness.close();
    }

    @Test
    void letsTheWatermarkOutWhenTheModelArrivesAfterEveryInputWentIdle() throws Exception {
        var harness = harness(10);
        harness.processWatermarkStatus2(WatermarkStatus.IDLE);
        harness.processElement1(report("r1", "app:1", 1_000, 1, 2, 1), 1_000);
        harness.processWatermark1(new Watermark(70_000));
        harness.processWatermarkStatus1(WatermarkStatus.IDLE);
        harness.processElement2(model("app:1"), 200_000);
        assertThat(output(harness))
                .containsExactly(
                        "W999",
                        WatermarkStatus.IDLE.toString(),
                        "r1@1000",
                        WatermarkStatus.ACTIVE.toString(),
                        "W70000",
                        WatermarkStatus.IDLE.toString());
        harness.close();
    }

    @Test
    void deadLettersReportsWhoseModelDoesNotComeWithinTheWaitAndThenLetsTimeGo() throws Exception {
        var harness = harness(10);
        harness.processWatermark2(new Watermark(Long.MAX_VALUE));
        harness.setProcessingTime(10_000);
        harness.processElement1(report("r1", "ghost:1", 1_000, 1, 2, 1), 1_000);
        harness.setProcessingTime(20_000);
        harness.processElement1(report("r2", "ghost:1", 5_000, 1, 2, 1), 5_000);
        // Hours of event time pass (a backlog): the wait is wall-clock, nothing expires.
        harness.processWatermark1(new Watermark(3_600_000));
        assertThat(letters(harness)).isEmpty();
        harness.setProcessingTime(10_000 + WAIT);
        assertThat(letters(harness))
                .extracting(DeadLetter::getReasonCode, DeadLetter::getOffset)
                .containsExactly(tuple(DeadLetterReason.MODEL_WAIT_EXPIRED, 1_000L));
        harness.setProcessingTime(20_000 + WAIT);
        assertThat(letters(harness)).hasSize(2);
        assertThat(output(harness)).containsExactly("W999", "W4999", "W3600000");
        harness.close();
    }

    @Test
    void deadLettersTheReportsStillWaitingWhenBothInputsEnd() throws Exception {
        var harness = harness(10);
        harness.processElement1(report("r1", "ghost:1", 1_000, 1, 2, 1), 1_000);
        harness.processWatermark1(new Watermark(Long.MAX_VALUE));
        harness.processWatermark2(new Watermark(Long.MAX_VALUE));
        harness.endInput2();
        assertThat(letters(harness)).isEmpty();
        harness.endInput1();
        assertThat(letters(harness))
                .singleElement()
                .satisfies(
                        l -> {
                            assertThat(l.getReasonCode())
                                    .isEqualTo(DeadLetterReason.MODEL_WAIT_EXPIRED);
                            assertThat(l.getReason()).contains("input ended");
                        });
        assertThat(output(harness)).containsExactly("W999", "W" + Long.MAX_VALUE);
        harness.close();
    }

    @Test
    void boundsTheReportsThatWait() throws Exception {
        var harness = harness(1);
        harness.processElement1(report("r1", "app:1", 1_000, 1, 2, 1), 1_000);
        harness.processElement1(report("r2", "app:1", 2_000, 1, 2, 1), 2_000);
        assertThat(letters(harness))
                .singleElement()
                .satisfies(
                        l -> {
                            assertThat(l.getReasonCode()).isEqualTo(DeadLetterReason.PENDING_LIMIT);
                            assertThat(l.getReason())
                                    .contains("1 reports already wait for models in this instance");
                        });
        harness.processElement2(model("app:1"), 0);
        assertThat(harness.extractOutputValues()).extracting(r -> r.reportId).containsExactly("r1");
        harness.close();
    }

    @Test
    void rebuildsTheHoldFromTheWaitingReportsAfterARestore() throws Exception {
        var first = harness(10);
        first.processElement1(report("r1", "app:1", 7_000, 1, 2, 1), 7_000);
        OperatorSubtaskState snapshot = first.snapshot(1, 1);
        first.close();

        var restored =
                new KeyedTwoInputStreamOperatorTestHarness<>(
                        new ValidateReports(Duration.ofMillis(WAIT), Duration.ofMillis(WAIT), 10),
                        new Keys.AppShard(1),
                        new Keys.ProgramShard(),
                        Types.TUPLE(Types.STRING, Types.INT));
        restored.initializeState(snapshot);
        restored.open();
        restored.processWatermark2(new Watermark(Long.MAX_VALUE));
        restored.processWatermark1(new Watermark(60_000));
        restored.processElement2(model("app:1"), 100_000);
        assertThat(output(restored)).containsExactly("W6999", "r1@7000", "W60000");
        restored.close();
    }

    @Test
    void rejectsReportsThatDoNotFitTheModel() throws Exception {
        var harness = harness(10);
        harness.processElement2(model("app:1"), 0);
        harness.processElement1(report("ok", "app:1", 1_000, 4, 0, 0), 1_000);
        harness.processElement1(report("long", "app:1", 1_000, 1, 1, 1, 1), 1_000);
        harness.processElement1(report("neg", "app:1", 1_000, 1, -1, 4), 1_000);
        assertThat(harness.extractOutputValues()).extracting(r -> r.reportId).containsExactly("ok");
        assertThat(letters(harness))
                .extracting(DeadLetter::getReasonCode)
                .containsExactly(
                        DeadLetterReason.WRONG_VECTOR_LENGTH, DeadLetterReason.COUNT_OUT_OF_RANGE);
        harness.close();
    }

    /**
     * Hundreds of app versions that are never published beside a real one. They hold event time
     * back for at most the hold limit, and at most maxPending of them wait.
     */
    @Test
    void appVersionsThatAreNeverPublishedDelayOthersAtMostTheHoldLimitInBoundedState()
            throws Exception {
        long holdLimit = 5_000;
        var harness =
                new KeyedTwoInputStreamOperatorTestHarness<>(
                        new ValidateReports(
                                Duration.ofMillis(WAIT), Duration.ofMillis(holdLimit), 200),
                        new Keys.AppShard(1),
                        new Keys.ProgramShard(),
                        Types.TUPLE(Types.STRING, Types.INT));
        harness.open();
        harness.processWatermark2(new Watermark(Long.MAX_VALUE));
        harness.processElement2(model("real:1"), 0);
        harness.setProcessingTime(1_000);
        for (int fake = 0; fake < 300; fake++) {
            harness.processElement1(
                    report("f" + fake, "fake:" + fake, 10_000 + fake, 1, 2, 1), 10_000 + fake);
        }
        harness.processElement1(report("real", "real:1", 20_000, 1, 2, 1), 20_000);
        harness.processWatermark1(new Watermark(70_000));
        harness.setProcessingTime(1_000 + holdLimit - 1);
        harness.processWatermark1(new Watermark(71_000));
        assertThat(output(harness)).containsExactly("real@20000", "W9999");
        harness.setProcessingTime(1_000 + holdLimit);

        // Each fake key's hold ends by its own timer: the watermark climbs to where it would be.
        List<String> after = output(harness);
        assertThat(after.subList(0, 2)).containsExactly("real@20000", "W9999");
        assertThat(after.get(after.size() - 1)).isEqualTo("W71000");
        assertThat(after.subList(2, after.size())).allMatch(element -> element.startsWith("W"));
        assertThat(letters(harness))
                .hasSize(100)
                .allMatch(l -> l.getReasonCode() == DeadLetterReason.PENDING_LIMIT);
        // The 200 that wait still wait for their models until the model wait expires.
        harness.setProcessingTime(1_000 + WAIT);
        assertThat(letters(harness)).hasSize(300);
        assertThat(letters(harness).subList(100, 300))
                .allMatch(l -> l.getReasonCode() == DeadLetterReason.MODEL_WAIT_EXPIRED);
        harness.close();
    }

    /**
     * Restored with twice the parallelism and four shards instead of one, every instance validates
     * reports of every shard at once, without waiting for a republished model.
     */
    @Test
    void knowsEveryModelAfterARestoreWithAnotherParallelismAndShardCount() throws Exception {
        var first = harness(10);
        first.processElement2(model("app:1"), 0);
        OperatorSubtaskState snapshot = first.snapshot(1, 1);
        first.close();

        int maxParallelism = 128;
        for (int subtask = 0; subtask < 2; subtask++) {
            var restored =
                    new KeyedTwoInputStreamOperatorTestHarness<>(
                            new ValidateReports(
                                    Duration.ofMillis(WAIT), Duration.ofMillis(WAIT), 10),
                            new Keys.AppShard(4),
                            new Keys.ProgramShard(),
                            Types.TUPLE(Types.STRING, Types.INT),
                            maxParallelism,
                            2,
                            subtask);
            restored.initializeState(
                    AbstractStreamOperatorTestHarness.repartitionOperatorState(
                            snapshot, maxParallelism, 1, 2, subtask));
            restored.open();
            ReportRecord report = reportOfSubtask(subtask, maxParallelism);
            restored.processElement1(report, 1_000);
            assertThat(output(restored)).containsExactly(report.reportId + "@1000");
            restored.close();
        }
    }

    /** A report of app:1 whose (app version, shard of 4) key belongs to {@code subtask} of 2. */
    private static ReportRecord reportOfSubtask(int subtask, int maxParallelism) {
        for (int i = 0; ; i++) {
            ReportRecord report = report("r" + i, "app:1", 1_000, 1, 2, 1);
            var key = new Keys.AppShard(4).getKey(report);
            if (KeyGroupRangeAssignment.assignKeyToParallelOperator(key, maxParallelism, 2)
                    == subtask) {
                return report;
            }
        }
    }

    /**
     * The model republished with another |V|. Reports of either generation count under their own;
     * one that fits neither is MODEL_CHANGED.
     */
    @Test
    void countsReportsUnderTheGenerationTheyFitAndDeadLettersOnesThatFitNone() throws Exception {
        var harness = harness(10);
        ProgramModel three = TestProgramModels.model("app:1", 3, new int[][] {{0, 1}});
        ProgramModel four = TestProgramModels.model("app:1", 4, new int[][] {{0, 1}});
        harness.processElement2(TestProgramModels.update(three), 0);
        harness.processElement2(TestProgramModels.update(four), 0);
        harness.processElement1(report("old", "app:1", 1_000, 1, 2, 1), 1_000);
        harness.processElement1(report("new", "app:1", 1_000, 1, 2, 1, 0), 1_000);
        harness.processElement1(report("neither", "app:1", 1_000, 1, 2, 1, 0, 0), 1_000);

        assertThat(harness.extractOutputValues())
                .extracting(r -> r.reportId, r -> r.generation)
                .containsExactly(
                        tuple("old", ProgramIndex.of(three).shape().generation()),
                        tuple("new", ProgramIndex.of(four).shape().generation()));
        assertThat(ProgramIndex.of(three).shape().generation())
                .isNotEqualTo(ProgramIndex.of(four).shape().generation());
        assertThat(letters(harness))
                .singleElement()
                .satisfies(
                        l -> {
                            assertThat(l.getReasonCode()).isEqualTo(DeadLetterReason.MODEL_CHANGED);
                            assertThat(l.getReason())
                                    .startsWith("counts has length 5 but app:1 has |V| = 4;")
                                    .endsWith(
                                            "fits none of its last 2 generations (latest: |V| = 4,"
                                                    + " default (ε = "
                                                    + TestProgramModels.EPSILON
                                                    + ", t = 1, k = 4))");
                        });
        harness.close();
    }

    @Test
    void aChangeOfEpsilonUnderTheSameConfigIdNeverMixesReportsOfTheTwoEpsilons() throws Exception {
        var harness = harness(10);
        ProgramModel before = TestProgramModels.model("app:1", 3, new int[][] {{0, 1}});
        ProgramModel after = TestProgramModels.model("app:1", 3, new int[][] {{0, 1}});
        after.getPrivacyConfigs().get(0).setEpsilon(1.0);
        harness.processElement2(TestProgramModels.update(before), 0);
        harness.processElement2(TestProgramModels.update(after), 0);
        ReportRecord old = report("old", "app:1", 1_000, 1, 2, 1);
        old.epsilon = TestProgramModels.EPSILON;
        old.t = 1;
        ReportRecord current = report("new", "app:1", 1_000, 1, 2, 1);
        current.epsilon = 1.0;
        current.t = 1;
        ReportRecord other = report("other", "app:1", 1_000, 1, 2, 1);
        other.epsilon = 3.0;
        other.t = 1;
        harness.processElement1(old, 1_000);
        harness.processElement1(current, 1_000);
        harness.processElement1(other, 1_000);

        long oldGeneration = ProgramIndex.of(before).shape().generation();
        long newGeneration = ProgramIndex.of(after).shape().generation();
        assertThat(oldGeneration).isNotEqualTo(newGeneration);
        assertThat(harness.extractOutputValues())
                .extracting(r -> r.reportId, r -> r.generation)
                .containsExactly(tuple("old", oldGeneration), tuple("new", newGeneration));
        assertThat(letters(harness))
                .singleElement()
                .satisfies(
                        l -> {
                            assertThat(l.getReasonCode()).isEqualTo(DeadLetterReason.MODEL_CHANGED);
                            assertThat(l.getReason())
                                    .startsWith(
                                            "randomized with ε = 3.0, t = 1 but config 'default'"
                                                    + " has ε = 1.0, t = 1;");
                        });
        harness.close();
    }
}
