package dev.fieldprof.benchmarks.analysis;

import dev.fieldprof.analysis.AnalysisRequest;
import dev.fieldprof.analysis.AnalysisResult;
import dev.fieldprof.analysis.ProgramAnalyzer;
import dev.fieldprof.analysis.phases.Phase;
import dev.fieldprof.bytecode.instrument.InstrumentationResult;
import dev.fieldprof.bytecode.instrument.JarInstrumenter;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;

/**
 * The analysis figures, measured on one real jar: |V|, Jimple statements, pairs, the order-pair
 * analysis' seconds per 100K statements (frequency profiling, docs/references.md, reports 3.93 s
 * per 100K for its whole Soot analysis in Section 5.2), the whole analysis wall time, and
 * instrumented classes per second.
 */
public final class AnalysisBenchmark {

    /** One measured jar. */
    public record Row(
            String program,
            int methods,
            long statements,
            int pairs,
            double algorithm1SecondsPer100k,
            double algorithm1CpuSecondsPer100k,
            double analysisSecondsPer100k,
            double analyzeSeconds,
            double analyzeCpuSeconds,
            double sootBodySeconds,
            double heapPeakMb,
            int classesInstrumented,
            double instrumentClassesPerSecond) {

        public static String header() {
            return String.format(
                    Locale.ROOT,
                    "%-26s %7s %9s %7s %12s %13s %13s %11s %9s %10s %8s %9s %12s",
                    "program",
                    "|V|",
                    "stmts",
                    "pairs",
                    "alg1 s/100K",
                    "alg1 cpu/100K",
                    "whole s/100K",
                    "analyze s",
                    "cpu s",
                    "bodies s",
                    "heap MB",
                    "classes",
                    "instr cls/s");
        }

        public String line() {
            return String.format(
                    Locale.ROOT,
                    "%-26s %7d %9d %7d %12.2f %13.2f %13.2f %11.2f %9.2f %10.2f %8.0f %9d %12.0f",
                    program,
                    methods,
                    statements,
                    pairs,
                    algorithm1SecondsPer100k,
                    algorithm1CpuSecondsPer100k,
                    analysisSecondsPer100k,
                    analyzeSeconds,
                    analyzeCpuSeconds,
                    sootBodySeconds,
                    heapPeakMb,
                    classesInstrumented,
                    instrumentClassesPerSecond);
        }
    }

    private AnalysisBenchmark() {}

    /** Analyses and instruments {@code jar} once (a library, every class application). */
    public static Row measure(String program, Path jar) throws IOException {
        java.lang.management.ThreadMXBean threads =
                java.lang.management.ManagementFactory.getThreadMXBean();
        long cpuStart = threads.getCurrentThreadCpuTime();
        long start = System.nanoTime();
        AnalysisResult result =
                ProgramAnalyzer.analyze(
                        AnalysisRequest.of(
                                jar, program.contains(":") ? program : program + ":benchmark"));
        double analyzeSeconds = (System.nanoTime() - start) / 1e9;
        // CPU time of the analysing thread: comparable across machine load, unlike wall time.
        double analyzeCpuSeconds = (threads.getCurrentThreadCpuTime() - cpuStart) / 1e9;
        Map<String, Double> stats = result.model().getAnalysisStats();
        long statements = stats.get("jimpleStatements").longValue();
        double whole =
                stats.getOrDefault("seconds.soot.bodies", 0.0)
                        + stats.getOrDefault("seconds.soot.facts", 0.0)
                        + stats.getOrDefault("seconds.algorithm1", 0.0);
        double algorithm1Cpu = 0;
        double heapPeak = 0;
        for (Phase phase : result.phases()) {
            if (phase.name().equals("soot.facts") || phase.name().equals("algorithm1")) {
                algorithm1Cpu += phase.cpuSeconds();
            }
            if (phase.name().equals("total")) {
                heapPeak = phase.heapPeakMb();
            }
        }
        Path out = Files.createTempFile("fieldprof-bench-", ".jar");
        try {
            InstrumentationResult instrumentation =
                    new JarInstrumenter(true).instrument(jar, result.model(), out);
            return new Row(
                    program,
                    result.model().getMethods().size(),
                    statements,
                    result.model().getPairs().size(),
                    stats.get("algorithm1.secondsPer100kStatements"),
                    statements == 0 ? 0 : algorithm1Cpu * 100_000 / statements,
                    statements == 0 ? 0 : whole * 100_000 / statements,
                    analyzeSeconds,
                    analyzeCpuSeconds,
                    stats.getOrDefault("seconds.soot.bodies", 0.0),
                    heapPeak,
                    instrumentation.classesInstrumented(),
                    instrumentation.classesPerSecond());
        } finally {
            Files.deleteIfExists(out);
        }
    }

    /** Prints the table for {@code name=path.jar} arguments. */
    public static void main(String[] args) throws IOException {
        print(System.out, args);
    }

    public static void print(PrintStream out, String... namedJars) throws IOException {
        out.println(Row.header());
        for (String argument : namedJars) {
            int equals = argument.indexOf('=');
            String name = equals > 0 ? argument.substring(0, equals) : argument;
            Path jar = Path.of(equals > 0 ? argument.substring(equals + 1) : argument);
            out.println(measure(name, jar).line());
        }
        out.printf(
                Locale.ROOT,
                "(alg1 = Soot facts + unknown callers + pairs, wall; alg1 cpu = the same phases'"
                        + " process CPU time, GC included; whole = Jimple bodies + alg1; cpu ="
                        + " analysing thread's CPU time; heap MB = highest phase's heap peak; the"
                        + " paper: 3.93 s per 100K statements; %d cores, load average %.1f)%n",
                Runtime.getRuntime().availableProcessors(),
                java.lang.management.ManagementFactory.getOperatingSystemMXBean()
                        .getSystemLoadAverage());
    }
}
