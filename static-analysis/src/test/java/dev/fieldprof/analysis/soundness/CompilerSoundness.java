package dev.fieldprof.analysis.soundness;

import dev.fieldprof.analysis.FixtureJars;
import dev.fieldprof.bytecode.instrument.JarInstrumenter;
import dev.fieldprof.bytecode.model.ProgramModels;
import dev.fieldprof.schemas.OrderPair;
import dev.fieldprof.schemas.ProgramModel;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Soundness of the pairs on a compiler, which a random API driver cannot drive: instrument the
 * compiler's jar with the entry probes of its model (the counting stand-in of {@code Probes} from
 * the probes fixture), let it compile a seeded random subset of the real Kotlin sources in {@code
 * src/test/fixtures/kotlinsources} in a child JVM per run (run i uses seed SEED + i), and check
 * F(left) ≤ F(right) of every pair against each run's exact entry counts. A run whose compiler does
 * not exit with 0 is reported and not checked.
 *
 * <pre>
 * java -cp &lt;static-analysis test classpath&gt; dev.fieldprof.analysis.soundness.CompilerSoundness \
 *     MODEL COMPILER.jar DEPENDENCIES(path-separated) STDLIB.jar RUNS SEED WORK_DIR
 * </pre>
 *
 * <p>Run from the static-analysis directory (the fixtures are found relative to it).
 */
public final class CompilerSoundness {

    private static final String COMPILER_MAIN = "org.jetbrains.kotlin.cli.jvm.K2JVMCompiler";

    private CompilerSoundness() {}

    public static void main(String[] args) throws Exception {
        if (args.length != 7) {
            System.err.println(
                    "arguments: MODEL COMPILER.jar DEPENDENCIES STDLIB.jar RUNS SEED WORK_DIR");
            System.exit(2);
        }
        ProgramModel model = ProgramModels.read(Paths.get(args[0]));
        Path compiler = Paths.get(args[1]);
        String dependencies = args[2];
        String stdlib = args[3];
        int runs = Integer.parseInt(args[4]);
        long seed = Long.parseLong(args[5]);
        Path work = Files.createDirectories(Paths.get(args[6]));

        long start = System.nanoTime();
        Path instrumented = work.resolve("compiler-instrumented.jar");
        var instrumentation = new JarInstrumenter(false).instrument(compiler, model, instrumented);
        System.out.printf(
                "instrumented %d classes in %.1f s%n",
                instrumentation.classesInstrumented(), (System.nanoTime() - start) / 1e9);
        Path probes = FixtureJars.compile("probes", work.resolve("probes"), null);
        List<Path> sources;
        try (Stream<Path> files = Files.list(Paths.get("src/test/fixtures/kotlinsources"))) {
            sources = files.filter(p -> p.toString().endsWith(".kt")).sorted().toList();
        }

        long checks = 0;
        int checkedRuns = 0;
        java.util.Set<Integer> executed = new java.util.HashSet<>();
        List<String> violations = new ArrayList<>();
        for (int run = 0; run < runs; run++) {
            Random random = new Random(seed + run);
            List<Path> chosen = new ArrayList<>();
            for (Path source : sources) {
                if (random.nextBoolean()) {
                    chosen.add(source);
                }
            }
            if (chosen.isEmpty()) {
                chosen.add(sources.get(random.nextInt(sources.size())));
            }
            Path counts = work.resolve("counts-" + run + ".txt");
            Files.deleteIfExists(counts);
            Path out = Files.createDirectories(work.resolve("out-" + run));
            List<String> command =
                    new ArrayList<>(
                            List.of(
                                    Paths.get(System.getProperty("java.home"), "bin", "java")
                                            .toString(),
                                    "-Xmx1g",
                                    "-Dfieldprof.counts=" + counts,
                                    "-cp",
                                    instrumented
                                            + File.pathSeparator
                                            + probes
                                            + File.pathSeparator
                                            + dependencies,
                                    COMPILER_MAIN,
                                    "-no-stdlib",
                                    "-no-reflect",
                                    "-classpath",
                                    stdlib,
                                    "-d",
                                    out.toString()));
            chosen.forEach(p -> command.add(p.toString()));
            Path log = work.resolve("compiler-" + run + ".log");
            long runStart = System.nanoTime();
            Process process =
                    new ProcessBuilder(command)
                            .redirectErrorStream(true)
                            .redirectOutput(log.toFile())
                            .start();
            if (!process.waitFor(1800, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException("run " + run + " did not finish in 1800 s");
            }
            double seconds = (System.nanoTime() - runStart) / 1e9;
            if (process.exitValue() != 0 || !Files.exists(counts)) {
                System.out.printf(
                        "run %d seed %d: compiler exited with %d, not checked: %s%n",
                        run, seed + run, process.exitValue(), Files.readString(log));
                continue;
            }
            Map<Integer, Long> count = new HashMap<>();
            for (String line : Files.readAllLines(counts, StandardCharsets.UTF_8)) {
                String[] parts = line.split(" ");
                count.put(Integer.parseInt(parts[0]), Long.parseLong(parts[1]));
            }
            executed.addAll(count.keySet());
            long entries = count.values().stream().mapToLong(Long::longValue).sum();
            int violatedHere = 0;
            for (OrderPair pair : model.getPairs()) {
                checks++;
                long left = count.getOrDefault(pair.getLeft(), 0L);
                long right = count.getOrDefault(pair.getRight(), 0L);
                if (left > right) {
                    violatedHere++;
                    violations.add(
                            String.format(
                                    "run %d: %s (%d) > %s (%d) [%s]",
                                    run,
                                    model.getMethods().get(pair.getLeft()).getSignature(),
                                    left,
                                    model.getMethods().get(pair.getRight()).getSignature(),
                                    right,
                                    pair.getRule()));
                }
            }
            checkedRuns++;
            System.out.printf(
                    "run %d seed %d: %d sources %s, %d methods entered %d times, %.0f s, %d"
                            + " violated pairs%n",
                    run,
                    seed + run,
                    chosen.size(),
                    chosen.stream().map(p -> p.getFileName().toString()).toList(),
                    count.size(),
                    entries,
                    seconds,
                    violatedHere);
        }
        System.out.printf(
                "kotlin-compiler |V|=%d pairs=%d runs=%d checks=%d methods-run=%d violations=%d%n",
                model.getMethods().size(),
                model.getPairs().size(),
                checkedRuns,
                checks,
                executed.size(),
                violations.size());
        violations.stream().limit(20).forEach(System.out::println);
    }
}
