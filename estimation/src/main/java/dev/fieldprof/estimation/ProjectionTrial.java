package dev.fieldprof.estimation;

import dev.fieldprof.ldp.PrivacyParameters;
import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * The experiment behind {@code fieldprof project}: a heavy-tailed ground truth that satisfies the
 * pairs, noisy estimates ĝ as the randomizer would produce them, and the projection timed over
 * repetitions, with ojAlgo's ADMM on the first ĝ side by side.
 *
 * <p>The noise of ĝ(v) is Gaussian with the estimator's exact variance {@code a/(n·k)/(a − 1)²}
 * (docs/architecture.md, "The privacy contract"): ĝ(v) sums n·k independent bounded draws, so its
 * distribution is normal to within the central limit theorem at the sizes used here.
 */
public final class ProjectionTrial {
    /** Repetitions run before timing, so that the JIT has compiled the solver. */
    private static final int WARM_UP = 3;

    /**
     * What to run.
     *
     * @param graph the pair order over |V| methods
     * @param seed seed of the truth and the noise
     * @param repeat timed solves, each on a fresh ĝ, {@code >= 1}
     * @param privacy ε, t and k of the simulated reports
     * @param reports n, the simulated reports per window
     * @param admm whether to run ojAlgo's ADMM on the first ĝ
     */
    public record Options(
            ConstraintGraph graph,
            long seed,
            int repeat,
            PrivacyParameters privacy,
            long reports,
            boolean admm) {
        public Options {
            if (repeat < 1) {
                throw new IllegalArgumentException("repeat must be >= 1, got " + repeat);
            }
            if (reports < 1) {
                throw new IllegalArgumentException("reports must be >= 1, got " + reports);
            }
        }
    }

    /**
     * The figures of one run.
     *
     * @param medianMillis median solve time of ours
     * @param rounds min-cut rounds of the first solve
     * @param kktResidual largest KKT residual over the repetitions
     * @param objective objective Σ(g* − ĝ)² of the first solve
     * @param maxViolation largest order violation over the repetitions
     * @param relativeErrorBefore RE of ĝ against the truth (first ĝ)
     * @param relativeErrorAfter RE of g* against the truth (first ĝ)
     * @param admm ojAlgo's ADMM on the first ĝ, or null when not run
     */
    public record Result(
            ConstraintGraph graph,
            double standardError,
            int repeat,
            double medianMillis,
            int rounds,
            double kktResidual,
            double objective,
            double maxViolation,
            double relativeErrorBefore,
            double relativeErrorAfter,
            Admm admm) {}

    /**
     * ojAlgo's ADMM on the same ĝ.
     *
     * @param maxDifference the largest |x_ADMM(v) − g*(v)|
     * @param sumError |Σx_ADMM − 1|
     * @param negativity the most negative x_ADMM(v), as a positive number (0 when none)
     */
    public record Admm(
            String state,
            double millis,
            double objective,
            double maxViolation,
            double maxDifference,
            double sumError,
            double negativity) {}

    private ProjectionTrial() {}

    public static Result run(Options options) {
        ConstraintGraph graph = options.graph();
        SplittableRandom random = new SplittableRandom(options.seed());
        double[] truth = truth(graph, random);
        PrivacyParameters privacy = options.privacy();
        double standardError = new FrequencyEstimator(privacy).standardError(options.reports());
        ConstraintProjection projection = new ConstraintProjection(graph);

        double[] first = noisy(truth, standardError, random);
        for (int i = 0; i < WARM_UP; i++) {
            projection.project(first);
        }
        double[] millis = new double[options.repeat()];
        ProjectionResult firstResult = null;
        double residual = 0;
        double violation = 0;
        for (int i = 0; i < options.repeat(); i++) {
            double[] estimate = i == 0 ? first : noisy(truth, standardError, random);
            ProjectionResult r = projection.project(estimate);
            millis[i] = r.millis();
            residual = Math.max(residual, r.kktResidual());
            violation = Math.max(violation, r.maxViolation());
            if (i == 0) {
                firstResult = r;
            }
        }
        Arrays.sort(millis);
        double median =
                millis.length % 2 == 1
                        ? millis[millis.length / 2]
                        : (millis[millis.length / 2 - 1] + millis[millis.length / 2]) / 2;
        Admm admm = null;
        if (options.admm()) {
            OjAlgoProjection.Solution solution =
                    OjAlgoProjection.solve(graph, first, OjAlgoProjection.Algorithm.ADMM);
            double[] x = solution.x();
            double objective = 0;
            double difference = 0;
            double sum = 0;
            double negativity = 0;
            for (int v = 0; v < x.length; v++) {
                objective += (x[v] - first[v]) * (x[v] - first[v]);
                difference = Math.max(difference, Math.abs(x[v] - firstResult.solution()[v]));
                sum += x[v];
                negativity = Math.max(negativity, -x[v]);
            }
            admm =
                    new Admm(
                            solution.state(),
                            solution.millis(),
                            objective,
                            ConstraintProjection.maxViolation(graph, x),
                            difference,
                            Math.abs(sum - 1),
                            negativity);
        }
        return new Result(
                graph,
                standardError,
                options.repeat(),
                median,
                firstResult.rounds(),
                residual,
                firstResult.objective(),
                violation,
                FrequencyMetrics.relativeError(truth, first),
                FrequencyMetrics.relativeError(truth, firstResult.solution()),
                admm);
    }

    /**
     * A heavy-tailed truth that satisfies every pair: Pareto draws per component, raised to the
     * largest value of any predecessor (components are numbered sinks first, so walking them from
     * the highest number visits every predecessor first), normalized to sum 1.
     */
    static double[] truth(ConstraintGraph graph, SplittableRandom random) {
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

    private static double[] noisy(double[] truth, double standardError, SplittableRandom random) {
        double[] estimate = new double[truth.length];
        for (int v = 0; v < truth.length; v++) {
            double u = 1 - random.nextDouble();
            double w = random.nextDouble();
            double gaussian = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * w);
            estimate[v] = truth[v] + standardError * gaussian;
        }
        return estimate;
    }

    /** The header of {@link #row}: one line of column names. */
    public static String header() {
        return String.format(
                Locale.ROOT,
                "%-12s %6s %6s %6s %9s %6s %9s %10s %9s %6s %6s | %9s %-8s %10s %9s %9s",
                "app",
                "|V|",
                "pairs",
                "comps",
                "median_ms",
                "rounds",
                "kkt_res",
                "objective",
                "max_viol",
                "RE_g^",
                "RE_g*",
                "admm_ms",
                "admm_st",
                "admm_obj",
                "admm_viol",
                "admm_diff");
    }

    /** One line of figures for a named run. */
    public static String row(String name, Result r) {
        Admm a = r.admm();
        return String.format(
                Locale.ROOT,
                "%-12s %6d %6d %6d %9.2f %6d %9.1e %10.4e %9.1e %6.3f %6.3f | %9s %-8s %10s %9s"
                        + " %9s",
                name,
                r.graph().methods(),
                r.graph().pairs(),
                r.graph().components(),
                r.medianMillis(),
                r.rounds(),
                r.kktResidual(),
                r.objective(),
                r.maxViolation(),
                r.relativeErrorBefore(),
                r.relativeErrorAfter(),
                a == null ? "-" : String.format(Locale.ROOT, "%.1f", a.millis()),
                a == null ? "-" : a.state(),
                a == null ? "-" : String.format(Locale.ROOT, "%.4e", a.objective()),
                a == null ? "-" : String.format(Locale.ROOT, "%.1e", a.maxViolation()),
                a == null ? "-" : String.format(Locale.ROOT, "%.1e", a.maxDifference()));
    }
}
