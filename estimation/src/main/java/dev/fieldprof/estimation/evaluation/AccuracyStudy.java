package dev.fieldprof.estimation.evaluation;

import dev.fieldprof.estimation.ConstraintProjection;
import dev.fieldprof.estimation.FrequencyEstimate;
import dev.fieldprof.estimation.FrequencyEstimator;
import dev.fieldprof.estimation.FrequencyMetrics;
import dev.fieldprof.estimation.PartialSum;
import dev.fieldprof.estimation.ProjectionResult;
import dev.fieldprof.ldp.HypergeometricSampler;
import dev.fieldprof.ldp.LocalRandomizer;
import dev.fieldprof.ldp.PrivacyParameters;
import dev.fieldprof.ldp.RandomSource;
import dev.fieldprof.ldp.SeededRandomSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The accuracy study of frequency profiling (docs/references.md, Sections 5.3-5.4) on fieldprof's
 * own parts: simulated devices each report one epoch sampled down to exactly k events, randomized
 * by the client SDK's real randomizer, summed and estimated by the real estimation core, with and
 * without the constraint projection. Ground truth is the exact sum of the sampled traces, the
 * quantity the estimator is unbiased for.
 *
 * <p>Within a repetition every configuration randomizes the same traces, so differences between
 * rows come from ε and t alone.
 */
public final class AccuracyStudy {
    /** A value of {@link Options#thresholds()} that stands for t = k. */
    public static final int T_EQUALS_K = -1;

    /**
     * What to run.
     *
     * @param devices simulated devices (reports per repetition), {@code >= 1}
     * @param eventsPerMethod k = eventsPerMethod·|V|
     * @param epsilons privacy losses
     * @param thresholds distance thresholds t, {@link #T_EQUALS_K} for t = k
     * @param repetitions independent repetitions averaged per row
     * @param hotThreshold ℓ
     * @param seed fixes every draw
     */
    public record Options(
            DeviceWorkload workload,
            int devices,
            int eventsPerMethod,
            double[] epsilons,
            int[] thresholds,
            int repetitions,
            double hotThreshold,
            long seed) {
        public Options {
            if (devices < 1 || eventsPerMethod < 1 || repetitions < 1) {
                throw new IllegalArgumentException(
                        "devices, eventsPerMethod and repetitions must be >= 1");
            }
            if (epsilons.length == 0 || thresholds.length == 0) {
                throw new IllegalArgumentException("need at least one epsilon and one t");
            }
        }

        /**
         * The grid of frequency profiling's accuracy study: ε ∈ {ln 9, ln 49}, t ∈ {1, 10, 100, k},
         * ℓ = 0.25.
         */
        public static Options paperGrid(
                DeviceWorkload workload, int devices, int repetitions, long seed) {
            return new Options(
                    workload,
                    devices,
                    5,
                    new double[] {Math.log(9), Math.log(49)},
                    new int[] {1, 10, 100, T_EQUALS_K},
                    repetitions,
                    0.25,
                    seed);
        }
    }

    /**
     * Mean figures of one (ε, t) over the repetitions; "raw" is ĝ, "qp" is g*.
     *
     * @param relativeErrorAll RE over all methods
     * @param relativeErrorHot RE over hot(G, ℓ)
     * @param hotCoverage HMC(ℓ)
     */
    public record Row(
            double epsilon,
            int t,
            boolean tIsK,
            int k,
            double relativeErrorAllRaw,
            double relativeErrorAllQp,
            double relativeErrorHotRaw,
            double relativeErrorHotQp,
            double hotCoverageRaw,
            double hotCoverageQp,
            double solveMillis) {

        /** ε as printed: ln 9 rather than 2.197 when it is a logarithm of an integer. */
        public String epsilonLabel() {
            long base = Math.round(Math.exp(epsilon));
            return Math.abs(Math.log(base) - epsilon) < 1e-12
                    ? "ln " + base
                    : String.format(Locale.ROOT, "%.4g", epsilon);
        }

        public String tLabel() {
            return tIsK ? "k" : Integer.toString(t);
        }
    }

    /** The rows of a study and what it ran on. */
    public record Result(
            String workload,
            int methods,
            int pairs,
            int devices,
            int k,
            int repetitions,
            double hotThreshold,
            long seed,
            List<Row> rows) {}

    private AccuracyStudy() {}

    public static Result run(Options options) {
        DeviceWorkload workload = options.workload();
        int methods = workload.graph().methods();
        int k = Math.multiplyExact(options.eventsPerMethod(), methods);
        ConstraintProjection projection = new ConstraintProjection(workload.graph());
        int configs = options.epsilons().length * options.thresholds().length;
        double[][] totals = new double[configs][7];
        for (int rep = 0; rep < options.repetitions(); rep++) {
            RandomSource random = new SeededRandomSource(options.seed() * 1_000_003L + rep);
            int[][] traces = new int[options.devices()][];
            long[] truthCounts = new long[methods];
            for (int i = 0; i < traces.length; i++) {
                long[] epoch = workload.epoch(i, k, random);
                traces[i] = HypergeometricSampler.sampleMultivariate(random, epoch, k);
                for (int v = 0; v < methods; v++) {
                    truthCounts[v] += traces[i][v];
                }
            }
            double nk = (double) options.devices() * k;
            double[] truth = new double[methods];
            for (int v = 0; v < methods; v++) {
                truth[v] = truthCounts[v] / nk;
            }
            int[] hot = FrequencyMetrics.hotSet(truth, options.hotThreshold());
            int config = 0;
            for (double epsilon : options.epsilons()) {
                for (int t : options.thresholds()) {
                    int threshold = t == T_EQUALS_K ? k : t;
                    PrivacyParameters privacy = new PrivacyParameters(epsilon, threshold, k);
                    LocalRandomizer randomizer = new LocalRandomizer(privacy, random);
                    PartialSum sum = new PartialSum(methods);
                    for (int[] trace : traces) {
                        sum.add(randomizer.randomize(trace));
                    }
                    FrequencyEstimate estimate = new FrequencyEstimator(privacy).estimate(sum);
                    double[] raw = estimate.normalized();
                    ProjectionResult projected = projection.project(raw);
                    double[] qp = projected.solution();
                    double[] figures = totals[config++];
                    figures[0] += FrequencyMetrics.relativeError(truth, raw);
                    figures[1] += FrequencyMetrics.relativeError(truth, qp);
                    figures[2] += FrequencyMetrics.relativeError(truth, raw, hot);
                    figures[3] += FrequencyMetrics.relativeError(truth, qp, hot);
                    figures[4] +=
                            FrequencyMetrics.hotMethodCoverage(truth, raw, options.hotThreshold());
                    figures[5] +=
                            FrequencyMetrics.hotMethodCoverage(truth, qp, options.hotThreshold());
                    figures[6] += projected.millis();
                }
            }
        }
        List<Row> rows = new ArrayList<>();
        int config = 0;
        double r = options.repetitions();
        for (double epsilon : options.epsilons()) {
            for (int t : options.thresholds()) {
                double[] f = totals[config++];
                rows.add(
                        new Row(
                                epsilon,
                                t == T_EQUALS_K ? k : t,
                                t == T_EQUALS_K,
                                k,
                                f[0] / r,
                                f[1] / r,
                                f[2] / r,
                                f[3] / r,
                                f[4] / r,
                                f[5] / r,
                                f[6] / r));
            }
        }
        return new Result(
                workload.name(),
                methods,
                workload.graph().pairs(),
                options.devices(),
                k,
                options.repetitions(),
                options.hotThreshold(),
                options.seed(),
                List.copyOf(rows));
    }

    /** A fixed-width table with the RE reduction factor of the projection. */
    public static String table(Result result) {
        StringBuilder out = new StringBuilder();
        out.append(
                String.format(
                        Locale.ROOT,
                        "%s: |V| = %d, %d pairs, %d devices, k = %d, %d repetitions, l = %.2f,"
                                + " seed %d%n",
                        result.workload(),
                        result.methods(),
                        result.pairs(),
                        result.devices(),
                        result.k(),
                        result.repetitions(),
                        result.hotThreshold(),
                        result.seed()));
        out.append(
                String.format(
                        Locale.ROOT,
                        "%-7s %-6s | %9s %9s %6s | %9s %9s | %7s %7s | %8s%n",
                        "eps",
                        "t",
                        "RE_all_g^",
                        "RE_all_g*",
                        "x",
                        "RE_hot_g^",
                        "RE_hot_g*",
                        "HMC_g^",
                        "HMC_g*",
                        "qp_ms"));
        for (Row row : result.rows()) {
            out.append(
                    String.format(
                            Locale.ROOT,
                            "%-7s %-6s | %9.4f %9.4f %6.2f | %9.4f %9.4f | %7.3f %7.3f | %8.2f%n",
                            row.epsilonLabel(),
                            row.tLabel(),
                            row.relativeErrorAllRaw(),
                            row.relativeErrorAllQp(),
                            row.relativeErrorAllRaw() / row.relativeErrorAllQp(),
                            row.relativeErrorHotRaw(),
                            row.relativeErrorHotQp(),
                            row.hotCoverageRaw(),
                            row.hotCoverageQp(),
                            row.solveMillis()));
        }
        return out.toString();
    }

    /** The rows as CSV with a header line. */
    public static String csv(Result result) {
        StringBuilder out =
                new StringBuilder(
                        "workload,methods,devices,k,epsilon,t,re_all_raw,re_all_qp,re_hot_raw,"
                                + "re_hot_qp,hmc_raw,hmc_qp,qp_ms\n");
        for (Row row : result.rows()) {
            out.append(
                    String.format(
                            Locale.ROOT,
                            "%s,%d,%d,%d,%s,%s,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.3f%n",
                            result.workload(),
                            result.methods(),
                            result.devices(),
                            result.k(),
                            row.epsilonLabel(),
                            row.tLabel(),
                            row.relativeErrorAllRaw(),
                            row.relativeErrorAllQp(),
                            row.relativeErrorHotRaw(),
                            row.relativeErrorHotQp(),
                            row.hotCoverageRaw(),
                            row.hotCoverageQp(),
                            row.solveMillis()));
        }
        return out.toString();
    }
}
