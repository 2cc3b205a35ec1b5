package dev.fieldprof.monitor;

import dev.fieldprof.diff.report.TerminalText;
import dev.fieldprof.schemas.DeadLetterReason;
import dev.fieldprof.schemas.EstimateWindow;
import dev.fieldprof.schemas.RankedMethod;
import dev.fieldprof.schemas.StandardErrors;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;
import java.util.TreeMap;

/**
 * Renders an {@link EstimateBoard} as text: per app version, the newest window and the cumulative
 * estimate with the top methods, their estimated share and its standard error.
 */
public final class TerminalView {
    private static final DateTimeFormatter TIME =
            DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneOffset.UTC);
    private static final String CLEAR_SCREEN = "\u001b[H\u001b[2J";

    private final int top;
    private final boolean ansi;

    /**
     * @param top how many methods to list per estimate, at least 1
     * @param ansi clear the screen before each frame (for a terminal; off when piped)
     */
    public TerminalView(int top, boolean ansi) {
        if (top < 1) {
            throw new IllegalArgumentException("top must be >= 1, got " + top);
        }
        this.top = top;
        this.ansi = ansi;
    }

    /** One frame of the live view; {@code header} lines come first (addresses, topics). */
    public String render(EstimateBoard board, List<String> header) {
        StringBuilder out = new StringBuilder();
        if (ansi) {
            out.append(CLEAR_SCREEN);
        }
        header.forEach(line -> out.append(line).append('\n'));
        if (board.entries().isEmpty()) {
            out.append("waiting for the first estimate ...\n");
            return out.toString();
        }
        for (EstimateBoard.Entry entry : board.entries()) {
            out.append('\n');
            if (entry.window() != null) {
                appendEstimate(out, entry.window());
            }
            if (entry.cumulative() != null) {
                appendEstimate(out, entry.cumulative());
            }
        }
        return out.toString();
    }

    /**
     * The health line under the table: the newest window's reports and lag, and the dead letters by
     * reason (the monitor page shows the same figures).
     */
    public static String healthLine(EstimateBoard board, Map<DeadLetterReason, Long> deadLetters) {
        StringBuilder out = new StringBuilder("health: ");
        EstimateWindow last = board.lastWindow();
        if (last == null) {
            out.append("no window yet");
        } else {
            out.append(
                    String.format(
                            Locale.ROOT,
                            "reports %d in window %s-%s UTC%s, lag %.1f s",
                            last.getReports(),
                            TIME.format(last.getWindowStartMillis()),
                            TIME.format(last.getWindowEndMillis()),
                            revisionMark(last),
                            board.lastWindowLagMillis() / 1000.0));
        }
        long total = deadLetters.values().stream().mapToLong(Long::longValue).sum();
        out.append(", dead letters ").append(total);
        if (total > 0) {
            StringJoiner reasons = new StringJoiner(", ", " (", ")");
            new TreeMap<>(deadLetters)
                    .forEach((reason, count) -> reasons.add(reason + " " + count));
            out.append(reasons);
        }
        return out.append('\n').toString();
    }

    private void appendEstimate(StringBuilder out, EstimateWindow estimate) {
        out.append(
                String.format(
                        Locale.ROOT,
                        "%s [%s]  %s %s-%s UTC%s  reports %d  k %d  eps %.3f  t %d  solve %.1f"
                                + " ms%n",
                        TerminalText.inert(estimate.getAppVersion()),
                        TerminalText.inert(estimate.getConfigId()),
                        estimate.getCumulative() ? "since" : "window",
                        TIME.format(estimate.getWindowStartMillis()),
                        TIME.format(estimate.getWindowEndMillis()),
                        estimate.getCumulative() ? "" : revisionMark(estimate),
                        estimate.getReports(),
                        estimate.getK(),
                        estimate.getEpsilon(),
                        estimate.getT(),
                        estimate.getSolve().getMillis()));
        if (estimate.getCentralEpsilon() > 0) {
            out.append(centralLine(estimate));
        }
        out.append(
                String.format(
                        Locale.ROOT,
                        "  %4s  %8s  %18s  %s%n",
                        "rank",
                        "share",
                        "unbiased ± s.e.",
                        "method"));
        List<RankedMethod> methods = estimate.getTop();
        for (int i = 0; i < Math.min(top, methods.size()); i++) {
            RankedMethod method = methods.get(i);
            out.append(
                    String.format(
                            Locale.ROOT,
                            "  %4d  %7.2f%%  %7.2f%% ± %6.2f%%  %s%n",
                            i + 1,
                            100 * method.getShare(),
                            100 * method.getNormalized(),
                            100 * StandardErrors.of(estimate, method.getMethodId()),
                            TerminalText.inert(method.getSignature())));
        }
    }

    /**
     * The shuffled mode's line under an estimate's header: the central (ε, δ) it holds and the
     * smallest of its batches, which that guarantee is computed at.
     */
    static String centralLine(EstimateWindow estimate) {
        List<Integer> sizes = estimate.getShuffledBatchSizes();
        return String.format(
                Locale.ROOT,
                "  central eps %.3f  delta %.1e  (shuffled: %d batch%s, smallest %d reports;"
                        + " holds while the shuffler does not collude)%n",
                estimate.getCentralEpsilon(),
                estimate.getCentralDelta(),
                sizes.size(),
                sizes.size() == 1 ? "" : "es",
                sizes.isEmpty() ? 0 : java.util.Collections.min(sizes));
    }

    /**
     * " (rev N)" for a window published again with reports that arrived after its first estimate,
     * nothing for a first publication.
     */
    static String revisionMark(EstimateWindow window) {
        return window.getRevision() > 1 ? " (rev " + window.getRevision() + ")" : "";
    }
}
