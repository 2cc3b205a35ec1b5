package dev.fieldprof.monitor;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.schemas.EstimateWindow;
import java.util.List;
import org.junit.jupiter.api.Test;

class TerminalViewTest {

    @Test
    void rendersTopMethodsWithShareAndStandardError() {
        EstimateBoard board = new EstimateBoard(null);
        board.accept(EstimateBoardTest.estimate("app:1", 120_000, 5, false));
        String frame = new TerminalView(1, false).render(board, List.of("broker 127.0.0.1:9092"));
        assertThat(frame)
                .isEqualTo(
                        "broker 127.0.0.1:9092\n"
                                + "\n"
                                + "app:1 [default]  window 00:01:00-00:02:00 UTC  reports 5  k 10"
                                + "  eps 2.197  t 1  solve 1.5 ms\n"
                                + "  rank     share     unbiased ± s.e.  method\n"
                                + "     1    70.00%    72.00% ±   5.00%  <a.B: void hot()>\n");
    }

    /** An estimate of the shuffled mode states its central (ε, δ) on a line of its own. */
    @Test
    void statesTheCentralGuaranteeOfAShuffledEstimate() {
        EstimateBoard board = new EstimateBoard(null);
        EstimateWindow window = EstimateBoardTest.estimate("app:1", 120_000, 5, false);
        window.setShuffledBatchSizes(List.of(1000, 1200));
        window.setCentralEpsilon(0.6467334);
        window.setCentralDelta(1e-6);
        board.accept(window);
        assertThat(new TerminalView(1, false).render(board, List.of()))
                .contains(
                        "  eps 2.197  t 1  solve 1.5 ms\n"
                                + "  central eps 0.647  delta 1.0e-06  (shuffled: 2 batches,"
                                + " smallest 1000 reports; holds while the shuffler does not"
                                + " collude)\n"
                                + "  rank     share");
    }

    /** Each method's ± is its own standard error when the window carries one per method. */
    @Test
    void rendersEachMethodsOwnStandardError() {
        EstimateBoard board = new EstimateBoard(null);
        dev.fieldprof.schemas.EstimateWindow window =
                EstimateBoardTest.estimate("app:1", 120_000, 5, false);
        window.setStandardErrors(List.of(0.0825, 0.05));
        board.accept(window);
        assertThat(new TerminalView(2, false).render(board, List.of()))
                .endsWith(
                        "  rank     share     unbiased ± s.e.  method\n"
                                + "     1    70.00%    72.00% ±   8.25%  <a.B: void hot()>\n"
                                + "     2    30.00%    28.00% ±   5.00%  <a.B: void cold()>\n");
    }

    @Test
    void printsNamesFromTheRecordInert() {
        EstimateBoard board = new EstimateBoard(null);
        dev.fieldprof.schemas.EstimateWindow estimate =
                EstimateBoardTest.estimate("app:1\u001b]0;owned\u0007", 120_000, 5, false);
        estimate.setConfigId("default\u202e");
        estimate.setTop(
                List.of(
                        new dev.fieldprof.schemas.RankedMethod(
                                0, "<a.B: void \u001b[2J\u001b[Hhot()>", 0.7, 0.72)));
        board.accept(estimate);
        String frame = new TerminalView(1, false).render(board, List.of());
        assertThat(frame)
                .isEqualTo(
                        "\n"
                                + "app:1 [default]  window 00:01:00-00:02:00 UTC  reports 5  k 10"
                                + "  eps 2.197  t 1  solve 1.5 ms\n"
                                + "  rank     share     unbiased ± s.e.  method\n"
                                + "     1    70.00%    72.00% ±   5.00%  <a.B: void hot()>\n");
    }

    @Test
    void writesTheHealthLineWithReportsDeadLettersAndLag() {
        EstimateBoard board = new EstimateBoard(null);
        board.accept(EstimateBoardTest.estimate("app:1", 120_000, 5, false), 122_500);
        assertThat(
                        TerminalView.healthLine(
                                board,
                                java.util.Map.of(
                                        dev.fieldprof.schemas.DeadLetterReason.UNDECODABLE,
                                        2L,
                                        dev.fieldprof.schemas.DeadLetterReason.LATE,
                                        1L)))
                .isEqualTo(
                        "health: reports 5 in window 00:01:00-00:02:00 UTC, lag 2.5 s,"
                                + " dead letters 3 (UNDECODABLE 2, LATE 1)\n");
    }

    @Test
    void marksARevisedWindowAndKeepsTheLagOfItsFirstEstimate() {
        EstimateBoard board = new EstimateBoard(null);
        EstimateWindow first = EstimateBoardTest.estimate("app:1", 120_000, 5, false);
        board.accept(first, 122_500);
        EstimateWindow revised = EstimateWindow.newBuilder(first).setReports(6).build();
        revised.setRevision(2);
        board.accept(revised, 300_000);
        // An older revision read after the newer one changes nothing.
        board.accept(first, 310_000);
        assertThat(TerminalView.healthLine(board, java.util.Map.of()))
                .isEqualTo(
                        "health: reports 6 in window 00:01:00-00:02:00 UTC (rev 2), lag 2.5 s,"
                                + " dead letters 0\n");
        assertThat(new TerminalView(1, false).render(board, List.of()))
                .contains("app:1 [default]  window 00:01:00-00:02:00 UTC (rev 2)  reports 6  k 10");
    }

    @Test
    void saysItIsWaitingBeforeTheFirstEstimate() {
        String frame = new TerminalView(5, false).render(new EstimateBoard(null), List.of());
        assertThat(frame).isEqualTo("waiting for the first estimate ...\n");
    }
}
