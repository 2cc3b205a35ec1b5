package dev.fieldprof.benchmarks.paths;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * One child JVM's timing of one stream, and the line in which the child hands it to the parent on
 * its stdout:
 *
 * <pre>
 * fieldprof-timing round=2 program=gson configuration=tracer stream=workload branches=0 calls=0 ms=31.25,30.5
 * </pre>
 *
 * {@code ms} holds the measured runs' thread CPU milliseconds in run order (warm-up runs left out);
 * {@code branches} and {@code calls} are the branch decisions and enter/exit pairs of a replayed
 * stream (0 for the workload). Doubles are written with {@link Double#toString}, so a line reads
 * back exactly.
 *
 * @param round the alternation round the parent started the child in
 * @param millis the measured runs, at least one
 */
record ChildTiming(
        int round,
        String program,
        TimedConfiguration configuration,
        Stream stream,
        long branches,
        long calls,
        double[] millis) {

    /** What was run: the workload, or the recorded events with or without their branches. */
    enum Stream {
        WORKLOAD("workload"),
        ALL_EVENTS("all-events"),
        CALLS_ONLY("calls-only"),
        /**
         * The workload's CPU on its thread plus the staged tracer's coder thread (each run's coding
         * waited for); its {@code branches} are the segments coded and {@code calls} the segments
         * dropped in the measured runs.
         */
        PROCESS("process");

        final String id;

        Stream(String id) {
            this.id = id;
        }

        static Stream of(String id) {
            for (Stream s : values()) {
                if (s.id.equals(id)) {
                    return s;
                }
            }
            throw new IllegalArgumentException(
                    "timing line: unknown stream '"
                            + id
                            + "'; expected one of "
                            + Arrays.stream(values())
                                    .map(s -> s.id)
                                    .collect(Collectors.joining(", ")));
        }
    }

    static final String MARKER = "fieldprof-timing";

    private static final List<String> KEYS =
            List.of("round", "program", "configuration", "stream", "branches", "calls", "ms");

    ChildTiming {
        if (round < 0) {
            throw new IllegalArgumentException("round must be >= 0, got " + round);
        }
        if (program.isEmpty() || program.chars().anyMatch(c -> c == ' ' || c == '=')) {
            throw new IllegalArgumentException(
                    "program name must be non-empty without spaces or '=', got '" + program + "'");
        }
        if (branches < 0 || calls < 0) {
            throw new IllegalArgumentException(
                    "branches and calls must be >= 0, got " + branches + " and " + calls);
        }
        if (millis.length == 0) {
            throw new IllegalArgumentException("a timing needs at least one measured run");
        }
        millis = millis.clone();
    }

    @Override
    public double[] millis() {
        return millis.clone();
    }

    /** The median of the measured runs (this JVM's figure). */
    double medianMillis() {
        return WorkloadCpuTime.median(millis);
    }

    String toLine() {
        return MARKER
                + " round="
                + round
                + " program="
                + program
                + " configuration="
                + configuration.id
                + " stream="
                + stream.id
                + " branches="
                + branches
                + " calls="
                + calls
                + " ms="
                + Arrays.stream(millis).mapToObj(Double::toString).collect(Collectors.joining(","));
    }

    static boolean isTimingLine(String line) {
        return line.startsWith(MARKER + " ");
    }

    /** Reads a line written by {@link #toLine}; a malformed line gets a one-line error. */
    static ChildTiming parse(String line) {
        String[] tokens = line.strip().split(" ");
        if (!tokens[0].equals(MARKER)) {
            throw new IllegalArgumentException(
                    "timing line must start with '" + MARKER + "': " + shorten(line));
        }
        Map<String, String> values = new LinkedHashMap<>();
        for (int i = 1; i < tokens.length; i++) {
            int eq = tokens[i].indexOf('=');
            String key = eq < 0 ? tokens[i] : tokens[i].substring(0, eq);
            if (eq < 0 || !KEYS.contains(key)) {
                throw new IllegalArgumentException(
                        "timing line: unexpected token '" + shorten(tokens[i]) + "'");
            }
            if (values.put(key, tokens[i].substring(eq + 1)) != null) {
                throw new IllegalArgumentException("timing line: '" + key + "' given twice");
            }
        }
        for (String key : KEYS) {
            if (!values.containsKey(key)) {
                throw new IllegalArgumentException(
                        "timing line lacks '" + key + "=': " + shorten(line));
            }
        }
        return new ChildTiming(
                (int) number(values, "round"),
                values.get("program"),
                TimedConfiguration.of(values.get("configuration")),
                Stream.of(values.get("stream")),
                number(values, "branches"),
                number(values, "calls"),
                millis(values.get("ms")));
    }

    private static long number(Map<String, String> values, String key) {
        try {
            return Long.parseLong(values.get(key));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    "timing line: '" + key + "' is not a whole number: '" + values.get(key) + "'");
        }
    }

    private static double[] millis(String list) {
        try {
            double[] ms = Arrays.stream(list.split(",")).mapToDouble(Double::parseDouble).toArray();
            for (double m : ms) {
                if (!(m >= 0) || Double.isInfinite(m)) {
                    throw new NumberFormatException();
                }
            }
            return ms;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    "timing line: 'ms' is not a comma list of finite non-negative numbers: '"
                            + shorten(list)
                            + "'");
        }
    }

    private static String shorten(String s) {
        return s.length() <= 80 ? s : s.substring(0, 77) + "...";
    }
}
