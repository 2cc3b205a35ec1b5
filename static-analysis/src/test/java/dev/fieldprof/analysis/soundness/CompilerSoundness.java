package dev.fieldprof.analysis.soundness;

import dev.fieldprof.analysis.FixtureJars;
import dev.fieldprof.bytecode.AppPackages;
import dev.fieldprof.bytecode.instrument.JarInstrumenter;
import dev.fieldprof.bytecode.jar.JarContents;
import dev.fieldprof.bytecode.model.MethodInventory;
import dev.fieldprof.bytecode.model.ProgramModels;
import dev.fieldprof.schemas.OrderPair;
import dev.fieldprof.schemas.ProgramModel;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Soundness of the pairs on a compiler, which a random API driver cannot drive: instrument the
 * compiler's jar with entry probes (the counting stand-in of {@code Probes} from the probes
 * fixture), let it compile a seeded random subset of the real Kotlin sources in {@code
 * src/test/fixtures/kotlinsources} in a child JVM per run (run i uses seed SEED + i), and check
 * F(left) ≤ F(right) of every pair of a model against each run's exact entry counts. A run whose
 * compiler does not exit with 0 is reported and not checked.
 *
 * <p>Method ids are the indices of V's sorted signatures, which the bytecode alone fixes, so the
 * runs can be made while the long analysis still runs: {@code drive} instruments with the jar's V
 * and keeps each run's counts and V in WORK_DIR; {@code check} checks a model's pairs against them
 * after verifying that its V is the one the runs counted.
 *
 * <pre>
 * java -cp TEST_CLASSPATH dev.fieldprof.analysis.soundness.CompilerSoundness \
 *     drive COMPILER.jar DEPENDENCIES(path-separated) STDLIB.jar RUNS SEED WORK_DIR
 * java -cp TEST_CLASSPATH dev.fieldprof.analysis.soundness.CompilerSoundness check MODEL WORK_DIR
 * </pre>
 *
 * <p>Run from the static-analysis directory (the fixtures are found relative to it).
 */
public final class CompilerSoundness {

    private static final String COMPILER_MAIN = "org.jetbrains.kotlin.cli.jvm.K2JVMCompiler";

    private CompilerSoundness() {}

    public static void main(String[] args) throws Exception {
        if (args.length == 7 && args[0].equals("drive")) {
            drive(
                    Paths.get(args[1]),
                    args[2],
                    args[3],
                    Integer.parseInt(args[4]),
                    Long.parseLong(args[5]),
                    Files.createDirectories(Paths.get(args[6])));
        } else if (args.length == 3 && args[0].equals("check")) {
            check(ProgramModels.read(Paths.get(args[1])), Paths.get(args[2]));
        } else {
            System.err.println(
                    "arguments: drive COMPILER.jar DEPENDENCIES STDLIB.jar RUNS SEED WORK_DIR"
                            + " | check MODEL WORK_DIR");
            System.exit(2);
        }
    }

    private static void drive(
            Path compiler, String dependencies, String stdlib, int runs, long seed, Path work)
            throws IOException, InterruptedException {
        long start = System.nanoTime();
        List<String> v =
                MethodInventory.of(JarContents.read(compiler), AppPackages.all()).signatures();
        ProgramModel model =
                ProgramModels.build(
                        "compiler:soundness",
                        Instant.EPOCH,
                        v,
                        List.of(),
                        ProgramModels.privacyConfig("default", Math.log(9), 1, null, v.size()),
                        Map.of());
        Files.write(work.resolve("v.txt"), v, StandardCharsets.UTF_8);
        Path instrumented = work.resolve("compiler-instrumented.jar");
        var instrumentation = new JarInstrumenter(false).instrument(compiler, model, instrumented);
        System.out.printf(
                "|V|=%d, instrumented %d classes in %.1f s%n",
                v.size(), instrumentation.classesInstrumented(), (System.nanoTime() - start) / 1e9);
        Path probes = FixtureJars.compile("probes", work.resolve("probes"), null);
        List<Path> sources;
        try (Stream<Path> files = Files.list(Paths.get("src/test/fixtures/kotlinsources"))) {
            sources = files.filter(p -> p.toString().endsWith(".kt")).sorted().toList();
        }
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
            if (!process.waitFor(3600, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException("run " + run + " did not finish in 3600 s");
            }
            double seconds = (System.nanoTime() - runStart) / 1e9;
            if (process.exitValue() != 0 || !Files.exists(counts)) {
                Files.deleteIfExists(counts);
                System.out.printf(
                        "run %d seed %d: compiler exited with %d, not checked: %s%n",
                        run, seed + run, process.exitValue(), Files.readString(log));
                continue;
            }
            Map<Integer, Long> count = readCounts(counts);
            long entries = count.values().stream().mapToLong(Long::longValue).sum();
            System.out.printf(
                    "run %d seed %d: %d sources %s, %d methods entered %d times, %.0f s%n",
                    run,
                    seed + run,
                    chosen.size(),
                    chosen.stream().map(p -> p.getFileName().toString()).toList(),
                    count.size(),
                    entries,
                    seconds);
        }
    }

    private static void check(ProgramModel model, Path work) throws IOException {
        List<String> counted = Files.readAllLines(work.resolve("v.txt"), StandardCharsets.UTF_8);
        List<String> v = model.getMethods().stream().map(m -> m.getSignature()).toList();
        if (!v.equals(counted)) {
            throw new IllegalStateException("the model's V is not the V the runs counted");
        }
        List<Path> files;
        try (Stream<Path> list = Files.list(work)) {
            files =
                    list.filter(p -> p.getFileName().toString().matches("counts-[0-9]+\\.txt"))
                            .sorted()
                            .toList();
        }
        long checks = 0;
        Set<Integer> executed = new HashSet<>();
        List<String> violations = new ArrayList<>();
        for (Path file : files) {
            Map<Integer, Long> count = readCounts(file);
            executed.addAll(count.keySet());
            int violatedHere = 0;
            for (OrderPair pair : model.getPairs()) {
                checks++;
                long left = count.getOrDefault(pair.getLeft(), 0L);
                long right = count.getOrDefault(pair.getRight(), 0L);
                if (left > right) {
                    violatedHere++;
                    violations.add(
                            String.format(
                                    "%s: %s (%d) > %s (%d) [%s]",
                                    file.getFileName(),
                                    v.get(pair.getLeft()),
                                    left,
                                    v.get(pair.getRight()),
                                    right,
                                    pair.getRule()));
                }
            }
            System.out.printf(
                    "%s: %d methods run, %d violated pairs%n",
                    file.getFileName(), count.size(), violatedHere);
        }
        System.out.printf(
                "compiler |V|=%d pairs=%d runs=%d checks=%d methods-run=%d violations=%d%n",
                v.size(),
                model.getPairs().size(),
                files.size(),
                checks,
                executed.size(),
                violations.size());
        violations.stream().limit(20).forEach(System.out::println);
    }

    /** A counts file of the probes fixture: one {@code ID COUNT} line per method entered. */
    private static Map<Integer, Long> readCounts(Path file) throws IOException {
        Map<Integer, Long> count = new HashMap<>();
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            String[] parts = line.split(" ");
            count.put(Integer.parseInt(parts[0]), Long.parseLong(parts[1]));
        }
        return count;
    }
}
