package dev.fieldprof.benchmarks.plan;

import dev.fieldprof.analysis.AnalysisRequest;
import dev.fieldprof.analysis.ProgramAnalyzer;
import dev.fieldprof.analysis.World;
import dev.fieldprof.analysis.plan.CallRates;
import dev.fieldprof.analysis.plan.MethodCosts;
import dev.fieldprof.analysis.plan.PlanOptions;
import dev.fieldprof.analysis.plan.PlanResult;
import dev.fieldprof.analysis.plan.ProbePlanner;
import dev.fieldprof.analysis.plan.Strategy;
import dev.fieldprof.benchmarks.paths.LibraryProgram;
import dev.fieldprof.benchmarks.paths.WorkloadCpuTime;
import dev.fieldprof.benchmarks.paths.WorkloadLoader;
import dev.fieldprof.bytecode.AppPackages;
import dev.fieldprof.bytecode.instrument.PathProbeInstrumenter;
import dev.fieldprof.bytecode.jar.JarContents;
import dev.fieldprof.bytecode.model.MethodInventory;
import dev.fieldprof.client.tracing.EdgeModelStore;
import dev.fieldprof.client.tracing.PathTracer;
import dev.fieldprof.paths.ArrayBranchTable;
import dev.fieldprof.paths.BranchTableText;
import dev.fieldprof.paths.ProbePlanText;
import dev.fieldprof.schemas.ProgramModel;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The CPU overhead a device pays per probe-plan variant, on commons-lang3, gson and guava, at
 * several {@code --h-bound}s, in one run. Per program: the program model as {@code fieldprof
 * analyze} builds it (a library), the jar with path probes as {@code PathBenchmarks} instruments
 * it, and for each h-bound (0.02% to 50% of all methods' cost in branch probes, the planner's
 * default unit) a plan of 8 variants. Then the workload's thread CPU time on the original jar, on
 * the probed jar with tracing off, with a mask that traces nothing (the cost of untraced methods
 * alone), with every method traced, and with each variant's mask ({@code PathProbes.install(tracer,
 * plan.traced(v))}).
 *
 * <p>Beside those, the same h-bound shares of plans weighed by call rate ({@link
 * ProbePlanner#plan(ProgramModel, PlanOptions, CallRates)}: branch probes times each method's
 * entries relative to the mean method), with the entry counts of one training run of the workload
 * whose seed ({@link #TRAINING_SEED}) the timed runs ({@link #TIMED_SEED}) never use, as the
 * field's frequency estimates would give them ({@link TrainingEntryCounts}). They are measured as
 * devices run them: with the device agent's instrumentation when the run has {@code agent}, else
 * with masks. A method that alone costs more than the h-bound is traced by no variant; the tables
 * count such methods ("untraced &gt; bound").
 *
 * <p>Every configuration has its own class loader with its own copy of the library and of {@code
 * PathProbes} ({@link WorkloadLoader}), installed once, so it is compiled as on a device that only
 * ever runs it; the configurations alternate run by run (round r starts at configuration r), so
 * that load on this shared machine hits them alike. Medians of the measured runs after the warm-up
 * runs.
 *
 * <p>The default strategy is balanced-probes (the published balanced-probes algorithm of probe
 * distribution, docs/references.md, weighed by branch probes): it fills every variant up to the
 * h-bound with the methods fewest variants hold so far, so each variant's planned cost is close to
 * the bound, and what separates the worst variant from the median is only how far run-time cost
 * departs from the static unit. Cluster strategies leave variants below the bound when whole
 * clusters do not fit, which would flatter the bound.
 *
 * <p>Run: {@code java -XX:ReservedCodeCacheSize=512m -cp CP
 * dev.fieldprof.benchmarks.plan.VariantOverhead [scale [programs [strategy [warm-up [measured
 * [agent]]]]]]} (scale of the workload rounds, default 1; programs a comma list of commons-lang3,
 * gson, guava or "all"; strategy default balanced-probes; warm-up runs per configuration, default
 * 60; measured runs per configuration, default 7; {@code agent} adds, side by side, each variant as
 * the device agent instruments it: path probes in the variant's methods only). The code cache must
 * hold 68 copies of each library's hot code; the run prints its use at the end.
 */
public final class VariantOverhead {

    static final int VARIANTS = 8;
    static final double[] H_SHARES = {
        0.0002, 0.0005, 0.001, 0.005, 0.01, 0.02, 0.05, 0.10, 0.25, 0.50
    };
    static final double LIMIT = 0.10;
    static final long SEED = 1L;

    /** Seed of the timed workload runs. */
    static final long TIMED_SEED = 0L;

    /** Seed of the one training run whose entry counts weigh the call-rate plans. */
    static final long TRAINING_SEED = 20261125L;

    /** One configuration's loader, workload and measured CPU times. */
    private static final class Config {
        final String label;
        final WorkloadLoader loader;
        final Method run;
        final PathTracer tracer;
        final double[] ms;

        Config(String label, WorkloadLoader loader, PathTracer tracer, Method run, int measured) {
            this.label = label;
            this.loader = loader;
            this.tracer = tracer;
            this.run = run;
            this.ms = new double[measured];
        }

        double median() {
            return WorkloadCpuTime.median(ms);
        }
    }

    /**
     * One plan's figures: overheads of its variants against the original jar (0.1 = +10%), and how
     * many methods cost more than the h-bound alone and so are traced by no variant.
     */
    record PlanRow(
            long hBound, double share, long maxPlannedCost, int overBound, double[] overheads) {}

    /** One program's figures. */
    record ProgramRow(
            String name,
            int methods,
            long totalCost,
            double originalMs,
            double offMs,
            double nothingMs,
            double allMs,
            String noise,
            List<PlanRow> plans,
            List<PlanRow> agentPlans,
            long weightedTotalCost,
            String training,
            List<PlanRow> weightedPlans) {

        double overhead(double ms) {
            return ms / originalMs - 1;
        }

        /** Share of tracing all methods' overhead that {@code overhead} is. */
        double ofAll(double overhead) {
            return overhead / overhead(allMs);
        }
    }

    private VariantOverhead() {}

    public static void main(String[] args) throws Exception {
        double scale = args.length > 0 ? Double.parseDouble(args[0]) : 1.0;
        Set<String> only =
                args.length > 1 && !args[1].equals("all") ? Set.of(args[1].split(",")) : null;
        Strategy strategy = args.length > 2 ? Strategy.parse(args[2]) : Strategy.BALANCED_PROBES;
        int warmup = args.length > 3 ? Integer.parseInt(args[3]) : 60;
        int measured = args.length > 4 ? Integer.parseInt(args[4]) : 7;
        boolean agent = args.length > 5 && args[5].equals("agent");
        PrintStream out = System.out;
        out.printf(
                Locale.ROOT,
                "load average at start: %s; %s, %d variants, h-bounds %s of all methods' cost;"
                        + " %d warm-up and %d measured runs per configuration, alternating;"
                        + " scale %s%n",
                loadAverage(),
                strategy.cliName(),
                VARIANTS,
                Arrays.toString(H_SHARES),
                warmup,
                measured,
                scale);
        Path work = Files.createTempDirectory("fieldprof-variant-overhead");
        List<ProgramRow> rows = new ArrayList<>();
        long start = System.nanoTime();
        for (LibraryProgram p : LibraryProgram.all(scale)) {
            if (only == null || only.contains(p.name())) {
                rows.add(measure(p, work, strategy, warmup, measured, agent, out));
            }
        }
        out.println();
        print(out, rows);
        out.printf(
                Locale.ROOT,
                "%nload average at end: %s; %.0f s in all; %s%n",
                loadAverage(),
                (System.nanoTime() - start) / 1e9,
                codeCacheUse());
    }

    static ProgramRow measure(
            LibraryProgram p,
            Path work,
            Strategy strategy,
            int warmup,
            int measured,
            boolean agent,
            PrintStream out)
            throws Exception {
        Path jar = p.jar();
        AppPackages packages = AppPackages.parse(p.packages());
        long analysisStart = System.nanoTime();
        ProgramModel model =
                ProgramAnalyzer.analyze(
                                AnalysisRequest.of(jar, p.name() + ":bench")
                                        .withAppPackages(packages)
                                        .withWorld(World.LIBRARY))
                        .model();
        double analysisSeconds = (System.nanoTime() - analysisStart) / 1e9;
        Map<String, Integer> ids = MethodInventory.of(JarContents.read(jar), packages).ids();
        // The probes' method ids are the inventory's; the plan's are the model's: they must agree.
        if (model.getMethods().size() != ids.size()) {
            throw new IllegalStateException(p.name() + ": model and probes number methods apart");
        }
        for (int m = 0; m < ids.size(); m++) {
            Integer id = ids.get(model.getMethods().get(m).getSignature());
            if (id == null || id != m) {
                throw new IllegalStateException(p.name() + ": method " + m + " has another id");
            }
        }
        Path instrumented = work.resolve(p.name() + "-paths.jar");
        PathProbeInstrumenter.Result probes =
                new PathProbeInstrumenter(ids).instrumentJar(jar, instrumented, ids.size());
        ArrayBranchTable table = BranchTableText.parse(probes.branches().toText());

        MethodCosts costs = MethodCosts.branchProbes(model);
        long total = costs.costOf(allMethods(costs.size()));
        out.printf(
                Locale.ROOT,
                "%s: %d methods, %d %s in all; analysis %.1f s%n",
                p.name(),
                ids.size(),
                total,
                costs.unit(),
                analysisSeconds);

        List<Config> configs = new ArrayList<>();
        Config original = config(p, "original", jar, false, false, null, table, measured);
        Config off =
                config(p, "probes, tracing off", instrumented, true, false, null, table, measured);
        Config nothing =
                config(
                        p,
                        "probes, mask traces nothing",
                        instrumented,
                        true,
                        true,
                        new boolean[ids.size()],
                        table,
                        measured);
        Config all =
                config(p, "all methods traced", instrumented, true, true, null, table, measured);
        configs.addAll(List.of(original, off, nothing, all));
        List<long[]> plannedCosts = new ArrayList<>();
        List<ProbePlanText> variantMasks = new ArrayList<>();
        List<Long> hBounds = new ArrayList<>();
        List<Integer> overBound = new ArrayList<>();
        for (double share : H_SHARES) {
            long hBound = Math.max(1, Math.round(total * share));
            PlanResult plan =
                    ProbePlanner.plan(model, PlanOptions.of(strategy, VARIANTS, hBound, SEED));
            ProbePlanText text = ProbePlanText.of(plan.applyTo(model));
            for (int v = 0; v < VARIANTS; v++) {
                configs.add(
                        config(
                                p,
                                "h " + hBound + " variant " + v,
                                instrumented,
                                true,
                                true,
                                text.traced(v),
                                table,
                                measured));
            }
            hBounds.add(hBound);
            plannedCosts.add(plan.placement().used().clone());
            overBound.add(plan.overBoundMethods().length);
            variantMasks.add(text);
        }
        // As the device agent instruments a device of variant v: path probes in v's methods only
        // (the same PathProbeInstrumenter), so the other methods carry no probe code at all.
        int agentFirst = configs.size();
        if (agent) {
            for (int h = 0; h < H_SHARES.length; h++) {
                for (int v = 0; v < VARIANTS; v++) {
                    configs.add(
                            agentConfig(
                                    p,
                                    "h " + hBounds.get(h) + " variant " + v + ", agent",
                                    work.resolve(p.name() + "-h" + h + "-v" + v + ".jar"),
                                    ids,
                                    variantMasks.get(h).traced(v),
                                    table,
                                    measured));
                }
            }
        }

        // Plans by call rate: branch probes times each method's entries relative to the mean, as
        // one training run with another seed than the timed runs counted them (what the field's
        // frequency estimates give a planner). Measured as devices run them: with the agent's
        // instrumentation when the run has it, else with masks.
        long[] trainingCounts =
                TrainingEntryCounts.record(p, instrumented, ids.size(), TRAINING_SEED);
        CallRates rates = CallRates.fromCounts(trainingCounts);
        MethodCosts weighted = costs.timesCallRates(rates.rates());
        long weightedTotal = weighted.costOf(allMethods(weighted.size()));
        String training = training(model, trainingCounts, costs, weighted);
        out.printf(Locale.ROOT, "%s: %s%n", p.name(), training);
        int weightedFirst = configs.size();
        List<long[]> weightedPlannedCosts = new ArrayList<>();
        List<Long> weightedHBounds = new ArrayList<>();
        List<Integer> weightedOverBound = new ArrayList<>();
        for (int h = 0; h < H_SHARES.length; h++) {
            long hBound = Math.max(1, Math.round(weightedTotal * H_SHARES[h]));
            PlanResult plan =
                    ProbePlanner.plan(
                            model, PlanOptions.of(strategy, VARIANTS, hBound, SEED), rates);
            ProbePlanText text = ProbePlanText.of(plan.applyTo(model));
            for (int v = 0; v < VARIANTS; v++) {
                String label = "weighted h " + hBound + " variant " + v;
                configs.add(
                        agent
                                ? agentConfig(
                                        p,
                                        label + ", agent",
                                        work.resolve(p.name() + "-w" + h + "-v" + v + ".jar"),
                                        ids,
                                        text.traced(v),
                                        table,
                                        measured)
                                : config(
                                        p,
                                        label,
                                        instrumented,
                                        true,
                                        true,
                                        text.traced(v),
                                        table,
                                        measured));
            }
            weightedHBounds.add(hBound);
            weightedPlannedCosts.add(plan.placement().used().clone());
            weightedOverBound.add(plan.overBoundMethods().length);
        }

        int n = configs.size();
        for (int round = 0; round < warmup + measured; round++) {
            for (int k = 0; k < n; k++) {
                Config c = configs.get((k + round) % n);
                double ms = WorkloadCpuTime.millis(c.run, TIMED_SEED, p.rounds());
                if (round >= warmup) {
                    c.ms[round - warmup] = ms;
                }
            }
        }
        for (Config c : configs) {
            if (c.label.equals("original")) {
                c.loader.close();
                continue;
            }
            if (c.loader.probeFailures() != 0
                    || (c.tracer != null && c.tracer.droppedEvents() != 0)) {
                throw new IllegalStateException(
                        p.name() + " " + c.label + ": probe events dropped or failed");
            }
            c.loader.installProbes(null, null);
            c.loader.close();
        }

        double base = original.median();
        List<PlanRow> plans = planRows(configs, 4, base, hBounds, plannedCosts, overBound);
        List<PlanRow> agentPlans =
                agent
                        ? planRows(configs, agentFirst, base, hBounds, plannedCosts, overBound)
                        : List.of();
        List<PlanRow> weightedPlans =
                planRows(
                        configs,
                        weightedFirst,
                        base,
                        weightedHBounds,
                        weightedPlannedCosts,
                        weightedOverBound);
        return new ProgramRow(
                p.name(),
                ids.size(),
                total,
                base,
                off.median(),
                nothing.median(),
                all.median(),
                noise(List.of(original, off, nothing, all)),
                plans,
                agentPlans,
                weightedTotal,
                training,
                weightedPlans);
    }

    /**
     * A device of the variant as the device agent instruments it: path probes in the variant's
     * methods only (the same PathProbeInstrumenter), so the other methods carry no probe code.
     */
    private static Config agentConfig(
            LibraryProgram p,
            String label,
            Path variantJar,
            Map<String, Integer> ids,
            boolean[] traced,
            ArrayBranchTable table,
            int measured)
            throws Exception {
        Map<String, Integer> variantIds = new java.util.HashMap<>();
        ids.forEach(
                (signature, id) -> {
                    if (traced[id]) {
                        variantIds.put(signature, id);
                    }
                });
        new PathProbeInstrumenter(variantIds).instrumentJar(p.jar(), variantJar, ids.size());
        return config(p, label, variantJar, true, true, traced, table, measured);
    }

    /** What the training run saw: entries, methods never entered, the hottest methods' shares. */
    private static String training(
            ProgramModel model, long[] counts, MethodCosts costs, MethodCosts weighted) {
        long total = Arrays.stream(counts).sum();
        long never = Arrays.stream(counts).filter(c -> c == 0).count();
        Integer[] byCount = new Integer[counts.length];
        for (int m = 0; m < counts.length; m++) {
            byCount[m] = m;
        }
        Arrays.sort(byCount, (a, b) -> Long.compare(counts[b], counts[a]));
        StringBuilder top = new StringBuilder();
        for (int i = 0; i < Math.min(3, counts.length); i++) {
            int m = byCount[i];
            top.append(
                    String.format(
                            Locale.ROOT,
                            "%s %.1f%% of entries, cost %d -> %d; ",
                            model.getMethods().get(m).getSignature(),
                            100.0 * counts[m] / total,
                            costs.cost(m),
                            weighted.cost(m)));
        }
        return String.format(
                Locale.ROOT,
                "training run (seed %d; timed runs use seed %d): %d entries, %d of %d methods"
                        + " never entered; %d %s in all; hottest: %s",
                TRAINING_SEED,
                TIMED_SEED,
                total,
                never,
                counts.length,
                weighted.costOf(allMethods(weighted.size())),
                weighted.unit(),
                top);
    }

    /** The per-variant overheads of the plans whose configurations start at {@code first}. */
    private static List<PlanRow> planRows(
            List<Config> configs,
            int first,
            double base,
            List<Long> hBounds,
            List<long[]> plannedCosts,
            List<Integer> overBound) {
        List<PlanRow> plans = new ArrayList<>();
        for (int h = 0; h < H_SHARES.length; h++) {
            double[] overheads = new double[VARIANTS];
            for (int v = 0; v < VARIANTS; v++) {
                overheads[v] = configs.get(first + h * VARIANTS + v).median() / base - 1;
            }
            plans.add(
                    new PlanRow(
                            hBounds.get(h),
                            H_SHARES[h],
                            Arrays.stream(plannedCosts.get(h)).max().orElse(0),
                            overBound.get(h),
                            overheads));
        }
        return plans;
    }

    /**
     * A configuration: the original jar (probes false), or the probed jar with its own PathProbes,
     * tracing off (trace false) or into a fresh tracer with the mask {@code mask} (null: every
     * method).
     */
    private static Config config(
            LibraryProgram p,
            String label,
            Path jar,
            boolean probes,
            boolean trace,
            boolean[] mask,
            ArrayBranchTable table,
            int measured)
            throws Exception {
        WorkloadLoader loader = new WorkloadLoader(jar, probes);
        PathTracer tracer = null;
        if (trace) {
            tracer =
                    new PathTracer(
                            "bench",
                            "bench:" + p.name(),
                            0,
                            new EdgeModelStore("bench:" + p.name(), table),
                            report -> {},
                            PathTracer.DEFAULT_MAX_REPORT_BYTES,
                            false);
            loader.installProbes(tracer, mask);
        }
        return new Config(label, loader, tracer, p.runMethod(loader), measured);
    }

    private static int[] allMethods(int count) {
        int[] methods = new int[count];
        for (int m = 0; m < count; m++) {
            methods[m] = m;
        }
        return methods;
    }

    /** Spread of the baselines' measured runs: min and max as % of their median. */
    private static String noise(List<Config> baselines) {
        StringBuilder s = new StringBuilder();
        for (Config c : baselines) {
            double median = c.median();
            double min = Arrays.stream(c.ms).min().orElse(median);
            double max = Arrays.stream(c.ms).max().orElse(median);
            s.append(
                    String.format(
                            Locale.ROOT,
                            "%s%s %.0f%%..%+.0f%%",
                            s.length() == 0 ? "" : ", ",
                            c.label,
                            100 * (min / median - 1),
                            100 * (max / median - 1)));
        }
        return s.toString();
    }

    static void print(PrintStream out, List<ProgramRow> rows) {
        out.println(
                "Workload CPU time of the running thread, median ms (overhead against the original"
                        + " jar)");
        out.printf(
                Locale.ROOT,
                "%-14s %8s %10s %20s %20s %20s%n",
                "program",
                "methods",
                "original",
                "probes, tracing off",
                "mask traces nothing",
                "all methods traced");
        for (ProgramRow r : rows) {
            out.printf(
                    Locale.ROOT,
                    "%-14s %8d %10.2f %10.2f (%+6.1f%%) %10.2f (%+6.1f%%) %10.2f (%+6.0f%%)%n",
                    r.name(),
                    r.methods(),
                    r.originalMs(),
                    r.offMs(),
                    100 * r.overhead(r.offMs()),
                    r.nothingMs(),
                    100 * r.overhead(r.nothingMs()),
                    r.allMs(),
                    100 * r.overhead(r.allMs()));
        }
        out.println("Spread of the measured runs (min..max against the median):");
        for (ProgramRow r : rows) {
            out.printf(Locale.ROOT, "%-14s %s%n", r.name(), r.noise());
        }
        out.println();
        printPlans(
                out,
                rows,
                ProgramRow::plans,
                "Per-variant CPU overhead against the original jar, "
                        + VARIANTS
                        + " variants per plan; \"of all\": share of the overhead of tracing all"
                        + " methods");
        if (rows.stream().anyMatch(r -> !r.agentPlans().isEmpty())) {
            out.println();
            printPlans(
                    out,
                    rows,
                    ProgramRow::agentPlans,
                    "The same with the device agent's instrumentation: only the variant's methods"
                            + " carry path probes");
        }
        boolean agent = rows.stream().anyMatch(r -> !r.agentPlans().isEmpty());
        out.println();
        for (ProgramRow r : rows) {
            out.printf(Locale.ROOT, "%-14s %s%n", r.name(), r.training());
        }
        printPlans(
                out,
                rows,
                ProgramRow::weightedPlans,
                "Plans by call rate (cost = branch probes x the training run's entries relative"
                        + " to the mean method; h-bound in that unit), per-variant CPU overhead"
                        + " against the original jar"
                        + (agent ? ", with the device agent's instrumentation" : ""));
        out.println();
        out.printf(
                Locale.ROOT,
                "Largest --h-bound whose worst variant stays under %.0f%% CPU overhead against the"
                        + " original jar (every smaller one under it too):%n",
                100 * LIMIT);
        for (ProgramRow r : rows) {
            out.printf(Locale.ROOT, "%-14s %s%n", r.name(), choice(r.plans(), r, 0));
        }
        out.printf(
                Locale.ROOT,
                "The same against the probed jar whose mask traces nothing (what tracing the"
                        + " variant adds to a device that has the probes anyway):%n");
        for (ProgramRow r : rows) {
            out.printf(
                    Locale.ROOT,
                    "%-14s %s%n",
                    r.name(),
                    choice(r.plans(), r, r.overhead(r.nothingMs())));
        }
        if (rows.stream().anyMatch(r -> !r.agentPlans().isEmpty())) {
            out.printf(
                    Locale.ROOT,
                    "With the device agent's instrumentation, against the original jar:%n");
            for (ProgramRow r : rows) {
                if (!r.agentPlans().isEmpty()) {
                    out.printf(Locale.ROOT, "%-14s %s%n", r.name(), choice(r.agentPlans(), r, 0));
                }
            }
        }
        out.printf(
                Locale.ROOT,
                "Plans by call rate%s, against the original jar:%n",
                agent ? " (the device agent's instrumentation)" : "");
        for (ProgramRow r : rows) {
            out.printf(
                    Locale.ROOT,
                    "%-14s %s%n",
                    r.name(),
                    choice(
                            r.weightedPlans(),
                            r.weightedTotalCost(),
                            "branch-probes x call rate",
                            0));
        }
    }

    private static void printPlans(
            PrintStream out,
            List<ProgramRow> rows,
            java.util.function.Function<ProgramRow, List<PlanRow>> plansOf,
            String title) {
        out.println(title);
        out.printf(
                Locale.ROOT,
                "%-14s %8s %7s %9s %9s %9s %9s %8s %8s | %s%n",
                "program",
                "h-bound",
                "of all",
                "max plan",
                "untraced",
                "median v",
                "worst v",
                "median",
                "worst",
                "each variant");
        out.printf(
                Locale.ROOT,
                "%-14s %8s %7s %9s %9s %9s %9s %8s %8s |%n",
                "",
                "",
                "cost",
                "cost",
                "> bound",
                "vs orig",
                "vs orig",
                "of all",
                "of all");
        for (ProgramRow r : rows) {
            for (PlanRow plan : plansOf.apply(r)) {
                double median = WorkloadCpuTime.median(plan.overheads());
                double worst = Arrays.stream(plan.overheads()).max().orElse(Double.NaN);
                StringBuilder each = new StringBuilder();
                for (double o : plan.overheads()) {
                    each.append(String.format(Locale.ROOT, " %+5.1f", 100 * o));
                }
                out.printf(
                        Locale.ROOT,
                        "%-14s %8d %6.2f%% %9d %9d %+8.1f%% %+8.1f%% %7.1f%% %7.1f%% |%s%n",
                        r.name(),
                        plan.hBound(),
                        100 * plan.share(),
                        plan.maxPlannedCost(),
                        plan.overBound(),
                        100 * median,
                        100 * worst,
                        100 * r.ofAll(median),
                        100 * r.ofAll(worst),
                        each);
            }
        }
    }

    /** The chosen h-bound of {@code r} with overheads measured above {@code floor}. */
    private static String choice(List<PlanRow> plans, ProgramRow r, double floor) {
        return choice(plans, r.totalCost(), "branch probes", floor);
    }

    private static String choice(List<PlanRow> plans, long totalCost, String unit, double floor) {
        List<HBoundChoice.Measured> measured = new ArrayList<>();
        for (PlanRow plan : plans) {
            double worst = Arrays.stream(plan.overheads()).max().orElse(Double.NaN);
            // Overheads against the floor's time, not differences of percentages.
            measured.add(new HBoundChoice.Measured(plan.hBound(), (1 + worst) / (1 + floor) - 1));
        }
        OptionalLong chosen = HBoundChoice.largestUnder(measured, LIMIT);
        return chosen.isPresent()
                ? String.format(
                        Locale.ROOT,
                        "--h-bound %d (%.1f%% of %d %s)",
                        chosen.getAsLong(),
                        100.0 * chosen.getAsLong() / totalCost,
                        totalCost,
                        unit)
                : "none of the measured h-bounds (smallest: " + plans.get(0).hBound() + ")";
    }

    /** The 1, 5 and 15 minute load averages (Linux), else the JVM's 1-minute figure. */
    static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (IOException | RuntimeException e) {
            return String.format(
                    Locale.ROOT,
                    "%.2f",
                    ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        }
    }

    private static String codeCacheUse() {
        long used = 0;
        long max = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getName().startsWith("CodeHeap") || pool.getName().equals("CodeCache")) {
                used += pool.getUsage().getUsed();
                max += Math.max(0, pool.getUsage().getMax());
            }
        }
        return String.format(Locale.ROOT, "code cache %d of %d MB used", used >> 20, max >> 20);
    }
}
