package dev.fieldprof.analysis;

import dev.fieldprof.analysis.phases.Phase;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;

/**
 * Human and machine summaries of an {@link AnalysisResult}: one line for a terminal, JSON stats.
 */
public final class AnalysisReport {

    private AnalysisReport() {}

    /** One line: |V|, statements, pairs by rule, skipped items and wall time. */
    public static String summary(AnalysisResult result) {
        Map<String, Double> stats = result.model().getAnalysisStats();
        return String.format(
                Locale.ROOT,
                "%s: %d methods, %d Jimple statements, %d pairs (%d dominating call site, %d only"
                        + " call site), %d call sites, %d skipped, %d missing classes, %s, %.1f s",
                result.model().getAppVersion(),
                stats.get("methods").longValue(),
                stats.get("jimpleStatements").longValue(),
                stats.get("pairs").longValue(),
                stats.get("pairs.dominatingCallSite").longValue(),
                stats.get("pairs.onlyCallSite").longValue(),
                stats.get("callSites").longValue(),
                result.skipped().size(),
                result.missingClasses().size(),
                result.library() ? "library" : "application",
                stats.get("seconds.total"));
    }

    /**
     * One line per phase and one for the whole run: wall, CPU and thread CPU seconds, the heap's
     * peak and what is in use at the phase's end, with a footnote saying what the columns measure.
     */
    public static String phaseTable(AnalysisResult result) {
        StringBuilder out = new StringBuilder();
        out.append(
                String.format(
                        Locale.ROOT,
                        "%-12s %9s %9s %12s %14s %14s%n",
                        "phase",
                        "wall s",
                        "cpu s",
                        "thread cpu s",
                        "heap peak MB",
                        "heap used MB"));
        for (Phase phase : result.phases()) {
            out.append(
                    String.format(
                            Locale.ROOT,
                            "%-12s %9.2f %9.2f %12.2f %14.0f %14.0f%n",
                            phase.name(),
                            phase.wallSeconds(),
                            phase.cpuSeconds(),
                            phase.threadCpuSeconds(),
                            phase.heapPeakMb(),
                            phase.heapUsedMb()));
        }
        out.append(
                "(cpu = the JVM's CPU time, every thread: GC and JIT included; thread cpu = the"
                        + " analysing thread's alone; heap peak = sum of the heap pools' peaks in"
                        + " the phase; heap used = at the phase's end, garbage included)");
        return out.toString();
    }

    /**
     * The stats as JSON: {@code {"appVersion":..,"stats":{..},"skipped":{name: reason},
     * "missingClasses":[..]}}; keys sorted.
     */
    public static String statsJson(AnalysisResult result) {
        StringBuilder out = new StringBuilder();
        out.append("{\n  \"appVersion\": ").append(quote(result.model().getAppVersion()));
        out.append(",\n  \"stats\": {");
        boolean first = true;
        for (Map.Entry<String, Double> entry :
                new java.util.TreeMap<>(result.model().getAnalysisStats()).entrySet()) {
            out.append(first ? "\n    " : ",\n    ");
            first = false;
            out.append(quote(entry.getKey())).append(": ").append(number(entry.getValue()));
        }
        out.append("\n  },\n  \"skipped\": {");
        first = true;
        for (Map.Entry<String, String> entry :
                new java.util.TreeMap<>(result.skipped()).entrySet()) {
            out.append(first ? "\n    " : ",\n    ");
            first = false;
            out.append(quote(entry.getKey())).append(": ").append(quote(entry.getValue()));
        }
        out.append("\n  },\n  \"missingClasses\": [");
        first = true;
        for (String name : result.missingClasses().stream().sorted().toList()) {
            out.append(first ? "\n    " : ",\n    ");
            first = false;
            out.append(quote(name));
        }
        out.append("\n  ]\n}\n");
        return out.toString();
    }

    public static void writeStatsJson(AnalysisResult result, Path file) {
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            Files.writeString(file, statsJson(result), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    private static String number(double value) {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            return "null";
        }
        if (value == Math.rint(value) && Math.abs(value) < 1e15) {
            return Long.toString((long) value);
        }
        return Double.toString(value);
    }

    static String quote(String text) {
        StringBuilder out = new StringBuilder("\"");
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }
}
