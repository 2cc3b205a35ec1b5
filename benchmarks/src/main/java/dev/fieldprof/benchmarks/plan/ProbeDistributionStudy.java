package dev.fieldprof.benchmarks.plan;

import dev.fieldprof.analysis.AnalysisRequest;
import dev.fieldprof.analysis.ProgramAnalyzer;
import dev.fieldprof.analysis.plan.MethodCosts;
import dev.fieldprof.analysis.plan.ModelCallGraph;
import dev.fieldprof.analysis.plan.PlanOptions;
import dev.fieldprof.analysis.plan.PlanResult;
import dev.fieldprof.analysis.plan.ProbePlanner;
import dev.fieldprof.analysis.plan.Strategy;
import dev.fieldprof.benchmarks.accuracy.AccuracyRuns;
import dev.fieldprof.benchmarks.accuracy.CountingProgramLoader;
import dev.fieldprof.bytecode.instrument.PathProbeInstrumenter;
import dev.fieldprof.bytecode.model.ProgramModels;
import dev.fieldprof.client.PathProbes;
import dev.fieldprof.schemas.MethodInfo;
import dev.fieldprof.schemas.ProgramModel;
import dev.fieldprof.workloads.RandomApiDriver;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The field study of probe distribution (docs/references.md, Section 5, Figures 2 and 3) on real
 * programs. For each program (commons-lang3, gson, guava: the Maven Central jars the accuracy study
 * uses, {@link AccuracyRuns#program}) it analyzes the jar into a model, puts path probes into every
 * model method, and records the full trace of each simulated site (one seeded run of {@link
 * RandomApiDriver}) with {@link ChainTraceRecorder}. Then, for every strategy of the planner and
 * every h-bound (a share of the program's total probe cost), it plans n variants over the model,
 * deals the sites to the variants (a seeded permutation per repetition, site i gets variant perm(i)
 * mod n), and scores the distribution ({@link VariantScore}): the distinct exercised chains
 * identified, against the a-posteriori optimum bracketed by {@link OptimumBounds}, and the falsely
 * reported chains.
 *
 * <p>Options (all optional): {@code --programs lang3,gson,guava}, {@code --sites 36}, {@code
 * --variants 36} (the published study's n = sites), {@code --bounds 5,10,20,40} (percent of the
 * total probe cost), {@code --repetitions 2}, {@code --seed 20261124}, {@code --entries 4000}
 * (method entries a site aims for), {@code --max-calls 300} (driver calls per site at most), {@code
 * --max-trace 200000} (events kept per site), {@code --max-chain 6}, {@code --max-events 3000},
 * {@code --max-cluster 64}, {@code --max-bad-moves 2000}, {@code --max-moves 40000} (hill-climb
 * bounds, far below the published FROZEN = 500,000 to keep the study to minutes), {@code --out
 * benchmarks/target/plan-study} (models, instrumented jars, study.csv), {@code --png
 * benchmarks/plan-study.png}. Usage in benchmarks/README.md.
 */
public final class ProbeDistributionStudy {

    /** One strategy at one bound, over the repetitions. */
    public record Row(
            String program,
            int boundPercent,
            long hBound,
            Strategy strategy,
            int exercised,
            double[] identified,
            double[] optimum,
            int upperBound,
            double[] falseChains,
            double[] falseReports) {

        static double mean(double[] values) {
            double sum = 0;
            for (double v : values) {
                sum += v;
            }
            return values.length == 0 ? 0 : sum / values.length;
        }

        /** Identified over the greedy optimum, per repetition. */
        public double[] shareOfOptimum() {
            double[] share = new double[identified.length];
            for (int r = 0; r < share.length; r++) {
                share[r] = optimum[r] == 0 ? 0 : identified[r] / optimum[r];
            }
            return share;
        }

        /**
         * Falsely reported over correctly identified chains, per repetition (the published Figure
         * 3).
         */
        public double[] falseRatio() {
            double[] ratio = new double[identified.length];
            for (int r = 0; r < ratio.length; r++) {
                ratio[r] = identified[r] == 0 ? falseChains[r] : falseChains[r] / identified[r];
            }
            return ratio;
        }
    }

    private static final Strategy[] STRATEGIES = Strategy.values();

    /**
     * Wall time after which a site's run counts as stuck: the accuracy study's 60 s is too short on
     * a machine busy with other builds, where a long guava run was stopped at 69 s.
     */
    static final int RUN_LIMIT_SECONDS = 300;

    private ProbeDistributionStudy() {}

    public static void main(String[] args) throws Exception {
        long start = System.nanoTime();
        Map<String, String> o = parse(args);
        List<String> programs =
                List.of(o.getOrDefault("--programs", "lang3,gson,guava").split(","));
        int sites = Integer.parseInt(o.getOrDefault("--sites", "36"));
        int variants = Integer.parseInt(o.getOrDefault("--variants", "36"));
        int[] bounds =
                java.util.Arrays.stream(o.getOrDefault("--bounds", "5,10,20,40").split(","))
                        .mapToInt(Integer::parseInt)
                        .toArray();
        int repetitions = Integer.parseInt(o.getOrDefault("--repetitions", "2"));
        long seed = Long.parseLong(o.getOrDefault("--seed", "20261124"));
        int entries = Integer.parseInt(o.getOrDefault("--entries", "4000"));
        int maxCalls = Integer.parseInt(o.getOrDefault("--max-calls", "300"));
        int maxTrace = Integer.parseInt(o.getOrDefault("--max-trace", "200000"));
        int maxChain = Integer.parseInt(o.getOrDefault("--max-chain", "6"));
        int maxEvents = Integer.parseInt(o.getOrDefault("--max-events", "3000"));
        int maxCluster = Integer.parseInt(o.getOrDefault("--max-cluster", "64"));
        long maxBadMoves = Long.parseLong(o.getOrDefault("--max-bad-moves", "2000"));
        long maxMoves = Long.parseLong(o.getOrDefault("--max-moves", "40000"));
        Path out = Paths.get(o.getOrDefault("--out", "benchmarks/target/plan-study"));
        Path png = Paths.get(o.getOrDefault("--png", "benchmarks/plan-study.png"));
        Files.createDirectories(out);
        System.out.printf(
                Locale.ROOT,
                "probe-distribution study: %d sites, n = %d variants, h-bounds %s%% of the total"
                        + " probe cost (branch probes), %d repetitions, seed %d; a site = one"
                        + " RandomApiDriver run of >= %d method entries (<= %d calls); chains of <="
                        + " %d methods; planner: <= %d events, clusters <= %d methods, climb"
                        + " frozen after %d bad moves or %d moves%n",
                sites,
                variants,
                o.getOrDefault("--bounds", "5,10,20,40"),
                repetitions,
                seed,
                entries,
                maxCalls,
                maxChain,
                maxEvents,
                maxCluster,
                maxBadMoves,
                maxMoves);
        List<Row> rows = new ArrayList<>();
        for (String name : programs) {
            long programStart = System.nanoTime();
            AccuracyRuns.Program program = AccuracyRuns.program(name.trim(), Path.of("unused"));
            ProgramModel model = model(program, out);
            FieldChains field =
                    record(program, model, out, sites, seed, entries, maxCalls, maxTrace, maxChain);
            System.out.printf(
                    Locale.ROOT,
                    "%s: |V| = %d; %s; recorded in %.1f s%n",
                    model.getAppVersion(),
                    model.getMethods().size(),
                    field.summary(),
                    (System.nanoTime() - programStart) / 1e9);
            rows.addAll(
                    study(
                            model,
                            field,
                            variants,
                            bounds,
                            repetitions,
                            seed,
                            maxChain,
                            maxEvents,
                            maxCluster,
                            maxBadMoves,
                            maxMoves));
        }
        print(System.out, rows);
        writeCsv(rows, out.resolve("study.csv"));
        Files.createDirectories(png.toAbsolutePath().getParent());
        PlanStudyChart.write(rows, sites, variants, png);
        System.out.printf(
                Locale.ROOT,
                "chart %s, table %s; whole study took %.1f s%n",
                png,
                out.resolve("study.csv"),
                (System.nanoTime() - start) / 1e9);
    }

    /** The program's model, analyzed once and kept in {@code out}. */
    static ProgramModel model(AccuracyRuns.Program program, Path out) {
        Path file = out.resolve(program.name() + ".model");
        if (Files.exists(file)) {
            return ProgramModels.read(file);
        }
        // guava-33.8.0-jre.jar -> guava:33.8.0-jre
        String jarName = program.jar().getFileName().toString().replaceFirst("\\.jar$", "");
        String version =
                jarName.startsWith(program.name() + "-")
                        ? jarName.substring(program.name().length() + 1)
                        : jarName;
        String appVersion = program.name() + ":" + version;
        ProgramModel model =
                ProgramAnalyzer.analyze(
                                AnalysisRequest.of(program.jar(), appVersion)
                                        .withWorld(program.world()))
                        .model();
        ProgramModels.write(model, file);
        return model;
    }

    /** Runs the program as {@code sites} seeded sites with probes in every method. */
    static FieldChains record(
            AccuracyRuns.Program program,
            ProgramModel model,
            Path out,
            int sites,
            long seed,
            int entries,
            int maxCalls,
            int maxTrace,
            int maxChain)
            throws Exception {
        Map<String, Integer> ids = new HashMap<>();
        for (MethodInfo method : model.getMethods()) {
            ids.put(method.getSignature(), method.getId());
        }
        Path instrumented = out.resolve(program.name() + "-paths.jar");
        new PathProbeInstrumenter(ids).instrumentJar(program.jar(), instrumented, ids.size());
        ChainTraceRecorder recorder = new ChainTraceRecorder(maxTrace);
        List<ChainTrace> traces = new ArrayList<>();
        PrintStream stdout = System.out;
        PrintStream stderr = System.err;
        PrintStream silent = new PrintStream(OutputStream.nullOutputStream());
        AtomicLong runStart = new AtomicLong(System.nanoTime());
        Thread watchdog =
                AccuracyRuns.watchdog(
                        Thread.currentThread(),
                        runStart,
                        stderr,
                        program.name(),
                        RUN_LIMIT_SECONDS);
        int vmErrors = 0;
        int truncated = 0;
        try (CountingProgramLoader loader =
                new CountingProgramLoader(
                        instrumented, ProbeDistributionStudy.class.getClassLoader())) {
            RandomApiDriver driver =
                    new RandomApiDriver(loader, loader.classNames(), program.packagePrefix());
            PathProbes.install(recorder);
            try {
                for (long runSeed = seed; traces.size() < sites; runSeed++) {
                    if (vmErrors > sites) {
                        throw new IllegalStateException(
                                vmErrors + " runs of " + program.name() + " hit VM errors");
                    }
                    runStart.set(System.nanoTime());
                    recorder.start();
                    RandomApiDriver.Run run;
                    // Random calls such as printStackTrace(...) would otherwise flood the report.
                    System.setOut(silent);
                    System.setErr(silent);
                    try {
                        run = driver.run(runSeed, recorder::entries, entries, 1, maxCalls);
                    } finally {
                        System.setOut(stdout);
                        System.setErr(stderr);
                    }
                    ChainTrace trace = recorder.finish();
                    if (run.vmError()) {
                        // As in the accuracy study: a VM error is not a site's use; next seed.
                        vmErrors++;
                        continue;
                    }
                    truncated += recorder.truncated() ? 1 : 0;
                    traces.add(trace);
                }
            } finally {
                PathProbes.uninstall();
                watchdog.interrupt();
            }
        }
        if (PathProbes.failures() != 0) {
            throw new IllegalStateException(PathProbes.failures() + " probe calls failed");
        }
        if (vmErrors > 0 || truncated > 0) {
            System.out.printf(
                    "  %s: %d runs with VM errors replaced by the next seed, %d traces cut at %d"
                            + " events%n",
                    program.name(), vmErrors, truncated, maxTrace);
        }
        return new FieldChains(model.getMethods().size(), maxChain, traces);
    }

    /** Every strategy at every bound on one program's field data. */
    static List<Row> study(
            ProgramModel model,
            FieldChains field,
            int variants,
            int[] bounds,
            int repetitions,
            long seed,
            int maxChain,
            int maxEvents,
            int maxCluster,
            long maxBadMoves,
            long maxMoves) {
        ModelCallGraph graph = ModelCallGraph.of(model);
        MethodCosts costs = MethodCosts.branchProbes(model);
        long[] costArray = costs.toArray();
        long total = 0;
        for (long c : costArray) {
            total += c;
        }
        int[][] deals = new int[repetitions][];
        for (int r = 0; r < repetitions; r++) {
            deals[r] = deal(field.sites(), variants, new SplittableRandom(seed + 1000L * r));
        }
        List<Row> rows = new ArrayList<>();
        for (int percent : bounds) {
            long h = Math.max(1, Math.round(total * percent / 100.0));
            double[] optimum = new double[repetitions];
            for (int r = 0; r < repetitions; r++) {
                optimum[r] = OptimumBounds.greedy(field, costArray, h, deals[r], variants);
            }
            int upper = OptimumBounds.upperBound(field, costArray, h);
            long boundStart = System.nanoTime();
            for (Strategy strategy : STRATEGIES) {
                double[] identified = new double[repetitions];
                double[] falseChains = new double[repetitions];
                double[] falseReports = new double[repetitions];
                for (int r = 0; r < repetitions; r++) {
                    PlanOptions options =
                            PlanOptions.of(strategy, variants, h, seed + r)
                                    .withEventBounds(maxChain, maxEvents, maxCluster)
                                    .withClimbBounds(maxBadMoves, maxMoves);
                    PlanResult plan = ProbePlanner.plan(graph, costs, options);
                    VariantScore score =
                            VariantScore.of(field, plan.placement().methods(), deals[r]);
                    identified[r] = score.identified();
                    falseChains[r] = score.falseChains();
                    falseReports[r] = score.falseReports();
                }
                rows.add(
                        new Row(
                                model.getAppVersion(),
                                percent,
                                h,
                                strategy,
                                field.exercised().length,
                                identified,
                                optimum,
                                upper,
                                falseChains,
                                falseReports));
            }
            System.out.printf(
                    Locale.ROOT,
                    "  h = %d%% (%d of %d cost units): 12 strategies x %d repetitions in %.1f s%n",
                    percent,
                    h,
                    total,
                    repetitions,
                    (System.nanoTime() - boundStart) / 1e9);
        }
        return rows;
    }

    /** Site i gets variant perm(i) mod n, perm a seeded permutation of the sites. */
    static int[] deal(int sites, int variants, SplittableRandom random) {
        int[] perm = new int[sites];
        for (int i = 0; i < sites; i++) {
            perm[i] = i;
        }
        for (int i = sites - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int t = perm[i];
            perm[i] = perm[j];
            perm[j] = t;
        }
        int[] deal = new int[sites];
        for (int i = 0; i < sites; i++) {
            deal[i] = perm[i] % variants;
        }
        return deal;
    }

    static void print(PrintStream out, List<Row> rows) {
        out.println();
        out.println(
                "Means over the repetitions. identified: distinct exercised chains some site"
                        + " reports where Full does; opt: greedy lower bound on the a-posteriori"
                        + " optimum (ub: exercised chains that fit h); false: distinct chains"
                        + " reported where Full does not report them (paper 5.3).");
        out.printf(
                Locale.ROOT,
                "%-22s %4s %7s %-26s %6s %6s %5s %8s %8s %7s %8s %9s%n",
                "program",
                "h%",
                "h",
                "strategy",
                "exerc.",
                "opt",
                "ub",
                "ident.",
                "%opt",
                "false",
                "false/id",
                "false-rep");
        String last = "";
        for (Row r : rows) {
            String key = r.program() + r.boundPercent();
            if (!key.equals(last) && !last.isEmpty()) {
                out.println();
            }
            last = key;
            out.printf(
                    Locale.ROOT,
                    "%-22s %4d %7d %-26s %6d %6.0f %5d %8.1f %7.1f%% %7.1f %8.2f %9.0f%n",
                    r.program(),
                    r.boundPercent(),
                    r.hBound(),
                    r.strategy().cliName(),
                    r.exercised(),
                    Row.mean(r.optimum()),
                    r.upperBound(),
                    Row.mean(r.identified()),
                    100 * Row.mean(r.shareOfOptimum()),
                    Row.mean(r.falseChains()),
                    Row.mean(r.falseRatio()),
                    Row.mean(r.falseReports()));
        }
    }

    private static void writeCsv(List<Row> rows, Path file) throws java.io.IOException {
        StringBuilder csv =
                new StringBuilder(
                        "program,bound_percent,h_bound,strategy,repetition,exercised,identified,"
                                + "optimum_greedy,upper_bound,false_chains,false_reports\n");
        for (Row r : rows) {
            for (int i = 0; i < r.identified().length; i++) {
                csv.append(
                        String.format(
                                Locale.ROOT,
                                "%s,%d,%d,%s,%d,%d,%.0f,%.0f,%d,%.0f,%.0f%n",
                                r.program(),
                                r.boundPercent(),
                                r.hBound(),
                                r.strategy().cliName(),
                                i,
                                r.exercised(),
                                r.identified()[i],
                                r.optimum()[i],
                                r.upperBound(),
                                r.falseChains()[i],
                                r.falseReports()[i]));
            }
        }
        Files.writeString(file, csv);
    }

    private static Map<String, String> parse(String[] args) {
        List<String> known =
                List.of(
                        "--programs",
                        "--sites",
                        "--variants",
                        "--bounds",
                        "--repetitions",
                        "--seed",
                        "--entries",
                        "--max-calls",
                        "--max-trace",
                        "--max-chain",
                        "--max-events",
                        "--max-cluster",
                        "--max-bad-moves",
                        "--max-moves",
                        "--out",
                        "--png");
        Map<String, String> options = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            if (!known.contains(args[i]) || i + 1 == args.length) {
                throw new IllegalArgumentException(
                        "usage: ProbeDistributionStudy ["
                                + String.join(" V] [", known)
                                + " V]; got "
                                + args[i]);
            }
            options.put(args[i], args[++i]);
        }
        return options;
    }
}
