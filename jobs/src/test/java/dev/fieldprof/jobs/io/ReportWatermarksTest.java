package dev.fieldprof.jobs.io;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.common.eventtime.WatermarkOutput;
import org.junit.jupiter.api.Test;

class ReportWatermarksTest {
    private static final Duration OUT_OF_ORDERNESS = Duration.ofSeconds(10);
    private static final Duration IDLENESS = Duration.ofSeconds(30);

    private long now = 1_000_000;
    private final Recorded output = new Recorded();
    private final ReportWatermarks<String> watermarks =
            new ReportWatermarks<>(OUT_OF_ORDERNESS, IDLENESS, () -> now);

    @Test
    void trailsTheLatestReportTimeByTheOutOfOrderness() {
        watermarks.onEvent("r1", 990_000, output);
        watermarks.onEvent("r2", 995_000, output);
        watermarks.onEvent("r3", 992_000, output);
        watermarks.onPeriodicEmit(output);

        assertThat(output.marks).containsExactly(984_999L);
    }

    @Test
    void aReportStampedInTheFutureCountsAsStampedNow() {
        // A device clock 50 minutes ahead on a topic that keeps the producer's time.
        watermarks.onEvent("ahead", now + Duration.ofMinutes(50).toMillis(), output);
        watermarks.onPeriodicEmit(output);

        assertThat(output.marks).containsExactly(now - 10_001);
    }

    @Test
    void aQuietPartitionFollowsTheWallClockOnlyAfterTheIdleness() {
        watermarks.onEvent("r1", 990_000, output);
        now += IDLENESS.toMillis() - 1;
        watermarks.onPeriodicEmit(output);
        now += 1;
        watermarks.onPeriodicEmit(output);
        now += 5_000;
        watermarks.onPeriodicEmit(output);

        assertThat(output.marks).containsExactly(979_999L, 1_019_999L, 1_024_999L);
    }

    @Test
    void aPartitionWithNothingToReadFollowsTheWallClockFromItsStart() {
        watermarks.onPeriodicEmit(output);
        now += IDLENESS.toMillis();
        watermarks.onPeriodicEmit(output);

        assertThat(output.marks).containsExactly(now - 10_001);
    }

    @Test
    void neverTurnsIdleAndNeverGoesBack() {
        now += IDLENESS.toMillis();
        watermarks.onPeriodicEmit(output);
        // A backlog record far in the past must not move the watermark back.
        watermarks.onEvent("old", 1_000, output);
        watermarks.onPeriodicEmit(output);
        now += IDLENESS.toMillis();
        watermarks.onPeriodicEmit(output);

        assertThat(output.marks).containsExactly(1_019_999L, 1_049_999L);
        assertThat(output.idle).isFalse();
    }

    private static final class Recorded implements WatermarkOutput {
        final List<Long> marks = new ArrayList<>();
        boolean idle;

        @Override
        public void emitWatermark(Watermark watermark) {
            marks.add(watermark.getTimestamp());
        }

        @Override
        public void markIdle() {
            idle = true;
        }

        @Override
        public void markActive() {}
    }
}
