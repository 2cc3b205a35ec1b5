package dev.fieldprof.analysis.soundness;

import dev.fieldprof.analysis.AnalysisRequest;
import dev.fieldprof.analysis.AnalysisResult;
import dev.fieldprof.analysis.FixtureJars;
import dev.fieldprof.analysis.ProgramAnalyzer;
import dev.fieldprof.analysis.World;
import dev.fieldprof.bytecode.instrument.JarInstrumenter;
import dev.fieldprof.schemas.OrderPair;
import dev.fieldprof.schemas.ProgramModel;
import dev.fieldprof.workloads.RandomApiDriver;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Soundness of the pairs on a real library: analyse its jar, instrument it, drive it with the
 * seeded {@link RandomApiDriver} in a child JVM (the fixture main {@value #DRIVER_MAIN}, which
 * records the exact counts of every run), and check F(left) ≤ F(right) of every pair against those
 * counts.
 */
public final class SoundnessCheck {

    /** One violated pair in one run. */
    public record Violation(
            String left, String right, String rule, int run, long leftCount, long rightCount) {}

    /** The outcome on one program. */
    public record Outcome(
            String program,
            int methods,
            int pairs,
            int runs,
            int runsWithVmErrors,
            long pairChecks,
            int methodsExecuted,
            List<Violation> violations,
            AnalysisResult analysis) {

        public String row() {
            return String.format(
                    Locale.ROOT,
                    "%-28s |V|=%5d pairs=%5d runs=%4d (vm-error runs excluded: %d) checks=%9d"
                            + " methods-run=%5d violations=%d",
                    program,
                    methods,
                    pairs,
                    runs,
                    runsWithVmErrors,
                    pairChecks,
                    methodsExecuted,
                    violations.size());
        }
    }

    /** The child JVM's main class, compiled from {@code src/test/fixtures/driver}. */
    static final String DRIVER_MAIN = "fielddriver.CountedRandomRuns";

    private SoundnessCheck() {}

    /**
     * Compiles the driver fixture into {@code classesDir} against the probes fixture and the
     * workloads module; {@link #drive} puts the same three on the child JVM's class path.
     */
    public static Path compileDriver(Path classesDir, Path probesClasses) throws IOException {
        return FixtureJars.compile(
                "driver", classesDir, probesClasses + File.pathSeparator + workloadsClasses());
    }

    /** Where the workloads module's classes are (its jar, or its classes in a reactor build). */
    static Path workloadsClasses() {
        try {
            return Paths.get(
                    RandomApiDriver.class
                            .getProtectionDomain()
                            .getCodeSource()
                            .getLocation()
                            .toURI());
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The exact counts of one driven run; {@code vmError} runs are not checked. */
    public record Run(int index, boolean vmError, Map<Integer, Long> counts) {}

    /** Analyses the jar under SOUND rules as a library, then instruments and drives it. */
    public static Outcome run(
            String program,
            Path jar,
            String packagePrefix,
            Path probesClasses,
            Path driverClasses,
            int runs,
            int callsPerRun,
            long seed,
            Path workDir)
            throws IOException, InterruptedException {
        AnalysisResult analysis =
                ProgramAnalyzer.analyze(AnalysisRequest.of(jar, program).withWorld(World.LIBRARY));
        List<Run> driven =
                drive(
                        program,
                        jar,
                        analysis.model(),
                        packagePrefix,
                        probesClasses,
                        driverClasses,
                        runs,
                        callsPerRun,
                        seed,
                        workDir);
        return check(program, analysis, driven);
    }

    /** Instruments the jar for the model and runs the seeded driver in a child JVM. */
    public static List<Run> drive(
            String program,
            Path jar,
            ProgramModel model,
            String packagePrefix,
            Path probesClasses,
            Path driverClasses,
            int runs,
            int callsPerRun,
            long seed,
            Path workDir)
            throws IOException, InterruptedException {
        String name = program.replace(':', '-');
        Path instrumented = workDir.resolve(name + "-instrumented.jar");
        new JarInstrumenter(false).instrument(jar, model, instrumented);
        Path counts = workDir.resolve(name + "-counts.txt");
        Path log = workDir.resolve(name + "-driver.log");
        String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
        Process process =
                new ProcessBuilder(
                                java,
                                "-Xmx512m",
                                "-Xss4m",
                                "-cp",
                                instrumented
                                        + File.pathSeparator
                                        + probesClasses
                                        + File.pathSeparator
                                        + driverClasses
                                        + File.pathSeparator
                                        + workloadsClasses(),
                                DRIVER_MAIN,
                                instrumented.toString(),
                                packagePrefix,
                                Integer.toString(runs),
                                Integer.toString(callsPerRun),
                                Long.toString(seed),
                                counts.toString())
                        .redirectErrorStream(true)
                        .redirectOutput(log.toFile())
                        .start();
        if (!process.waitFor(240, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException("driver of " + program + " did not finish in 240 s");
        }
        if (process.exitValue() != 0) {
            throw new IllegalStateException(
                    "driver of " + program + " failed: " + Files.readString(log));
        }
        List<Run> out = new ArrayList<>();
        for (String line : Files.readAllLines(counts, StandardCharsets.UTF_8)) {
            String[] parts = line.split(" ");
            Map<Integer, Long> count = new HashMap<>();
            for (int i = 4; i < parts.length; i++) {
                int colon = parts[i].indexOf(':');
                count.put(
                        Integer.parseInt(parts[i].substring(0, colon)),
                        Long.parseLong(parts[i].substring(colon + 1)));
            }
            out.add(new Run(Integer.parseInt(parts[1]), parts[3].equals("1"), count));
        }
        return out;
    }

    /**
     * Checks every pair of the analysis against every run. The analysis must have the same V as the
     * model the runs were instrumented with (same jar and application packages).
     */
    public static Outcome check(String program, AnalysisResult analysis, List<Run> runs) {
        ProgramModel model = analysis.model();
        List<Violation> violations = new ArrayList<>();
        int checkedRuns = 0;
        int vmErrorRuns = 0;
        long checks = 0;
        java.util.Set<Integer> executed = new java.util.HashSet<>();
        for (Run run : runs) {
            executed.addAll(run.counts().keySet());
            if (run.vmError()) {
                // A StackOverflowError or linkage error can strike between a call and the
                // callee's first instruction; the analysis assumes no VM errors.
                vmErrorRuns++;
                continue;
            }
            checkedRuns++;
            for (OrderPair pair : model.getPairs()) {
                checks++;
                long left = run.counts().getOrDefault(pair.getLeft(), 0L);
                long right = run.counts().getOrDefault(pair.getRight(), 0L);
                if (left > right) {
                    violations.add(
                            new Violation(
                                    model.getMethods().get(pair.getLeft()).getSignature(),
                                    model.getMethods().get(pair.getRight()).getSignature(),
                                    pair.getRule().name(),
                                    run.index(),
                                    left,
                                    right));
                }
            }
        }
        return new Outcome(
                program,
                model.getMethods().size(),
                model.getPairs().size(),
                checkedRuns,
                vmErrorRuns,
                checks,
                executed.size(),
                violations,
                analysis);
    }

    /**
     * The jar a class was loaded from (the libraries are Maven Central artifacts on the test
     * classpath).
     */
    public static Path jarOf(String className) throws ClassNotFoundException {
        try {
            return Paths.get(
                    Class.forName(className, false, SoundnessCheck.class.getClassLoader())
                            .getProtectionDomain()
                            .getCodeSource()
                            .getLocation()
                            .toURI());
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
