package dev.fieldprof.monitor;

import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The terminal live view shared by {@code fieldprof watch} and {@code fieldprof demo}: polls the
 * estimates topic and redraws when new estimates arrive, until told to stop.
 */
public final class LiveView {
    private final EstimatesTail tail;
    private final EstimateBoard board;
    private final TerminalView view;
    private final PrintStream out;
    private final DeadLetterTally deadLetters;

    /**
     * @param deadLetters the dead letters counted in the health line under the table
     */
    public LiveView(
            EstimatesTail tail,
            DeadLetterTally deadLetters,
            EstimateBoard board,
            TerminalView view,
            PrintStream out) {
        this.tail = tail;
        this.deadLetters = deadLetters;
        this.board = board;
        this.view = view;
        this.out = out;
    }

    /**
     * Redraws on every new estimate until {@code stop} says so or {@code until} passes.
     *
     * @param header lines printed above the estimates; evaluated at every frame
     * @return the number of estimates shown
     */
    public long run(Supplier<List<String>> header, BooleanSupplier stop, Instant until) {
        boolean first = true;
        while (!stop.getAsBoolean() && Instant.now().isBefore(until)) {
            int arrived = tail.pollWithTimes(Duration.ofMillis(500), board::accept);
            arrived += deadLetters.poll(Duration.ZERO);
            if (arrived > 0 || first) {
                List<String> lines = new ArrayList<>(header.get());
                out.print(view.render(board, lines));
                out.print(TerminalView.healthLine(board, deadLetters.byReason()));
                out.flush();
                first = false;
            }
        }
        return board.estimatesSeen();
    }
}
