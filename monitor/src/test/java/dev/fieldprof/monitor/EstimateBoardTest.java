package dev.fieldprof.monitor;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.schemas.EstimateWindow;
import dev.fieldprof.schemas.RankedMethod;
import dev.fieldprof.schemas.SolveStats;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class EstimateBoardTest {

    static EstimateWindow estimate(String app, long endMillis, long reports, boolean cumulative) {
        return EstimateWindow.newBuilder()
                .setAppVersion(app)
                .setConfigId("default")
                .setWindowStartMillis(Instant.ofEpochMilli(endMillis - 60_000))
                .setWindowEndMillis(Instant.ofEpochMilli(endMillis))
                .setCumulative(cumulative)
                .setReports(reports)
                .setK(10)
                .setEpsilon(Math.log(9))
                .setT(1)
                .setNormalized(List.of(0.7, 0.3))
                .setStandardError(0.05)
                .setConsistent(List.of(0.7, 0.3))
                .setHotThreshold(0.25)
                .setHotMethods(List.of(0, 1))
                .setTop(
                        List.of(
                                new RankedMethod(0, "<a.B: void hot()>", 0.7, 0.72),
                                new RankedMethod(1, "<a.B: void cold()>", 0.3, 0.28)))
                .setSolve(new SolveStats(1.5, 0.0, 1, 0.0))
                .setEmittedAtMillis(Instant.ofEpochMilli(endMillis + 10))
                .build();
    }

    @Test
    void keepsNewestWindowAndNewestCumulativePerAppVersion() {
        EstimateBoard board = new EstimateBoard(null);
        board.accept(estimate("app:1", 120_000, 5, false));
        board.accept(estimate("app:1", 60_000, 9, false)); // late, older window: not shown
        board.accept(estimate("app:1", 120_000, 14, true));
        board.accept(estimate("app:2", 60_000, 3, false));

        assertThat(board.entries()).hasSize(2);
        EstimateBoard.Entry app1 = board.entry("app:1", "default").orElseThrow();
        assertThat(app1.window().getReports()).isEqualTo(5);
        assertThat(app1.cumulative().getReports()).isEqualTo(14);
        assertThat(board.estimatesSeen()).isEqualTo(4);
    }

    @Test
    void filtersByAppVersion() {
        EstimateBoard board = new EstimateBoard("app:2");
        board.accept(estimate("app:1", 120_000, 5, false));
        board.accept(estimate("app:2", 60_000, 3, false));
        assertThat(board.entries())
                .extracting(EstimateBoard.Entry::appVersion)
                .containsExactly("app:2");
    }
}
