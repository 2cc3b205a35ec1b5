package dev.fieldprof.jobs.frequency.records;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A window's batches: each once, whatever path its reports took to the window. */
class ShuffledBatchesTest {
    private static ReportRecord report(String id, String batchId, int batchSize) {
        ReportRecord report =
                new ReportRecord(id, "", "shop:2.1", "default", 2, new int[] {1, 1}, null);
        report.generation = 7;
        report.batchId = batchId;
        report.batchSize = batchSize;
        return report;
    }

    @Test
    void shardsOfOneWindowCountEachBatchOnce() {
        ShardWindowSums shardA =
                new ShardWindowSums()
                        .add(report("r-1", "b-2", 1200))
                        .add(report("r-2", "b-1", 1000))
                        .add(report("r-3", "b-2", 1200));
        ShardWindowSums shardB =
                new ShardWindowSums()
                        .add(report("r-4", "b-1", 1000))
                        .add(report("r-5", "b-3", 1100));

        ShardWindowSums merged = new ShardWindowSums().merge(shardA).merge(shardB);

        assertThat(merged.sums).hasSize(1);
        assertThat(merged.sums[0].getReports()).isEqualTo(5);
        assertThat(merged.batches[0].ids).containsExactly("b-1", "b-2", "b-3");
        assertThat(merged.batches[0].sortedSizes()).containsExactly(1000, 1100, 1200);
    }

    @Test
    void localOnlyReportsLeaveNoBatches() {
        ShardWindowSums sums = new ShardWindowSums().add(report("r-1", null, 0));
        assertThat(sums.batches[0].isEmpty()).isTrue();
    }

    @Test
    void aCopyIsUnchangedByLaterAdditions() {
        ShuffledBatches batches = new ShuffledBatches().add("b-1", 1000);
        ShuffledBatches copy = batches.copy();
        batches.add("b-0", 900);
        assertThat(copy.sortedSizes()).containsExactly(1000);
        assertThat(batches.ids).containsExactly("b-0", "b-1");
        assertThat(batches.sortedSizes()).containsExactly(900, 1000);
    }
}
