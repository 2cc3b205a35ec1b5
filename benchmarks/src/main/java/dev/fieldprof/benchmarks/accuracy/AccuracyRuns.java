package dev.fieldprof.benchmarks.accuracy;

import dev.fieldprof.analysis.AnalysisRequest;
import dev.fieldprof.analysis.ProgramAnalyzer;
import dev.fieldprof.analysis.World;
import dev.fieldprof.bytecode.instrument.InstrumentationResult;
import dev.fieldprof.bytecode.instrument.JarInstrumenter;
import dev.fieldprof.bytecode.model.ProgramModels;
import dev.fieldprof.schemas.OrderPair;
import dev.fieldprof.schemas.ProgramModel;
import dev.fieldprof.workloads.RandomApiDriver;
import java.io.BufferedWriter;
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Records the ground truth of the accuracy study on real programs: analyzes each jar with the real
 * analysis, instruments it with the real instrumenter, runs it as N simulated devices (device i =
 * one seeded random run) and writes, per program, the model file and a runs CSV of exact per-method
 * entry counts that {@code fieldprof evaluate --model M --runs R.csv} reads. Usage in
 * benchmarks/README.md.
 */
public final class AccuracyRuns {

    /**
     * A program of the study.
     *
     * @param name file name stem
     * @param jar the program jar
     * @param world how the analysis treats outside callers
     * @param packagePrefix the API the random driver uses; null for the demo's user sessions
     */
    public record Program(String name, Path jar, World world, String packagePrefix) {}

    /** What recording one program produced. */
    public record Recorded(
            Program program,
            ProgramModel model,
            Path modelFile,
            Path runsFile,
            int devices,
            long minEvents,
            long maxEvents,
            double meanEvents,
            int devicesBelowK,
            int methodsExecuted,
            int vmErrorRuns,
            int runsViolatingPairs,
            long aggregateViolations,
            double meanCalls,
            double seconds) {

        public String row() {
            int methods = model.getMethods().size();
            return String.format(
                    Locale.ROOT,
                    "%-22s |V|=%5d pairs=%5d devices=%5d k=%6d events/device mean=%8.0f min=%7d"
                            + " max=%9d (<k: %d) methods-run=%5d calls/device=%7.0f"
                            + " vm-error-runs-replaced=%d runs-violating-a-pair=%d"
                            + " aggregate-violations=%d  %.1f s",
                    model.getAppVersion(),
                    methods,
                    model.getPairs().size(),
                    devices,
                    5L * methods,
                    meanEvents,
                    minEvents,
                    maxEvents,
                    devicesBelowK,
                    methodsExecuted,
                    meanCalls,
                    vmErrorRuns,
                    runsViolatingPairs,
                    aggregateViolations,
                    seconds);
        }
    }

    private AccuracyRuns() {}

    public static void main(String[] args) throws Exception {
        Map<String, String> options = parse(args);
        Path out = Paths.get(options.getOrDefault("--out", "benchmarks/target/accuracy"));
        int devices = Integer.parseInt(options.getOrDefault("--devices", "1000"));
        long seed = Long.parseLong(options.getOrDefault("--seed", "20261122"));
        int minCalls = Integer.parseInt(options.getOrDefault("--min-calls", "200"));
        int maxCalls = Integer.parseInt(options.getOrDefault("--max-calls", "200000"));
        Path demoJar =
                Paths.get(
                        options.getOrDefault(
                                "--demo-jar",
                                "samples/demo-app/target/fieldprof-demo-app-0.1.0-SNAPSHOT.jar"));
        List<String> wanted =
                List.of(options.getOrDefault("--programs", "lang3,gson,codec,demo").split(","));
        Files.createDirectories(out);
        System.out.println(
                "accuracy runs: seed="
                        + seed
                        + " devices="
                        + devices
                        + " target events/device = 2k = 10|V|, calls/device in ["
                        + minCalls
                        + ", "
                        + maxCalls
                        + "]");
        for (String name : wanted) {
            Program program = program(name.trim(), demoJar);
            Recorded recorded = record(program, out, devices, seed, minCalls, maxCalls);
            System.out.println(recorded.row());
            System.out.println("  model " + recorded.modelFile() + "  runs " + recorded.runsFile());
        }
    }

    /**
     * A program of the studies by short name: lang3, gson, codec, guava (the Maven Central jars on
     * this module's class path) or demo (the demo app's jar).
     */
    public static Program program(String name, Path demoJar) throws ClassNotFoundException {
        return switch (name) {
            case "lang3" ->
                    library(
                            "commons-lang3",
                            "org.apache.commons.lang3.StringUtils",
                            "org.apache.commons.lang3");
            case "gson" -> library("gson", "com.google.gson.Gson", "com.google.gson");
            case "codec" ->
                    library(
                            "commons-codec",
                            "org.apache.commons.codec.binary.Base64",
                            "org.apache.commons.codec");
            case "guava" ->
                    library(
                            "guava",
                            "com.google.common.collect.ImmutableList",
                            "com.google.common");
            case "demo" -> new Program("notes", demoJar.toAbsolutePath(), World.AUTO, null);
            default ->
                    throw new IllegalArgumentException(
                            "unknown program " + name + " (lang3, gson, codec, guava, demo)");
        };
    }

    private static Program library(String name, String anyClass, String prefix)
            throws ClassNotFoundException {
        // The jars are the Maven Central artifacts on this module's class path.
        try {
            Path jar =
                    Paths.get(
                            Class.forName(anyClass, false, AccuracyRuns.class.getClassLoader())
                                    .getProtectionDomain()
                                    .getCodeSource()
                                    .getLocation()
                                    .toURI());
            return new Program(name, jar, World.LIBRARY, prefix);
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Analyzes, instruments and runs one program; writes its model and runs CSV into {@code out}.
     */
    public static Recorded record(
            Program program, Path out, int devices, long seed, int minCalls, int maxCalls)
            throws Exception {
        long start = System.nanoTime();
        String version = program.jar().getFileName().toString().replaceFirst("\\.jar$", "");
        String appVersion =
                program.packagePrefix() == null
                        ? "notes:1.0"
                        : program.name() + ":" + version.substring(version.lastIndexOf('-') + 1);
        ProgramModel model =
                ProgramAnalyzer.analyze(
                                AnalysisRequest.of(program.jar(), appVersion)
                                        .withWorld(program.world()))
                        .model();
        Path modelFile = out.resolve(program.name() + ".model");
        ProgramModels.write(model, modelFile);
        // The same model without pairs: evaluated with the same seed, its "g*" is the projection
        // onto the simplex alone, which separates what the pairs add from what non-negativity and
        // the unit sum do.
        ProgramModels.write(
                ProgramModel.newBuilder(model).setPairs(List.of()).build(),
                out.resolve(program.name() + "-nopairs.model"));
        Path instrumented = out.resolve(program.name() + "-instrumented.jar");
        InstrumentationResult instrumentation =
                new JarInstrumenter(false).instrument(program.jar(), model, instrumented);
        if (!instrumentation.modelMethodsNotFound().isEmpty()) {
            throw new IllegalStateException(
                    "instrumentation missed model methods "
                            + instrumentation.modelMethodsNotFound());
        }
        int methods = model.getMethods().size();
        long k = 5L * methods;
        // Twice k, as the synthetic workload does, so the device's k-sample is a real sample.
        long target = 2 * k;
        Path runsFile = out.resolve(program.name() + "-runs.csv");
        List<OrderPair> pairs = model.getPairs();
        long[] aggregate = new long[methods];
        long minEvents = Long.MAX_VALUE;
        long maxEvents = 0;
        double events = 0;
        double calls = 0;
        int belowK = 0;
        int vmErrors = 0;
        int violating = 0;
        try (CountingProgramLoader loader =
                        new CountingProgramLoader(
                                instrumented, AccuracyRuns.class.getClassLoader());
                BufferedWriter writer = Files.newBufferedWriter(runsFile, StandardCharsets.UTF_8)) {
            writer.write(
                    "# "
                            + model.getAppVersion()
                            + ": exact per-method entry counts of one seeded run per line,"
                            + " method-id order, seed "
                            + seed
                            + "\n");
            DeviceRun device = deviceRun(program, loader);
            java.io.PrintStream stdout = System.out;
            java.io.PrintStream stderr = System.err;
            java.io.PrintStream silent =
                    new java.io.PrintStream(java.io.OutputStream.nullOutputStream());
            int recorded = 0;
            java.util.concurrent.atomic.AtomicLong runStart =
                    new java.util.concurrent.atomic.AtomicLong(System.nanoTime());
            Thread watchdog = watchdog(Thread.currentThread(), runStart, stderr, program.name());
            for (long runSeed = seed; recorded < devices; runSeed++) {
                runStart.set(System.nanoTime());
                if (vmErrors > devices) {
                    throw new IllegalStateException(
                            vmErrors + " runs of " + program.name() + " hit VM errors");
                }
                loader.reset(methods);
                RandomApiDriver.Run run;
                // Random calls such as printStackTrace(...) would otherwise flood the report.
                System.setOut(silent);
                System.setErr(silent);
                try {
                    run = device.run(runSeed, loader::total, target, minCalls, maxCalls);
                } finally {
                    System.setOut(stdout);
                    System.setErr(stderr);
                }
                if (run.vmError()) {
                    // A StackOverflowError or OutOfMemoryError can strike between a call and the
                    // callee's entry, which the pairs assume never happens: such a run is not a
                    // device's use, so it is replaced by the next seed (and counted).
                    vmErrors++;
                    continue;
                }
                recorded++;
                long[] counts = loader.counts();
                if (loader.outOfRange() != 0) {
                    throw new IllegalStateException(
                            loader.outOfRange() + " probe ids outside [0, |V|) in run " + runSeed);
                }
                long total = 0;
                StringBuilder line = new StringBuilder(methods * 3);
                for (int v = 0; v < methods; v++) {
                    total += counts[v];
                    aggregate[v] += counts[v];
                    if (v > 0) {
                        line.append(',');
                    }
                    line.append(counts[v]);
                }
                writer.write(line.append('\n').toString());
                if (violatedPairs(pairs, counts) > 0) {
                    violating++;
                }
                minEvents = Math.min(minEvents, total);
                maxEvents = Math.max(maxEvents, total);
                events += total;
                calls += run.calls();
                belowK += total < k ? 1 : 0;
            }
            watchdog.interrupt();
        }
        int executed = 0;
        for (long count : aggregate) {
            executed += count > 0 ? 1 : 0;
        }
        return new Recorded(
                program,
                model,
                modelFile,
                runsFile,
                devices,
                minEvents,
                maxEvents,
                events / devices,
                belowK,
                executed,
                vmErrors,
                violating,
                violatedPairs(pairs, aggregate),
                calls / devices,
                (System.nanoTime() - start) / 1e9);
    }

    /**
     * Ends the JVM with the stuck stack when one run takes over {@value #RUN_LIMIT_SECONDS} s: a
     * random input can send library code into an endless loop, and no thread can be stopped safely,
     * so the recording fails loudly rather than hang.
     */
    public static Thread watchdog(
            Thread driver,
            java.util.concurrent.atomic.AtomicLong runStart,
            java.io.PrintStream stderr,
            String program) {
        return watchdog(driver, runStart, stderr, program, RUN_LIMIT_SECONDS);
    }

    /**
     * {@link #watchdog(Thread, java.util.concurrent.atomic.AtomicLong, java.io.PrintStream,
     * String)} with another limit, in seconds of wall time.
     */
    public static Thread watchdog(
            Thread driver,
            java.util.concurrent.atomic.AtomicLong runStart,
            java.io.PrintStream stderr,
            String program,
            int limitSeconds) {
        Thread watchdog =
                new Thread(
                        () -> {
                            try {
                                while (true) {
                                    Thread.sleep(1_000);
                                    long seconds =
                                            (System.nanoTime() - runStart.get()) / 1_000_000_000L;
                                    if (seconds > limitSeconds) {
                                        stderr.println(
                                                "a run of "
                                                        + program
                                                        + " is stuck after "
                                                        + seconds
                                                        + " s in:");
                                        for (StackTraceElement frame : driver.getStackTrace()) {
                                            stderr.println("    at " + frame);
                                        }
                                        Runtime.getRuntime().halt(3);
                                    }
                                }
                            } catch (InterruptedException e) {
                                // recording finished
                            }
                        },
                        "accuracy-runs-watchdog");
        watchdog.setDaemon(true);
        watchdog.start();
        return watchdog;
    }

    public static final int RUN_LIMIT_SECONDS = 60;

    /** Pairs F(left) ≤ F(right) that {@code counts} violates. */
    static long violatedPairs(List<OrderPair> pairs, long[] counts) {
        long violated = 0;
        for (OrderPair pair : pairs) {
            if (counts[pair.getLeft()] > counts[pair.getRight()]) {
                violated++;
            }
        }
        return violated;
    }

    /** One device's run of a program, stopping once its counted events reach a target. */
    interface DeviceRun {
        RandomApiDriver.Run run(
                long seed,
                java.util.function.LongSupplier events,
                long target,
                int minCalls,
                int maxCalls)
                throws Exception;
    }

    private static DeviceRun deviceRun(Program program, CountingProgramLoader loader)
            throws ReflectiveOperationException {
        if (program.packagePrefix() != null) {
            RandomApiDriver driver =
                    new RandomApiDriver(loader, loader.classNames(), program.packagePrefix());
            return driver::run;
        }
        // The demo app: one user (its habits from the seed) running sessions of 20 commands.
        Class<?> session = Class.forName("dev.fieldprof.samples.notes.UserSession", true, loader);
        Constructor<?> newSession = session.getConstructor(long.class, long.class);
        Method run = session.getMethod("run", int.class);
        return (seed, events, target, minCalls, maxCalls) -> {
            int sessions = 0;
            while (sessions < maxCalls && (sessions < 1 || events.getAsLong() < target)) {
                run.invoke(newSession.newInstance(seed, sessions), 20);
                sessions++;
            }
            return new RandomApiDriver.Run(sessions, false);
        };
    }

    private static Map<String, String> parse(String[] args) {
        Map<String, String> options = new LinkedHashMap<>();
        List<String> known =
                new ArrayList<>(
                        List.of(
                                "--out",
                                "--devices",
                                "--seed",
                                "--min-calls",
                                "--max-calls",
                                "--demo-jar",
                                "--programs"));
        for (int i = 0; i < args.length; i++) {
            if (!known.contains(args[i]) || i + 1 == args.length) {
                throw new IllegalArgumentException(
                        "usage: AccuracyRuns [--out DIR] [--devices N] [--seed S]"
                                + " [--programs lang3,gson,codec,demo] [--min-calls N]"
                                + " [--max-calls N] [--demo-jar JAR]; got "
                                + args[i]);
            }
            options.put(args[i], args[++i]);
        }
        return options;
    }
}
