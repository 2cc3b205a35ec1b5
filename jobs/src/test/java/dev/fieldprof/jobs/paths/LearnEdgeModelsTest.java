package dev.fieldprof.jobs.paths;

import static dev.fieldprof.jobs.paths.PathJobHarnesses.APP;
import static dev.fieldprof.jobs.paths.PathJobHarnesses.MODELS;
import static dev.fieldprof.jobs.paths.PathJobHarnesses.counts;
import static dev.fieldprof.jobs.paths.PathJobHarnesses.letters;
import static dev.fieldprof.jobs.paths.PathJobHarnesses.model;
import static dev.fieldprof.jobs.paths.PathJobHarnesses.published;
import static dev.fieldprof.jobs.paths.PathJobHarnesses.report;
import static dev.fieldprof.jobs.paths.PathJobHarnesses.table;
import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.jobs.io.EncodedRecord;
import dev.fieldprof.paths.EdgeCounter;
import dev.fieldprof.paths.EdgeModel;
import dev.fieldprof.paths.EdgeModelRecords;
import dev.fieldprof.paths.ModelUpdater;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.util.KeyedBroadcastOperatorTestHarness;
import org.apache.flink.streaming.util.ProcessFunctionTestHarnesses;
import org.junit.jupiter.api.Test;

/** The per-app merge of the path job: shards' counts to model M+1, writers, replaced tables. */
class LearnEdgeModelsTest {
    private static final EdgeModel UNIFORM = EdgeModel.uniform(PathModelJobITCase.TABLE);
    private static final long FINGERPRINT = EdgeModel.branchFingerprint(PathModelJobITCase.TABLE);

    private static KeyedBroadcastOperatorTestHarness<
                    String, ShardEdgeCounts, PathSideInput, EncodedRecord>
            harness() throws Exception {
        var harness =
                ProcessFunctionTestHarnesses.forKeyedBroadcastProcessFunction(
                        new LearnEdgeModels(
                                Map.of(),
                                false,
                                4,
                                ModelUpdater.DEFAULT_TARGET_TOTAL,
                                "job-a",
                                "paths",
                                Duration.ofSeconds(60),
                                Map.of()),
                        new PathModelJob.CountsAppKey(),
                        Types.STRING,
                        PathReferenceData.BRANCHES,
                        PathReferenceData.PLANS,
                        PathReferenceData.MODELS);
        harness.processBroadcastWatermark(Long.MAX_VALUE);
        return harness;
    }

    private static ShardEdgeCounts shard(int shard, long windowEnd, EdgeCounter counts, long n) {
        return new ShardEdgeCounts(APP, shard, windowEnd, FINGERPRINT, n, counts.toBytes());
    }

    private static dev.fieldprof.schemas.EdgeModel only(List<EncodedRecord> out) {
        assertThat(out).hasSize(1);
        return MODELS.decode(out.get(0).value);
    }

    @Test
    void mergesTheShardsOfAWindowIntoTheNextVersionWithItsWriter() throws Exception {
        var harness = harness();
        harness.processBroadcastElement(table(), 0);
        var a = report("a", UNIFORM, "", 1, 1, 1_000);
        var b = report("b", UNIFORM, "", 2, 2, 2_000);
        var c = report("c", UNIFORM, "", 3, 3, 3_000);
        harness.processElement(shard(0, 60_000, counts(UNIFORM, List.of(a, b)), 2), 59_999);
        harness.processElement(shard(1, 60_000, counts(UNIFORM, List.of(c)), 1), 59_999);
        harness.processWatermark(59_999);

        dev.fieldprof.schemas.EdgeModel record = only(harness.extractOutputValues());
        EdgeModel expected =
                EdgeModel.builder(
                                new ModelUpdater(ModelUpdater.DEFAULT_TARGET_TOTAL)
                                        .next(UNIFORM, counts(UNIFORM, List.of(a, b, c))))
                        .writer("job-a")
                        .build();
        assertThat(record.getVersion()).isEqualTo(1L);
        assertThat(record.getWriter()).isEqualTo("job-a");
        assertThat(record.getWindowReports()).isEqualTo(3L);
        assertThat(record.getCreatedAtMillis().toEpochMilli()).isEqualTo(60_000L);
        assertThat(EdgeModelRecords.fromRecord(record, PathModelJobITCase.TABLE))
                .isEqualTo(expected);
        harness.close();
    }

    @Test
    void continuesAfterANewerModelOfAnotherWriterInsteadOfPublishingItsVersionAgain()
            throws Exception {
        var harness = harness();
        harness.processBroadcastElement(table(), 0);
        EdgeModel theirs = model(5, "job-b", 7);
        harness.processBroadcastElement(published(theirs), 0);
        var r = report("r", theirs, "job-b", 1, 1, 1_000);
        EdgeCounter counted = counts(theirs, List.of(r));
        harness.processElement(shard(0, 60_000, counted, 1), 59_999);
        harness.processWatermark(59_999);

        dev.fieldprof.schemas.EdgeModel record = only(harness.extractOutputValues());
        assertThat(record.getVersion()).isEqualTo(6L);
        assertThat(EdgeModelRecords.fromRecord(record, PathModelJobITCase.TABLE))
                .isEqualTo(
                        EdgeModel.builder(
                                        new ModelUpdater(ModelUpdater.DEFAULT_TARGET_TOTAL)
                                                .next(theirs, counted))
                                .writer("job-a")
                                .build());
        harness.close();
    }

    @Test
    void countsThatReachAPublishedWindowGoIntoTheNextModel() throws Exception {
        var harness = harness();
        harness.processBroadcastElement(table(), 0);
        var a = report("a", UNIFORM, "", 1, 1, 1_000);
        harness.processElement(shard(0, 60_000, counts(UNIFORM, List.of(a)), 1), 59_999);
        harness.processWatermark(59_999);
        assertThat(only(harness.extractOutputValues()).getVersion()).isEqualTo(1L);

        var waited = report("waited", UNIFORM, "", 2, 2, 2_000);
        harness.processElement(shard(1, 60_000, counts(UNIFORM, List.of(waited)), 1), 70_000);
        harness.processWatermark(70_001);
        List<EncodedRecord> out = harness.extractOutputValues();
        assertThat(out).hasSize(2);
        dev.fieldprof.schemas.EdgeModel second = MODELS.decode(out.get(1).value);
        assertThat(second.getVersion()).isEqualTo(2L);
        assertThat(second.getWindowReports()).isEqualTo(1L);
        assertThat(letters(harness)).isEmpty();
        harness.close();
    }

    @Test
    void countsThatComeBeforeTheirTableWaitForItAndGoIntoTheModel() throws Exception {
        // Seen on CI at parallelism 2: the shard's counts reached the merge before the program
        // model's broadcast did, and were dead-lettered as if the table had been replaced.
        var harness = harness();
        var a = report("a", UNIFORM, "", 1, 1, 1_000);
        harness.setProcessingTime(1_000);
        harness.processElement(shard(0, 60_000, counts(UNIFORM, List.of(a)), 1), 59_999);
        harness.processWatermark(59_999);
        assertThat(harness.extractOutputValues()).isEmpty();

        harness.processBroadcastElement(table(), 0);
        harness.setProcessingTime(1_200);
        dev.fieldprof.schemas.EdgeModel record = only(harness.extractOutputValues());
        assertThat(record.getVersion()).isEqualTo(1L);
        assertThat(record.getWindowReports()).isEqualTo(1L);
        assertThat(letters(harness)).isEmpty();
        harness.close();
    }

    @Test
    void deadLettersCountsForABranchTableThatWasReplaced() throws Exception {
        var harness = harness();
        harness.processBroadcastElement(
                PathSideInput.branches(APP, "fieldprof-branches 1\nmethods 3\n2 0:2\n"), 0);
        harness.processElement(
                shard(3, 60_000, counts(UNIFORM, List.of(report("a", UNIFORM, "", 1, 1, 1))), 1),
                59_999);
        harness.processWatermark(59_999);
        harness.setProcessingTime(59_999);
        assertThat(letters(harness)).as("still within the table wait").isEmpty();

        harness.setProcessingTime(60_000);
        assertThat(harness.extractOutputValues()).isEmpty();
        assertThat(letters(harness))
                .containsExactly(
                        "-1 WINDOW_DROPPED the edge counts of 1 path reports of paths:1 (shard 3,"
                                + " window ending 1970-01-01T00:01:00Z) are for branch table "
                                + Long.toHexString(FINGERPRINT)
                                + ", but its program model now has branch table "
                                + Long.toHexString(
                                        EdgeModel.branchFingerprint(
                                                dev.fieldprof.paths.BranchTableText.parse(
                                                        "fieldprof-branches 1\nmethods 3\n2"
                                                                + " 0:2\n")))
                                + " within PT1M (--table-wait)");
        harness.close();
    }
}
