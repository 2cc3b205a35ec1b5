package dev.fieldprof.benchmarks.paths;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * {@link PathBenchmarks}' command line: {@code [scale [programs]] [--rounds N] [--quick]}.
 *
 * <ul>
 *   <li>{@code scale}: the workloads' rounds per run, as a factor (default 1, > 0);
 *   <li>{@code programs}: a comma list of commons-lang3, gson, guava (default all);
 *   <li>{@code --rounds N}: alternating JVM rounds of the timings, each configuration gets one JVM
 *       per round (default 5, the issue's minimum; >= 1);
 *   <li>{@code --quick}: for local use: one round unless {@code --rounds} says otherwise, 20
 *       warm-up and 5 measured runs per JVM instead of 60 and 9 (not the issue's protocol).
 * </ul>
 *
 * @param programs the programs to measure, or null for all
 */
record PathBenchmarkOptions(
        double scale, Set<String> programs, int rounds, int warmup, int measured, boolean quick) {
    static final int DEFAULT_ROUNDS = 5;

    /** The issue's floor: fewer warm-up runs leave the uninstrumented baseline unwarmed. */
    static final int WARMUP = 60;

    static final int MEASURED = 9;
    static final int QUICK_WARMUP = 20;
    static final int QUICK_MEASURED = 5;

    private static final Set<String> PROGRAMS = Set.of("commons-lang3", "gson", "guava");

    /** True if the timings follow the timing protocol (>= 5 JVMs, >= 60 warm-up runs). */
    boolean issueProtocol() {
        return rounds >= DEFAULT_ROUNDS && warmup >= WARMUP;
    }

    static PathBenchmarkOptions parse(String... args) {
        List<String> positional = new ArrayList<>();
        Integer rounds = null;
        boolean quick = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--quick" -> quick = true;
                case "--rounds" -> {
                    if (i + 1 == args.length) {
                        throw new IllegalArgumentException("--rounds needs a number");
                    }
                    rounds = wholeNumber("--rounds", args[++i]);
                    if (rounds < 1) {
                        throw new IllegalArgumentException("--rounds must be >= 1, got " + rounds);
                    }
                }
                default -> {
                    if (args[i].startsWith("--")) {
                        throw new IllegalArgumentException(
                                "unknown option " + args[i] + "; expected --rounds N or --quick");
                    }
                    positional.add(args[i]);
                }
            }
        }
        if (positional.size() > 2) {
            throw new IllegalArgumentException(
                    "expected at most [scale [programs]], got " + String.join(" ", positional));
        }
        double scale = 1.0;
        if (!positional.isEmpty()) {
            try {
                scale = Double.parseDouble(positional.get(0));
            } catch (NumberFormatException e) {
                scale = Double.NaN;
            }
            if (!(scale > 0) || Double.isInfinite(scale)) {
                throw new IllegalArgumentException(
                        "scale must be a number > 0, got '" + positional.get(0) + "'");
            }
        }
        Set<String> programs = null;
        if (positional.size() == 2) {
            programs = Set.copyOf(List.of(positional.get(1).split(",")));
            for (String p : programs) {
                if (!PROGRAMS.contains(p)) {
                    throw new IllegalArgumentException(
                            "unknown program '" + p + "'; expected commons-lang3, gson or guava");
                }
            }
        }
        return new PathBenchmarkOptions(
                scale,
                programs,
                rounds != null ? rounds : quick ? 1 : DEFAULT_ROUNDS,
                quick ? QUICK_WARMUP : WARMUP,
                quick ? QUICK_MEASURED : MEASURED,
                quick);
    }

    private static int wholeNumber(String option, String value) {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    option + " must be a whole number, got '" + value + "'");
        }
    }
}
