package dev.fieldprof.benchmarks.estimation;

import dev.fieldprof.estimation.ConstraintGraph;
import dev.fieldprof.estimation.ConstraintProjection;
import dev.fieldprof.estimation.FrequencyEstimator;
import dev.fieldprof.estimation.ProjectionResult;
import dev.fieldprof.estimation.SignaturePairs;
import dev.fieldprof.ldp.PrivacyParameters;
import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * The constraint projection at 10,000 and 1,000,000 methods on a real pairs file: one unit is the
 * file's methods padded with unconstrained ones to {@code --unit} methods, and the large graph is
 * that unit repeated (disjoint copies, method ids shifted by the unit) up to {@code --methods}.
 * Every size runs in its own child JVM, which builds the graph, solves {@code --warmup} times, then
 * times {@code --repeat} solves on fresh noisy estimates and prints one line: the median solve time
 * by the wall clock and by the thread's CPU time, the fastest solve, the largest KKT residual and
 * order violation over the timed solves, the graph's build time, the heap the graph retains and the
 * bytes one solve allocates.
 *
 * <p>With {@code --baseline-cp PATH} every size also runs with {@code PATH} ahead of the class path
 * (the estimation module of an older build), alternating baseline and current children {@code
 * --rounds} times, so that both see the same machine load. The estimates are the same in both, as
 * {@code fieldprof project} makes them: a heavy-tailed truth that satisfies every pair, plus
 * Gaussian noise with the estimator's standard error for {@code --reports} reports per window of k
 * = 5·|V| events at ε = ln 9, t = 10 (fixed seed).
 *
 * <pre>
 * java -Xmx3g -cp "$CP" dev.fieldprof.benchmarks.estimation.ProjectionScale \
 *   --pairs /work/shared/data/cc20-le-pairs/parrot.csv [--unit 10000] [--methods 1000000] \
 *   [--repeat 5] [--warmup 2] [--rounds 1] [--reports 1000] [--baseline-cp DIR]
 * </pre>
 */
public final class ProjectionScale {

    private ProjectionScale() {}

    public static void main(String[] args) throws Exception {
        String pairs = null;
        int unit = 10_000;
        int methods = 1_000_000;
        int repeat = 5;
        int warmup = 2;
        int rounds = 1;
        long reports = 1000;
        String baseline = null;
        int only = -1;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--pairs" -> pairs = args[++i];
                case "--unit" -> unit = Integer.parseInt(args[++i]);
                case "--methods" -> methods = Integer.parseInt(args[++i]);
                case "--repeat" -> repeat = Integer.parseInt(args[++i]);
                case "--warmup" -> warmup = Integer.parseInt(args[++i]);
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                case "--reports" -> reports = Long.parseLong(args[++i]);
                case "--baseline-cp" -> baseline = args[++i];
                case "--child" -> only = Integer.parseInt(args[++i]);
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        if (pairs == null) {
            throw new IllegalArgumentException("--pairs FILE is required");
        }
        SignaturePairs read = SignaturePairs.read(Path.of(pairs));
        if (only >= 0) {
            System.out.println(measure(read, unit, only, repeat, warmup, reports));
            return;
        }
        int copies = (methods + unit - 1) / unit;
        System.out.printf(
                Locale.ROOT,
                "== Constraint projection: %s (%d methods named, %d pairs) padded to %d methods,"
                        + " repeated; median of %d solves after %d warm-up; load average %.2f%n",
                Path.of(pairs).getFileName(),
                read.signatures().size(),
                read.left().length,
                unit,
                repeat,
                warmup,
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        System.out.println(header());
        String[] common = {
            "--pairs", pairs,
            "--unit", Integer.toString(unit),
            "--repeat", Integer.toString(repeat),
            "--warmup", Integer.toString(warmup),
            "--reports", Long.toString(reports)
        };
        for (int size : new int[] {1, copies}) {
            for (int r = 0; r < rounds; r++) {
                if (baseline != null) {
                    System.out.println(
                            "baseline  "
                                    + child(
                                            baseline + File.pathSeparator + classPath(),
                                            common,
                                            size));
                }
                System.out.println("current   " + child(classPath(), common, size));
            }
        }
        System.out.printf(
                Locale.ROOT,
                "load average at the end %.2f%n",
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }

    private static String classPath() {
        return System.getProperty("java.class.path");
    }

    private static String header() {
        return String.format(
                Locale.ROOT,
                "%-9s %9s %8s %7s %10s %9s %10s %9s %9s %9s %10s %6s",
                "build",
                "methods",
                "pairs",
                "copies",
                "median_ms",
                "cpu_ms",
                "min_ms",
                "kkt_res",
                "max_viol",
                "graph_ms",
                "graph_MB",
                "alloc_MB/solve");
    }

    /** Runs one size in a child JVM with the given class path and returns its line. */
    private static String child(String classPath, String[] common, int copies) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (String option : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (option.startsWith("-X")) {
                command.add(option);
            }
        }
        command.add("-cp");
        command.add(classPath);
        command.add(ProjectionScale.class.getName());
        command.addAll(Arrays.asList(common));
        command.add("--child");
        command.add(Integer.toString(copies));
        Process process =
                new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String line;
        try (BufferedReader out =
                new BufferedReader(
                        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            line = out.readLine();
        }
        if (process.waitFor() != 0 || line == null) {
            throw new IllegalStateException("child failed for " + copies + " copies");
        }
        return line;
    }

    private static String measure(
            SignaturePairs read, int unit, int copies, int repeat, int warmup, long reports) {
        int named = read.signatures().size();
        if (unit < named) {
            throw new IllegalArgumentException("--unit " + unit + " is below " + named);
        }
        int unitPairs = read.left().length;
        int[] left = new int[unitPairs * copies];
        int[] right = new int[unitPairs * copies];
        for (int c = 0; c < copies; c++) {
            for (int p = 0; p < unitPairs; p++) {
                left[c * unitPairs + p] = read.left()[p] + c * unit;
                right[c * unitPairs + p] = read.right()[p] + c * unit;
            }
        }
        long heapBefore = usedHeapAfterGc();
        long buildStart = System.nanoTime();
        ConstraintGraph graph = new ConstraintGraph(unit * copies, left, right);
        ConstraintProjection projection = new ConstraintProjection(graph);
        double graphMillis = (System.nanoTime() - buildStart) / 1e6;
        long graphBytes = usedHeapAfterGc() - heapBefore;

        double noise =
                new FrequencyEstimator(new PrivacyParameters(Math.log(9), 10, 5 * graph.methods()))
                        .standardError(reports);
        SplittableRandom random = new SplittableRandom(1);
        double[] truth = truth(graph, random);
        for (int i = 0; i < warmup; i++) {
            projection.project(noisy(truth, noise, random));
        }
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        double[] millis = new double[repeat];
        double[] cpuMillis = new double[repeat];
        double residual = 0;
        double violation = 0;
        long allocated = 0;
        for (int i = 0; i < repeat; i++) {
            double[] estimate = noisy(truth, noise, random);
            long bytes = threads.getCurrentThreadAllocatedBytes();
            long cpu = threads.getCurrentThreadCpuTime();
            ProjectionResult r = projection.project(estimate);
            cpuMillis[i] = (threads.getCurrentThreadCpuTime() - cpu) / 1e6;
            allocated = Math.max(allocated, threads.getCurrentThreadAllocatedBytes() - bytes);
            millis[i] = r.millis();
            residual = Math.max(residual, r.kktResidual());
            violation = Math.max(violation, r.maxViolation());
        }
        return String.format(
                Locale.ROOT,
                "%9d %8d %7d %10.1f %9.1f %10.1f %9.1e %9.1e %9.1f %10.1f %6.1f",
                graph.methods(),
                graph.pairs(),
                copies,
                median(millis),
                median(cpuMillis),
                Arrays.stream(millis).min().orElseThrow(),
                residual,
                violation,
                graphMillis,
                graphBytes / 1e6,
                allocated / 1e6);
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    private static long usedHeapAfterGc() {
        Runtime runtime = Runtime.getRuntime();
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return runtime.totalMemory() - runtime.freeMemory();
    }

    /**
     * A heavy-tailed truth satisfying every pair: Pareto draws per component, raised to the largest
     * value of any predecessor (components are numbered sinks first), normalized to sum 1. The same
     * draw as ProjectionTrial's, written here because the baseline child runs an older estimation
     * module ahead of this one, whose ProjectionTrial does not share it.
     */
    private static double[] truth(ConstraintGraph graph, SplittableRandom random) {
        int[][] successors = graph.condensedSuccessors();
        double[] value = new double[graph.components()];
        for (int c = 0; c < value.length; c++) {
            value[c] = Math.pow(1 - random.nextDouble(), -1.0 / 1.1);
        }
        for (int c = value.length - 1; c >= 0; c--) {
            for (int d : successors[c]) {
                value[d] = Math.max(value[d], value[c]);
            }
        }
        double[] truth = new double[graph.methods()];
        double total = 0;
        for (int v = 0; v < truth.length; v++) {
            truth[v] = value[graph.componentOf(v)];
            total += truth[v];
        }
        for (int v = 0; v < truth.length; v++) {
            truth[v] /= total;
        }
        return truth;
    }

    private static double[] noisy(double[] truth, double sigma, SplittableRandom random) {
        double[] estimate = new double[truth.length];
        for (int v = 0; v < truth.length; v++) {
            double u = 1 - random.nextDouble();
            double w = random.nextDouble();
            estimate[v] =
                    truth[v] + sigma * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * w);
        }
        return estimate;
    }
}
