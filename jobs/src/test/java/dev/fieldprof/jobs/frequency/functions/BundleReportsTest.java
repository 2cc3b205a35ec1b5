package dev.fieldprof.jobs.frequency.functions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.fieldprof.jobs.frequency.records.ReportBundle;
import dev.fieldprof.jobs.frequency.records.ReportRecord;
import dev.fieldprof.jobs.io.RawRecord;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.util.OutputTag;
import org.junit.jupiter.api.Test;

/**
 * {@link BundleReports}: reports leave as one bundle per (app version, shard, window), exactly
 * summed, before the watermark that fires their window and before every checkpoint barrier; a
 * report beyond its window's lateness leaves alone on the late output, judged against the watermark
 * the window sum has seen.
 */
class BundleReportsTest {
    private static final long WINDOW = 10;
    private static final long LATENESS = 100;
    private static final int SHARDS = 2;
    private static final int METHODS = 4;
    private static final OutputTag<ReportRecord> LATE = new OutputTag<>("late") {};

    /** A user-level report of {@code id}: "a" is in shard 1 of 2, "b" in shard 0. */
    private static ReportRecord report(String id, int... subset) {
        ReportRecord report =
                new ReportRecord(
                        id,
                        "device-" + id,
                        "app:1",
                        "config",
                        subset.length,
                        new int[0],
                        new RawRecord("reports", 0, 0, 0, null, null));
        report.subset = subset;
        report.methods = METHODS;
        report.generation = 7;
        return report;
    }

    private static OneInputStreamOperatorTestHarness<ReportRecord, ReportBundle> harness(
            long maxCells) throws Exception {
        var harness =
                new OneInputStreamOperatorTestHarness<>(
                        new BundleReports(
                                Duration.ofMillis(WINDOW),
                                Duration.ofMillis(LATENESS),
                                SHARDS,
                                maxCells,
                                LATE));
        harness.open();
        harness.setProcessingTime(0);
        return harness;
    }

    /**
     * The output so far, each bundle as "shard start @timestamp: reports sums", watermarks "W t".
     */
    private static List<String> output(
            OneInputStreamOperatorTestHarness<ReportRecord, ReportBundle> harness) {
        List<String> out = new ArrayList<>();
        for (Object element : harness.getOutput()) {
            if (element instanceof Watermark mark) {
                out.add("W " + mark.getTimestamp());
            } else {
                @SuppressWarnings("unchecked")
                StreamRecord<ReportBundle> record = (StreamRecord<ReportBundle>) element;
                ReportBundle bundle = record.getValue();
                assertThat(bundle.sums.sums).hasSize(1);
                assertThat(bundle.sums.configIds).containsExactly("config");
                assertThat(bundle.sums.generations).containsExactly(7L);
                out.add(
                        bundle.appVersion
                                + " shard "
                                + bundle.shard
                                + " ["
                                + bundle.windowStart
                                + "] @"
                                + record.getTimestamp()
                                + ": "
                                + bundle.sums.sums[0].getReports()
                                + " "
                                + java.util.Arrays.toString(bundle.sums.sums[0].getSums()));
            }
        }
        harness.getOutput().clear();
        return out;
    }

    @Test
    void sendsEachShardsWindowAsOneBundleBeforeTheWatermarkThatFiresIt() throws Exception {
        try (var harness = harness(BundleReports.DEFAULT_MAX_CELLS)) {
            harness.processElement(report("a", 0, 2), 1);
            harness.processElement(report("b", 1), 3);
            harness.processElement(report("a", 2, 3), 9);
            harness.processElement(report("b", 0), 12);
            harness.processWatermark(5);
            assertThat(output(harness)).containsExactly("W 5");

            harness.processWatermark(WINDOW - 1);
            assertThat(output(harness))
                    .containsExactly(
                            "app:1 shard 1 [0] @9: 2 [1, 0, 2, 1]",
                            "app:1 shard 0 [0] @9: 1 [0, 1, 0, 0]",
                            "W 9");
            harness.processWatermark(15);
            assertThat(output(harness)).containsExactly("W 15");
            harness.processWatermark(2 * WINDOW - 1);
            assertThat(output(harness))
                    .containsExactly("app:1 shard 0 [10] @19: 1 [1, 0, 0, 0]", "W 19");
        }
    }

    @Test
    void sendsEverythingItHoldsBeforeACheckpointBarrier() throws Exception {
        try (var harness = harness(BundleReports.DEFAULT_MAX_CELLS)) {
            harness.processElement(report("a", 0), 1);
            harness.processElement(report("a", 1), 25);
            harness.prepareSnapshotPreBarrier(1);
            assertThat(output(harness))
                    .containsExactly(
                            "app:1 shard 1 [0] @9: 1 [1, 0, 0, 0]",
                            "app:1 shard 1 [20] @29: 1 [0, 1, 0, 0]");
            harness.processElement(report("a", 3), 2);
            harness.prepareSnapshotPreBarrier(2);
            assertThat(output(harness)).containsExactly("app:1 shard 1 [0] @9: 1 [0, 0, 0, 1]");
            harness.prepareSnapshotPreBarrier(3);
            assertThat(output(harness)).isEmpty();
        }
    }

    @Test
    void sendsAReportBeyondItsWindowsLatenessAloneOnTheLateOutput() throws Exception {
        try (var harness = harness(BundleReports.DEFAULT_MAX_CELLS)) {
            harness.processWatermark(WINDOW - 1 + LATENESS - 1);
            harness.processElement(report("a", 0), 0);
            harness.processWatermark(WINDOW - 1 + LATENESS);
            assertThat(output(harness))
                    .containsExactly("W 108", "app:1 shard 1 [0] @9: 1 [1, 0, 0, 0]", "W 109");
            harness.processElement(report("b", 1), WINDOW - 1);
            assertThat(output(harness)).isEmpty();
            assertThat(harness.getSideOutput(LATE))
                    .extracting(late -> late.getValue().reportId, StreamRecord::getTimestamp)
                    .containsExactly(tuple("b", WINDOW - 1));
        }
    }

    @Test
    void sendsLateReportsWithinTheLatenessAtTheNextSecondOfProcessingTime() throws Exception {
        try (var harness = harness(BundleReports.DEFAULT_MAX_CELLS)) {
            harness.processWatermark(WINDOW - 1);
            output(harness);
            harness.setProcessingTime(400);
            harness.processElement(report("a", 0), 3);
            harness.processElement(report("a", 0, 1), 4);
            harness.setProcessingTime(RevisingTrigger.COALESCE_MILLIS - 1);
            assertThat(output(harness)).isEmpty();
            harness.setProcessingTime(RevisingTrigger.COALESCE_MILLIS);
            assertThat(output(harness)).containsExactly("app:1 shard 1 [0] @9: 2 [2, 1, 0, 0]");
            // A report of an open window waits for its window's end, not for the timer.
            harness.processElement(report("a", 2), 15);
            harness.processElement(report("a", 3), 5);
            harness.setProcessingTime(2 * RevisingTrigger.COALESCE_MILLIS);
            assertThat(output(harness)).containsExactly("app:1 shard 1 [0] @9: 1 [0, 0, 0, 1]");
        }
    }

    @Test
    void sendsAllItHoldsWhenItsBundlesExceedTheirCells() throws Exception {
        // Two bundles of 4 longs fit in 8; a third window's bundle makes 12.
        try (var harness = harness(2 * METHODS)) {
            harness.processElement(report("a", 0), 1);
            harness.processElement(report("b", 1), 2);
            harness.processElement(report("a", 2), 3);
            assertThat(output(harness)).isEmpty();
            harness.processElement(report("a", 3), 15);
            assertThat(output(harness))
                    .containsExactly(
                            "app:1 shard 1 [0] @9: 2 [1, 0, 1, 0]",
                            "app:1 shard 0 [0] @9: 1 [0, 1, 0, 0]",
                            "app:1 shard 1 [10] @19: 1 [0, 0, 0, 1]");
            harness.processElement(report("a", 1), 16);
            harness.processWatermark(2 * WINDOW - 1);
            assertThat(output(harness))
                    .containsExactly("app:1 shard 1 [10] @19: 1 [0, 1, 0, 0]", "W 19");
        }
    }
}
