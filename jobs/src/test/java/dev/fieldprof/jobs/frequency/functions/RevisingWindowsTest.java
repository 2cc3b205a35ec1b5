package dev.fieldprof.jobs.frequency.functions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.fieldprof.estimation.PartialSum;
import dev.fieldprof.jobs.frequency.records.BatchedSum;
import dev.fieldprof.jobs.frequency.records.WindowSum;
import java.time.Duration;
import org.apache.flink.api.common.ExecutionConfig;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.tuple.Tuple3;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.windowing.assigners.TumblingEventTimeWindows;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;
import org.apache.flink.streaming.runtime.operators.windowing.WindowOperatorBuilder;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;

/**
 * The merge stage as the job builds it (tumbling windows, allowed lateness, {@link
 * RevisingTrigger}, {@link MergeShardSums}, {@link EmitWindowSum}): its first firing is revision 1,
 * what arrives within the lateness makes the next revisions, each adding only what is new, and
 * nothing is counted twice or lost at the window's cleanup.
 */
class RevisingWindowsTest {
    private static final long WINDOW = 10;
    private static final long LATENESS = 100;

    private static WindowSum shard(long reports) {
        return new WindowSum(
                "app:1",
                "default",
                7L,
                0,
                0,
                WINDOW,
                new PartialSum(reports, new long[] {reports}));
    }

    @Test
    void lateShardSumsMakeRevisionsThatAddUpOnceAndTheCleanupFiresWhatIsGathered()
            throws Exception {
        WindowOperatorBuilder<WindowSum, Tuple3<String, String, Long>, TimeWindow> builder =
                new WindowOperatorBuilder<>(
                        TumblingEventTimeWindows.of(Duration.ofMillis(WINDOW)),
                        new RevisingTrigger(LATENESS),
                        new ExecutionConfig(),
                        TypeInformation.of(WindowSum.class),
                        new Keys.AppConfig(),
                        Types.TUPLE(Types.STRING, Types.STRING, Types.LONG));
        builder.allowedLateness(Duration.ofMillis(LATENESS));
        OneInputStreamOperator<WindowSum, WindowSum> merge =
                builder.aggregate(
                        new MergeShardSums(),
                        new EmitWindowSum(),
                        TypeInformation.of(BatchedSum.class));
        try (var harness =
                new KeyedOneInputStreamOperatorTestHarness<>(
                        merge,
                        new Keys.AppConfig(),
                        Types.TUPLE(Types.STRING, Types.STRING, Types.LONG))) {
            harness.open();
            harness.setProcessingTime(0);
            harness.processElement(shard(2), WINDOW - 1);
            harness.processElement(shard(3), WINDOW - 1);
            harness.processWatermark(WINDOW - 1);
            // Late, within the lateness: gathered until the next second of processing time.
            harness.processElement(shard(1), WINDOW - 1);
            assertThat(harness.extractOutputValues()).hasSize(1);
            harness.setProcessingTime(RevisingTrigger.COALESCE_MILLIS);
            // Two more, fired by the window's cleanup before their timer comes.
            harness.processElement(shard(4), WINDOW - 1);
            harness.processElement(shard(6), WINDOW - 1);
            harness.processWatermark(WINDOW - 1 + LATENESS);
            harness.setProcessingTime(2 * RevisingTrigger.COALESCE_MILLIS);
            // Beyond the lateness: not in any revision (the job sends it to a dead letter).
            harness.processElement(shard(100), WINDOW - 1);
            harness.setProcessingTime(3 * RevisingTrigger.COALESCE_MILLIS);

            assertThat(harness.extractOutputValues())
                    .extracting(s -> s.revision, s -> s.sum.getReports(), s -> s.added.getReports())
                    .containsExactly(tuple(1, 5L, 5L), tuple(2, 6L, 1L), tuple(3, 16L, 10L));
            assertThat(harness.extractOutputValues().get(2).sum.getSums()).containsExactly(16L);
        }
    }
}
