package dev.fieldprof.jobs.paths;

import static dev.fieldprof.jobs.paths.PathJobHarnesses.counts;
import static dev.fieldprof.jobs.paths.PathJobHarnesses.letters;
import static dev.fieldprof.jobs.paths.PathJobHarnesses.model;
import static dev.fieldprof.jobs.paths.PathJobHarnesses.published;
import static dev.fieldprof.jobs.paths.PathJobHarnesses.report;
import static dev.fieldprof.jobs.paths.PathJobHarnesses.table;
import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.paths.EdgeModel;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.util.KeyedBroadcastOperatorTestHarness;
import org.apache.flink.streaming.util.ProcessFunctionTestHarnesses;
import org.junit.jupiter.api.Test;

/** A shard of the path job: decoding on arrival, waiting for tables and models, dead letters. */
class CountPathEdgesTest {
    private static final long WAIT = 60_000;
    private static final EdgeModel UNIFORM = EdgeModel.uniform(PathModelJobITCase.TABLE);

    private static KeyedBroadcastOperatorTestHarness<
                    String, PathReportEnvelope, PathSideInput, ShardEdgeCounts>
            harness(int keepVersions, int maxWaiting) throws Exception {
        return harness(keepVersions, maxWaiting, Duration.ZERO);
    }

    private static KeyedBroadcastOperatorTestHarness<
                    String, PathReportEnvelope, PathSideInput, ShardEdgeCounts>
            harness(int keepVersions, int maxWaiting, Duration allowedLateness) throws Exception {
        var harness =
                ProcessFunctionTestHarnesses.forKeyedBroadcastProcessFunction(
                        new CountPathEdges(
                                Map.of(),
                                Duration.ofMinutes(1),
                                false,
                                keepVersions,
                                Duration.ofMillis(WAIT),
                                maxWaiting,
                                allowedLateness),
                        new PathModelJob.AppShardKey(1),
                        Types.STRING,
                        PathReferenceData.BRANCHES,
                        PathReferenceData.PLANS,
                        PathReferenceData.MODELS);
        harness.processBroadcastWatermark(Long.MAX_VALUE);
        return harness;
    }

    @Test
    void countsEachReportOnArrivalAndEmitsTheWindowsCountsWhenItCloses() throws Exception {
        var harness = harness(4, 100);
        harness.processBroadcastElement(table(), 0);
        var a = report("a", UNIFORM, "", 1, 1, 1_000);
        var b = report("b", UNIFORM, "", 2, 2, 2_000);
        var c = report("c", UNIFORM, "", 3, 3, 61_000);
        harness.processElement(a, 1_000);
        harness.processElement(b, 2_000);
        harness.processElement(c, 61_000);
        harness.processWatermark(59_999);

        List<ShardEdgeCounts> out = harness.extractOutputValues();
        assertThat(out).hasSize(1);
        assertThat(out.get(0).windowEnd).isEqualTo(60_000L);
        assertThat(out.get(0).reports).isEqualTo(2L);
        assertThat(out.get(0).shard).isEqualTo(0);
        assertThat(out.get(0).branchFingerprint)
                .isEqualTo(EdgeModel.branchFingerprint(PathModelJobITCase.TABLE));
        assertThat(out.get(0).counts).isEqualTo(counts(UNIFORM, List.of(a, b)).toBytes());
        assertThat(letters(harness)).isEmpty();
        harness.close();
    }

    @Test
    void aLateReportWithinTheAllowedLatenessCountsInTheWindowOpenWhenItArrives() throws Exception {
        var harness = harness(4, 100, Duration.ofMinutes(1));
        harness.processBroadcastElement(table(), 0);
        var onTime = report("on-time", UNIFORM, "", 1, 1, 1_000);
        harness.processElement(onTime, 1_000);
        harness.processWatermark(59_999);
        var late = report("late", UNIFORM, "", 2, 2, 2_000);
        harness.processElement(late, 2_000);
        harness.processWatermark(119_999);
        // Past the lateness of its window (closed at 60,000): a LATE letter.
        harness.processElement(report("too-late", UNIFORM, "", 3, 3, 3_000), 3_000);

        List<ShardEdgeCounts> out = harness.extractOutputValues();
        assertThat(out)
                .extracting(c -> c.windowEnd, c -> c.reports)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(60_000L, 1L),
                        org.assertj.core.groups.Tuple.tuple(120_000L, 1L));
        assertThat(out.get(1).counts).isEqualTo(counts(UNIFORM, List.of(late)).toBytes());
        assertThat(letters(harness))
                .containsExactly(
                        "3 LATE late: record time 3000 is in a window that closed at 60000, beyond"
                                + " the allowed lateness");
        harness.close();
    }

    @Test
    void aReportNamingAModelNotReceivedYetWaitsForItAndCountsEvenAfterItsWindowClosed()
            throws Exception {
        var harness = harness(4, 100);
        harness.processBroadcastElement(table(), 0);
        EdgeModel v1 = model(1, "job-a", 9);
        var early = report("early", v1, "job-a", 4, 1, 1_000);
        harness.processElement(early, 1_000);
        harness.processWatermark(59_999);
        assertThat(harness.extractOutputValues()).isEmpty();

        harness.processBroadcastElement(published(v1), 0);
        List<ShardEdgeCounts> out = harness.extractOutputValues();
        assertThat(out).hasSize(1);
        assertThat(out.get(0).windowEnd).isEqualTo(60_000L);
        assertThat(out.get(0).reports).isEqualTo(1L);
        assertThat(out.get(0).counts).isEqualTo(counts(v1, List.of(early)).toBytes());
        assertThat(letters(harness)).isEmpty();
        harness.close();
    }

    @Test
    void decodesWithTheModelOfTheWriterTheReportNames() throws Exception {
        var harness = harness(4, 100);
        harness.processBroadcastElement(table(), 0);
        EdgeModel fromA = model(3, "job-a", 9);
        EdgeModel fromB = model(3, "job-b", 2);
        harness.processBroadcastElement(published(fromA), 0);
        harness.processBroadcastElement(published(fromB), 0);
        var coded = report("b", fromB, "job-b", 5, 1, 1_000);
        harness.processElement(coded, 1_000);
        harness.processElement(report("v1-report", fromB, "", 6, 2, 2_000), 2_000);
        harness.processWatermark(59_999);

        assertThat(harness.extractOutputValues().get(0).counts)
                .isEqualTo(counts(fromB, List.of(coded)).toBytes());
        assertThat(letters(harness))
                .containsExactly(
                        "2 MODEL_CONFLICT edge model version 3 of paths:1 was published by 'job-a'"
                                + " and 'job-b', and the report does not name its writer");
        harness.close();
    }

    @Test
    void deadLettersLateEvictedAndNeverArrivingModelsAndTheWaitingLimit() throws Exception {
        var harness = harness(1, 1);
        harness.setProcessingTime(0);
        harness.processBroadcastElement(table(), 0);
        harness.processBroadcastElement(published(model(1, "job-a", 5)), 0);
        harness.processBroadcastElement(published(model(2, "job-a", 6)), 0);
        harness.processElement(
                report("evicted", model(1, "job-a", 5), "job-a", 1, 1, 1_000), 1_000);
        harness.processElement(report("future", model(9, "job-a", 5), "job-a", 2, 2, 1_000), 1_000);
        harness.processElement(report("more", model(8, "job-a", 5), "job-a", 3, 3, 1_000), 1_000);
        harness.processWatermark(59_999);
        harness.processElement(report("late", UNIFORM, "", 4, 4, 2_000), 2_000);
        assertThat(letters(harness))
                .containsExactly(
                        "1 UNKNOWN_MODEL_VERSION edge model version 1 of writer job-a of paths:1"
                                + " is not kept (kept: 0, 2/job-a)",
                        "3 PENDING_LIMIT 1 reports already wait for a branch table or an edge"
                                + " model in this subtask (--max-waiting)",
                        "4 LATE late: record time 2000 is in a window that closed at 60000, beyond"
                                + " the allowed lateness");

        harness.setProcessingTime(WAIT);
        assertThat(letters(harness))
                .endsWith(
                        "2 UNKNOWN_MODEL_VERSION edge model version 9 of paths:1 did not reach"
                                + " the job within PT1M (--table-wait)");
        harness.close();
    }

    @Test
    void learnsAMethodOnlyFromTheDevicesWhoseVariantTracesIt() throws Exception {
        var harness = harness(4, 100);
        String plan =
                new dev.fieldprof.paths.ProbePlanText(7, 3, new int[][] {{0, 1}, {2}}).toText();
        harness.processBroadcastElement(
                PathSideInput.program(PathJobHarnesses.APP, PathModelJobITCase.BRANCHES, plan), 0);
        // codedRun enters methods 0 and 1: variant 0 traces both, variant 1 neither.
        var traced = report("traced", UNIFORM, "", 1, 1, 1_000);
        var foreign = report("foreign", UNIFORM, "", 2, 2, 1_000);
        foreign.variant = 1;
        var unknown = report("unknown", UNIFORM, "", 3, 3, 1_000);
        unknown.variant = 7;
        harness.processElement(traced, 1_000);
        harness.processElement(foreign, 1_000);
        harness.processElement(unknown, 1_000);
        harness.processWatermark(59_999);

        assertThat(harness.extractOutputValues().get(0).reports).isEqualTo(1L);
        assertThat(harness.extractOutputValues().get(0).counts)
                .isEqualTo(counts(UNIFORM, List.of(traced)).toBytes());
        assertThat(letters(harness))
                .containsExactly(
                        "2 INVALID path report foreign: variant 1 does not trace method 0",
                        "3 INVALID path report unknown: variant 7 is not one of the probe plan's"
                                + " 2");
        harness.close();
    }

    @Test
    void neverPublishedAppVersionsShareOneWaitingBound() throws Exception {
        var harness = harness(4, 2);
        for (int i = 0; i < 3; i++) {
            var fake = report("fake-" + i, UNIFORM, "", i, i, 1_000);
            fake.appVersion = "fake:" + i;
            harness.processElement(fake, 1_000);
        }
        assertThat(letters(harness))
                .containsExactly(
                        "2 PENDING_LIMIT 2 reports already wait for a branch table or an edge"
                                + " model in this subtask (--max-waiting)");
        harness.close();
    }

    @Test
    void aReportWaitsForItsAppVersionsTableUntilTheInputEnds() throws Exception {
        var harness = harness(4, 100);
        harness.processElement(report("a", UNIFORM, "", 1, 7, 1_000), 1_000);
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
    void aPublishedModelThatDoesNotFitItsTableFailsNothingAndItsReportsEndAsDeadLetters()
            throws Exception {
        var harness = harness(4, 100);
        harness.setProcessingTime(0);
        harness.processBroadcastElement(table(), 0);
        // The right branch fingerprint, but three frequencies for a node with two out-edges.
        dev.fieldprof.schemas.EdgeModel unfit =
                dev.fieldprof.paths.EdgeModelRecords.toRecord(
                        model(1, "job-a", 5), PathJobHarnesses.APP, java.time.Instant.EPOCH, 1);
        unfit.getNodes().get(0).setFrequencies(List.of(5, 1, 1));
        harness.processBroadcastElement(
                PathSideInput.model(
                        PathJobHarnesses.APP,
                        dev.fieldprof.schemas.RecordCodec.of(dev.fieldprof.schemas.EdgeModel.class)
                                .encode(unfit)),
                0);
        harness.processElement(report("unfit", model(1, "job-a", 5), "job-a", 1, 1, 1_000), 1_000);
        assertThat(letters(harness)).isEmpty();

        harness.setProcessingTime(WAIT);
        assertThat(letters(harness))
                .containsExactly(
                        "1 UNKNOWN_MODEL_VERSION edge model version 1 of paths:1 did not reach"
                                + " the job within PT1M (--table-wait)");
        harness.close();
    }
}
