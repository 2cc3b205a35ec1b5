package dev.fieldprof.cli.load;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.cli.load.PipelineObserver.CommittedWindow;
import dev.fieldprof.cli.load.PipelineObserver.Observation;
import java.util.List;
import org.junit.jupiter.api.Test;

class LoadSummaryTest {
    // Sending from t = 0 to t = 30 000 ms; windows of 10 s committed 2 s, 2 s and 3 s after their
    // end.
    private static final List<CommittedWindow> WINDOWS =
            List.of(
                    new CommittedWindow(0, 10_000, 3, 12_000),
                    new CommittedWindow(10_000, 20_000, 2, 22_000),
                    new CommittedWindow(20_000, 30_000, 2, 33_000));
    private static final long[] APPENDS = {1_000, 5_000, 9_000, 10_000, 19_000, 20_000, 29_999};

    @Test
    void latencyIsCommitTimeOfTheReportsWindowMinusItsAppendTime() {
        LoadSummary summary =
                LoadSummary.of(
                        4, 0.25, 0, 30_000, 7, 7, 0, new Observation(APPENDS, 7, WINDOWS, 0, null));

        // Latencies: 11000, 7000, 3000, 12000, 3000, 13000, 3001 → sorted 3000 3000 3001 7000 11000
        // 12000 13000; nearest rank p50 = 4th, p95 = p99 = 7th.
        assertThat(summary.latencyMillis()).containsExactly(7_000, 13_000, 13_000, 13_000);
        assertThat(summary.lagMillis()).containsExactly(2_000, 3_000, 3_000);
        assertThat(summary.firstLagMillis()).isEqualTo(2_000);
        assertThat(summary.lastLagMillis()).isEqualTo(3_000);
        // Windows after the first full one: 2 + 2 reports between commits at 12 s and 33 s.
        assertThat(summary.countedPerSecond()).isEqualTo(4 * 1000.0 / 21_000);
        assertThat(summary.counted()).isEqualTo(7);
        assertThat(summary.exact()).isTrue();
        assertThat(summary.uncounted()).isZero();
    }

    @Test
    void reportsWithoutACommittedWindowAreUncountedAndTheRunIsNotExact() {
        long[] appends = {1_000, 35_000};
        LoadSummary summary =
                LoadSummary.of(
                        1,
                        1,
                        0,
                        30_000,
                        3,
                        3,
                        0,
                        new Observation(appends, 2, List.of(WINDOWS.get(0)), 0, null));

        assertThat(summary.uncounted()).isEqualTo(1);
        assertThat(summary.latencyMillis()).containsExactly(11_000, 11_000, 11_000, 11_000);
        assertThat(summary.countedPerSecond()).isNaN();
        assertThat(summary.exact()).isFalse();
        assertThat(summary.lines())
                .last()
                .asString()
                .startsWith("NOT EXACT 3 made, 2 on the topic, 3 counted, 0 dead letters");
    }

    @Test
    void aReportCountedTwiceOrADeadLetterIsNotExact() {
        List<CommittedWindow> doubled = List.of(new CommittedWindow(0, 10_000, 8, 12_000));
        long[] appends = {1_000, 2_000, 3_000, 4_000, 5_000, 6_000, 7_000};
        assertThat(
                        LoadSummary.of(
                                        1,
                                        1,
                                        0,
                                        10_000,
                                        7,
                                        7,
                                        0,
                                        new Observation(appends, 7, doubled, 0, null))
                                .exact())
                .isFalse();
        List<CommittedWindow> single = List.of(new CommittedWindow(0, 10_000, 7, 12_000));
        assertThat(
                        LoadSummary.of(
                                        1,
                                        1,
                                        0,
                                        10_000,
                                        7,
                                        7,
                                        0,
                                        new Observation(appends, 7, single, 1, null))
                                .exact())
                .isFalse();
        assertThat(
                        LoadSummary.of(
                                        1,
                                        1,
                                        0,
                                        10_000,
                                        7,
                                        7,
                                        0,
                                        new Observation(appends, 8, single, 0, null))
                                .exact())
                .as("a re-sent copy on the topic counted once is exact")
                .isTrue();
    }

    @Test
    void percentileIsTheNearestRank() {
        long[] sorted = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
        assertThat(LoadSummary.percentile(sorted, 0.5)).isEqualTo(5);
        assertThat(LoadSummary.percentile(sorted, 0.95)).isEqualTo(10);
        assertThat(LoadSummary.percentile(sorted, 0.1)).isEqualTo(1);
        assertThat(LoadSummary.percentile(new long[] {42}, 0.99)).isEqualTo(42);
    }
}
