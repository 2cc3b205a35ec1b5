package dev.fieldprof.diff.report;

import dev.fieldprof.diff.estimates.EstimateDiff;
import dev.fieldprof.diff.estimates.MethodAlignment;
import dev.fieldprof.diff.estimates.NormalDistribution;
import dev.fieldprof.diff.estimates.ReleaseEstimate;
import java.util.List;
import java.util.Locale;

/**
 * The terminal table of an {@link EstimateDiff}: compared methods (flagged ones first, by |Δĝ|),
 * then the methods gone in V2 and those new in V2, by g*; at most {@code top} rows per section.
 * Shares are printed in percent of all method entries. Stateless.
 */
public final class EstimateTextReport {
    private EstimateTextReport() {}

    /**
     * Renders the report.
     *
     * @param top rows per section, >= 1
     */
    public static String render(EstimateDiff diff, int top) {
        if (top < 1) {
            throw new IllegalArgumentException("top must be >= 1, was " + top);
        }
        StringBuilder out = new StringBuilder();
        line(out, "V1", diff.first());
        line(out, "V2", diff.second());
        long viaGraph =
                diff.changes().stream()
                        .filter(c -> c.source() == MethodAlignment.Source.CALL_GRAPH)
                        .count();
        out.append(
                String.format(
                        Locale.ROOT,
                        "%d methods compared (%d paired by call graph alignment, marked ~), %d"
                                + " changed at FDR %.3g (Benjamini-Yekutieli), %d gone, %d new%n",
                        diff.changes().size(),
                        viaGraph,
                        diff.discoveries(),
                        diff.fdr(),
                        diff.gone().size(),
                        diff.added().size()));
        out.append("shares in % of method entries; delta = g^(V2) - g^(V1), CI 95%\n\n");
        out.append(
                String.format(
                        Locale.ROOT,
                        "%4s %1s %8s %8s %8s %19s %9s %9s %7s %7s  %s%n",
                        "#",
                        "",
                        "g^ V1",
                        "g^ V2",
                        "delta",
                        "95% CI",
                        "p",
                        "q",
                        "g* V1",
                        "g* V2",
                        "method"));
        List<EstimateDiff.MethodChange> changes = diff.changes();
        for (int i = 0; i < Math.min(top, changes.size()); i++) {
            EstimateDiff.MethodChange c = changes.get(i);
            String name =
                    c.source() == MethodAlignment.Source.CALL_GRAPH
                            ? c.signatureFirst() + "  ~ " + c.signatureSecond()
                            : c.signatureSecond();
            out.append(
                    String.format(
                            Locale.ROOT,
                            "%4d %1s %8.3f %8.3f %+8.3f [%+8.3f,%+8.3f] %9.2e %9.2e %7.3f %7.3f "
                                    + " %s%n",
                            i + 1,
                            c.significant() ? "*" : "",
                            100 * c.normalizedFirst(),
                            100 * c.normalizedSecond(),
                            100 * c.difference(),
                            100 * c.lower95(),
                            100 * c.upper95(),
                            c.pValue(),
                            c.qValue(),
                            100 * c.consistentFirst(),
                            100 * c.consistentSecond(),
                            TerminalText.inert(name)));
        }
        more(out, changes.size(), top);
        section(out, "Gone in V2, by g* in V1", diff.gone(), top);
        section(out, "New in V2, by g* in V2", diff.added(), top);
        return out.toString();
    }

    private static void line(StringBuilder out, String label, ReleaseEstimate r) {
        out.append(
                String.format(
                        Locale.ROOT,
                        "%s = %s: config %s, %d reports, |V| = %d, standard error up to %.3g%%%n",
                        label,
                        TerminalText.inert(r.appVersion()),
                        TerminalText.inert(r.configId()),
                        r.reports(),
                        r.size(),
                        100 * r.largestStandardError()));
    }

    private static void section(
            StringBuilder out, String title, List<EstimateDiff.MethodShare> shares, int top) {
        out.append('\n').append(title).append('\n');
        out.append(
                String.format(
                        Locale.ROOT,
                        "%4s %8s %19s %7s  %s%n",
                        "#",
                        "g^",
                        "95% CI",
                        "g*",
                        "method"));
        for (int i = 0; i < Math.min(top, shares.size()); i++) {
            EstimateDiff.MethodShare s = shares.get(i);
            double half = NormalDistribution.Z_95 * s.standardError();
            out.append(
                    String.format(
                            Locale.ROOT,
                            "%4d %8.3f [%+8.3f,%+8.3f] %7.3f  %s%n",
                            i + 1,
                            100 * s.normalized(),
                            100 * (s.normalized() - half),
                            100 * (s.normalized() + half),
                            100 * s.consistent(),
                            TerminalText.inert(s.signature())));
        }
        more(out, shares.size(), top);
    }

    private static void more(StringBuilder out, int size, int top) {
        if (size == 0) {
            out.append("     (none)\n");
        } else if (size > top) {
            out.append("     ... ").append(size - top).append(" more\n");
        }
    }
}
