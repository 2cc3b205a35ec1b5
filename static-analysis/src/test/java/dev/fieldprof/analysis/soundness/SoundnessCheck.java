package dev.fieldprof.analysis.soundness;

import dev.fieldprof.analysis.AnalysisRequest;
import dev.fieldprof.analysis.AnalysisResult;
import dev.fieldprof.analysis.ProgramAnalyzer;
import dev.fieldprof.analysis.World;
import dev.fieldprof.analysis.instrument.JarInstrumenter;
import dev.fieldprof.schemas.OrderPair;
import dev.fieldprof.schemas.ProgramModel;
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
 * Soundness of the pairs on a real library (issue 4 item 3): analyse its jar, instrument it, drive
 * it with the seeded {@code fielddriver.RandomApiDriver} in a child JVM, and check F(left) ≤
 * F(right) of every pair against the exact counts of every run.
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

    private SoundnessCheck() {}

    /** Runs the whole check; {@code workDir} receives the instrumented jar and the counts. */
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
        ProgramModel model = analysis.model();
        Path instrumented = workDir.resolve(program.replace(':', '-') + "-instrumented.jar");
        new JarInstrumenter(false).instrument(jar, model, instrumented);
        Path counts = workDir.resolve(program.replace(':', '-') + "-counts.txt");
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
                                        + driverClasses,
                                "fielddriver.RandomApiDriver",
                                instrumented.toString(),
                                packagePrefix,
                                Integer.toString(runs),
                                Integer.toString(callsPerRun),
                                Long.toString(seed),
                                counts.toString())
                        .redirectErrorStream(true)
                        .redirectOutput(
                                workDir.resolve(program.replace(':', '-') + "-driver.log").toFile())
                        .start();
        if (!process.waitFor(240, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException("driver of " + program + " did not finish in 240 s");
        }
        if (process.exitValue() != 0) {
            throw new IllegalStateException(
                    "driver of "
                            + program
                            + " failed: "
                            + Files.readString(
                                    workDir.resolve(program.replace(':', '-') + "-driver.log")));
        }
        List<Violation> violations = new ArrayList<>();
        int checkedRuns = 0;
        int vmErrorRuns = 0;
        long checks = 0;
        java.util.Set<Integer> executed = new java.util.HashSet<>();
        for (String line : Files.readAllLines(counts, StandardCharsets.UTF_8)) {
            String[] parts = line.split(" ");
            int run = Integer.parseInt(parts[1]);
            boolean vmError = parts[3].equals("1");
            Map<Integer, Long> count = new HashMap<>();
            for (int i = 4; i < parts.length; i++) {
                int colon = parts[i].indexOf(':');
                count.put(
                        Integer.parseInt(parts[i].substring(0, colon)),
                        Long.parseLong(parts[i].substring(colon + 1)));
            }
            executed.addAll(count.keySet());
            if (vmError) {
                // A StackOverflowError or linkage error can strike between a call and the
                // callee's first instruction; the analysis assumes no VM errors.
                vmErrorRuns++;
                continue;
            }
            checkedRuns++;
            for (OrderPair pair : model.getPairs()) {
                checks++;
                long left = count.getOrDefault(pair.getLeft(), 0L);
                long right = count.getOrDefault(pair.getRight(), 0L);
                if (left > right) {
                    violations.add(
                            new Violation(
                                    model.getMethods().get(pair.getLeft()).getSignature(),
                                    model.getMethods().get(pair.getRight()).getSignature(),
                                    pair.getRule().name(),
                                    run,
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
