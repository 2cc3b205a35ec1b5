package dev.fieldprof.benchmarks.paths;

import dev.fieldprof.client.PathProbes;
import dev.fieldprof.client.probe.PathProbeHandler;
import dev.fieldprof.client.tracing.PathTracer;
import dev.fieldprof.client.tracing.StagedPathTracer;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.LongSupplier;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * Nanoseconds per path event on the device, side by side for commons-lang3, gson and guava: the
 * {@link dev.fieldprof.paths.CallSitePathEncoder} (format version 3) alone (uniform model and M3),
 * the whole probe path ({@link PathProbes} into a {@link PathTracer}, and into a {@link
 * NoOpProbeHandler}: the probe calls' own share), and replaying the recorded events alone (the
 * encoder columns' harness share). Timed by the thread's CPU time (median of 15 replays after 20
 * warm-up ones, in this JVM) and, unless {@code --no-jmh}, by JMH ({@link EncoderBenchmark}, wall
 * clock, a fork per figure). Also prints a SHA-256 of every report the encoder codes from the run
 * with the uniform model and M3: equal digests from two builds mean byte-identical reports.
 *
 * <pre>
 * java -cp benchmarks/target/classes:$(cat benchmarks/target/cp.txt) \
 *     dev.fieldprof.benchmarks.paths.EncoderBenchmarks [--no-jmh] [programs]
 * </pre>
 */
public final class EncoderBenchmarks {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final int WARMUP = 20;
    private static final int MEASURED = 15;
    private static volatile long sink;

    private EncoderBenchmarks() {}

    public static void main(String[] args) throws Exception {
        boolean jmh = !Arrays.asList(args).contains("--no-jmh");
        List<String> programs = new ArrayList<>(List.of("commons-lang3", "gson", "guava"));
        for (String a : args) {
            if (!a.startsWith("--")) {
                programs.retainAll(List.of(a.split(",")));
            }
        }
        Map<String, double[]> cpu = new HashMap<>();
        Map<String, Integer> events = new HashMap<>();
        Map<String, String> digests = new HashMap<>();
        Map<String, String> stagedDigests = new HashMap<>();
        for (String program : programs) {
            EncoderFixture f = EncoderFixture.of(program);
            events.put(program, f.run.size());
            digests.put(program, f.reportDigest());
            stagedDigests.put(program, f.stagedDigest());
            PathTracer tracer = f.newTracer();
            double replay = cpuNanos(() -> f.replayOnly());
            double uniform = cpuNanos(() -> f.encode(f.uniform, null));
            double m3 = cpuNanos(() -> f.encode(f.m3, null));
            double traced = probeNanos(f, tracer);
            if (PathProbes.failures() != 0 || tracer.droppedEvents() != 0) {
                throw new IllegalStateException(program + ": probe events dropped or failed");
            }
            // After the tracer, so that its probe calls were compiled seeing one handler.
            double noOp = probeNanos(f, new NoOpProbeHandler());
            double v4 = cpuNanos(() -> f.codeStaged(f.m3, null));
            StagedPathTracer staged = f.newStagedTracer();
            double stagedProbe = probeNanos(f, staged, staged::cutCurrentThread);
            int n = f.run.size();
            cpu.put(
                    program,
                    new double[] {
                        replay / n,
                        uniform / n,
                        m3 / n,
                        noOp / n,
                        traced / n,
                        v4 / n,
                        stagedProbe / n
                    });
        }
        Map<String, Double> wall = new HashMap<>();
        if (jmh) {
            OptionsBuilder options = new OptionsBuilder();
            options.include(EncoderBenchmark.class.getName())
                    .param("program", programs.toArray(new String[0]))
                    .verbosity(VerboseMode.SILENT)
                    .shouldFailOnError(true);
            Collection<RunResult> results = new Runner(options.build()).run();
            for (RunResult r : results) {
                String bench = r.getParams().getBenchmark();
                String key =
                        r.getParams().getParam("program")
                                + "/"
                                + bench.substring(bench.lastIndexOf('.') + 1);
                wall.put(key, r.getPrimaryResult().getScore() * 1e6); // ms -> ns per run
            }
        }

        System.out.println(
                "Path events coded per program run (seed 0), ns per event; thread CPU time, median"
                        + " of "
                        + MEASURED
                        + " replays"
                        + (jmh ? " | JMH wall clock, mean" : ""));
        System.out.printf(
                Locale.ROOT,
                "%-14s %9s | %8s %9s %9s | %9s %9s %9s | %8s %9s %9s%s%n",
                "program",
                "events",
                "replay",
                "enc unif",
                "enc M3",
                "no-op",
                "tracer",
                "net",
                "v4 raw",
                "staged",
                "net",
                jmh ? String.format(" | %8s %9s %9s", "replay", "enc M3", "tracer") : "");
        for (String program : programs) {
            double[] c = cpu.get(program);
            int n = events.get(program);
            String j =
                    jmh
                            ? String.format(
                                    Locale.ROOT,
                                    " | %8.1f %9.1f %9.1f",
                                    wall.get(program + "/replayOnly") / n,
                                    wall.get(program + "/encoderM3") / n,
                                    wall.get(program + "/tracer") / n)
                            : "";
            System.out.printf(
                    Locale.ROOT,
                    "%-14s %9d | %8.1f %9.1f %9.1f | %9.1f %9.1f %9.1f | %8.1f %9.1f %9.1f%s%n",
                    program,
                    n,
                    c[0],
                    c[1],
                    c[2],
                    c[3],
                    c[4],
                    c[4] - c[3],
                    c[5],
                    c[6],
                    c[6] - c[3],
                    j);
        }
        System.out.println(
                "(replay: the recording's own share of the enc columns; no-op: the probe calls"
                        + " into a handler that does nothing, the share of the tracer column; net:"
                        + " tracer - no-op, the tracer's cost per event on the device; the tracer"
                        + " codes with M3; v4 raw: the staged tracer's coding loop alone on the"
                        + " run's raw events, segments of 8,192; staged: the probes into a"
                        + " StagedPathTracer coding on the traced thread, M3, and its net)");
        System.out.println();
        System.out.println("SHA-256 of the reports coded with the uniform model, then M3:");
        for (String program : programs) {
            System.out.printf("%-14s %s%n", program, digests.get(program));
        }
        System.out.println("SHA-256 of the staged tracer's version-4 reports (v4 raw), M3:");
        for (String program : programs) {
            System.out.printf("%-14s %s%n", program, stagedDigests.get(program));
        }
    }

    /** CPU nanoseconds of one replay of the run's probe calls into {@code handler}. */
    private static double probeNanos(EncoderFixture f, PathProbeHandler handler) {
        return probeNanos(f, handler, () -> {});
    }

    /** As above, with {@code after} (timed too) after each replay. */
    private static double probeNanos(EncoderFixture f, PathProbeHandler handler, Runnable after) {
        PathProbes.install(handler);
        try {
            return cpuNanos(
                    () -> {
                        f.probe();
                        after.run();
                        return 0;
                    });
        } finally {
            PathProbes.uninstall();
        }
    }

    /** CPU nanoseconds of one call of {@code op}, median of the measured calls. */
    private static double cpuNanos(LongSupplier op) {
        double[] ns = new double[MEASURED];
        for (int i = 0; i < WARMUP + MEASURED; i++) {
            long start = THREADS.getCurrentThreadCpuTime();
            sink += op.getAsLong();
            if (i >= WARMUP) {
                ns[i - WARMUP] = THREADS.getCurrentThreadCpuTime() - start;
            }
        }
        Arrays.sort(ns);
        return ns[MEASURED / 2];
    }
}
