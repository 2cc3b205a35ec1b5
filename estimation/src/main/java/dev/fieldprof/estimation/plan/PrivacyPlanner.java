package dev.fieldprof.estimation.plan;

import dev.fieldprof.estimation.ConstraintGraph;
import dev.fieldprof.estimation.ConstraintProjection;
import dev.fieldprof.estimation.FrequencyEstimator;
import dev.fieldprof.estimation.FrequencyMetrics;
import dev.fieldprof.ldp.BinomialSampler;
import dev.fieldprof.ldp.PrivacyParameters;
import dev.fieldprof.ldp.RandomSource;
import dev.fieldprof.ldp.SeededRandomSource;
import dev.fieldprof.ldp.SubsetSelection;
import dev.fieldprof.schemas.PrivacyMode;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;

/**
 * Predicts, before anything ships, how accurate the field estimates of a program will be under a
 * privacy configuration, and what each device pays for it: the per-method 95% interval, the
 * smallest share distinguishable from zero, the expected relative error of ĝ and of the consistent
 * g*, and the user-level ε a device spends per day. Deterministic for a seed; immutable and
 * thread-safe.
 *
 * <p>The standard errors are the estimators' own (see {@code FrequencyEstimator}): in ε-t mode
 * √(a/(n·k))/(a − 1) for every method; in user-level mode √(μ(1 − μ)/n)/(p − q) with μ = q + (p −
 * q)·g(v) for a method of share g(v). The sum of n reports is close to normal, so E|ĝ(v) − g(v)| =
 * √(2/π)·SE(v) and RE(ĝ) = √(2/π)·Σ_v SE(v) (the shares sum to 1). RE(g*) has no closed form: the
 * projection removes most of the noise of the many methods near share 0, how much depends on the
 * profile and the pairs, so it is simulated: in ε-t mode ĝ = G + SE·Z with seeded normal Z around
 * the sampled events G (themselves scattered around g), in user-level mode from binomial inclusion
 * counts, projected with the jobs' own {@link ConstraintProjection}, averaged over the repetitions.
 *
 * <p>The profile g is what the user expects the shares to look like: the previous release's
 * estimates, a profile from a test run, or {@link #zipfProfile} when nothing is known.
 */
public final class PrivacyPlanner {
    /** √(2/π): E|Z| of a standard normal Z. */
    private static final double MEAN_ABSOLUTE_NORMAL = Math.sqrt(2 / Math.PI);

    private static final double Z95 = 1.959963984540054;

    /** One configuration to predict: its privacy parameters and how often a device reports. */
    public record Candidate(PrivacyParameters privacy, double reportsPerDay) {
        public Candidate {
            if (!(reportsPerDay > 0) || Double.isInfinite(reportsPerDay)) {
                throw new IllegalArgumentException(
                        "reports per device per day must be > 0 and finite, got " + reportsPerDay);
            }
        }

        /** The user-level ε of one report: ε·k/t in ε-t mode, ε in user-level mode. */
        public double userLevelEpsilonPerReport() {
            return privacy.userLevelEpsilonPerReport();
        }

        public double userLevelEpsilonPerDay() {
            return reportsPerDay * userLevelEpsilonPerReport();
        }
    }

    /**
     * What a candidate is predicted to give.
     *
     * @param reportsPerWindow n: devices × reports per device per day × window (in days)
     * @param standardError the standard error of a method of share 0 (the estimates' common one; in
     *     user-level mode a method of larger share has a larger one)
     * @param halfWidth95 1.96 × that standard error
     * @param smallestShare the smallest share whose 95% interval excludes 0
     * @param relativeErrorRaw expected RE of ĝ over all methods
     * @param relativeErrorProjected expected RE of g* over all methods (simulated)
     */
    public record Prediction(
            Candidate candidate,
            double reportsPerWindow,
            double standardError,
            double halfWidth95,
            double smallestShare,
            double relativeErrorRaw,
            double relativeErrorProjected) {}

    private final ConstraintGraph graph;
    private final ConstraintProjection projection;
    private final double[] profile;
    private final long devices;
    private final double windowDays;
    private final int repetitions;
    private final long seed;

    /**
     * @param graph the program's methods and pairs
     * @param profile the expected shares, one per method, non-negative, summing to 1 (within 1e-6)
     * @param devices devices reporting, >= 1
     * @param windowDays the span one estimate covers, in days, > 0 (1/24 for hourly windows)
     * @param repetitions simulated projections averaged per candidate, >= 1
     * @param seed fixes the simulated noise
     */
    public PrivacyPlanner(
            ConstraintGraph graph,
            double[] profile,
            long devices,
            double windowDays,
            int repetitions,
            long seed) {
        if (profile.length != graph.methods()) {
            throw new IllegalArgumentException(
                    "the profile has "
                            + profile.length
                            + " shares but the program "
                            + graph.methods()
                            + " methods");
        }
        double total = 0;
        for (double share : profile) {
            if (!(share >= 0) || Double.isInfinite(share)) {
                throw new IllegalArgumentException("shares must be finite and >= 0, got " + share);
            }
            total += share;
        }
        if (Math.abs(total - 1) > 1e-6) {
            throw new IllegalArgumentException("the shares must sum to 1, got " + total);
        }
        if (devices < 1 || !(windowDays > 0) || repetitions < 1) {
            throw new IllegalArgumentException(
                    "devices and repetitions must be >= 1 and the window > 0");
        }
        this.graph = graph;
        this.projection = new ConstraintProjection(graph);
        this.profile = profile.clone();
        this.devices = devices;
        this.windowDays = windowDays;
        this.repetitions = repetitions;
        this.seed = seed;
    }

    /**
     * Shares proportional to 1/rank (Zipf, exponent 1), made consistent with the pairs by the
     * projection: what call frequencies of real programs look like when nothing better is known.
     * Methods are ranked by id, which carries no meaning, so only the shape counts.
     */
    public static double[] zipfProfile(ConstraintGraph graph) {
        int methods = graph.methods();
        double[] shares = new double[methods];
        double total = 0;
        for (int v = 0; v < methods; v++) {
            shares[v] = 1.0 / (v + 1);
            total += shares[v];
        }
        for (int v = 0; v < methods; v++) {
            shares[v] /= total;
        }
        return new ConstraintProjection(graph).project(shares).solution();
    }

    public Prediction predict(Candidate candidate) {
        PrivacyParameters privacy = candidate.privacy();
        double n = reportsPerWindow(candidate.reportsPerDay());
        // One oracle per candidate: every user-level figure below is the estimator's own.
        SubsetSelection oracle =
                privacy.mode() == PrivacyMode.USER_LEVEL
                        ? new SubsetSelection(profile.length, privacy.epsilon())
                        : null;
        double atZero =
                oracle == null
                        ? FrequencyEstimator.epsilonTStandardError(privacy, n)
                        : oracle.standardError(0, n);
        double[] errors = new double[profile.length];
        double raw = 0;
        for (int v = 0; v < errors.length; v++) {
            errors[v] = oracle == null ? atZero : oracle.standardError(profile[v], n);
            raw += MEAN_ABSOLUTE_NORMAL * errors[v];
        }
        return new Prediction(
                candidate,
                n,
                atZero,
                Z95 * atZero,
                oracle == null ? Z95 * atZero : smallestShare(oracle, n),
                raw,
                simulatedProjectedError(errors, candidate, oracle));
    }

    /** Predictions of every candidate, in the order given. */
    public List<Prediction> predictAll(List<Candidate> candidates) {
        return candidates.stream().map(this::predict).toList();
    }

    /**
     * The candidate that meets the target 95% half-width at the smallest user-level ε per day
     * (ties: the smaller RE of g*), or empty when none meets it.
     */
    public static Optional<Prediction> recommend(List<Prediction> predictions, double halfWidth) {
        return predictions.stream()
                .filter(p -> p.halfWidth95() <= halfWidth)
                .min(
                        Comparator.comparingDouble(
                                        (Prediction p) -> p.candidate().userLevelEpsilonPerDay())
                                .thenComparingDouble(Prediction::relativeErrorProjected));
    }

    /**
     * The smallest g with g ≥ 1.96·SE(g) in user-level mode, where SE grows with g: the fixed
     * point, found by iteration (SE(g) is concave in g, so it converges from 0).
     */
    private static double smallestShare(SubsetSelection oracle, double n) {
        double g = 0;
        for (int i = 0; i < 100; i++) {
            double next = Z95 * oracle.standardError(Math.min(g, 1), n);
            if (Math.abs(next - g) < 1e-15) {
                break;
            }
            g = next;
        }
        return g;
    }

    private double simulatedProjectedError(
            double[] errors, Candidate candidate, SubsetSelection userLevel) {
        // One stream per candidate, derived from the seed and the candidate alone, so adding a
        // candidate to the grid does not change the others' figures.
        PrivacyParameters privacy = candidate.privacy();
        SplittableRandom random = new SplittableRandom(streamSeed(privacy, candidate));
        double n = devices * candidate.reportsPerDay() * windowDays;
        // Binomial draws need a whole int n; beyond it the normal noise below is as good.
        SubsetSelection oracle = n <= Integer.MAX_VALUE ? userLevel : null;
        RandomSource binomials = oracle == null ? null : new SeededRandomSource(random.nextLong());
        double events = n * privacy.k();
        double total = 0;
        double[] truth = new double[profile.length];
        double[] noisy = new double[profile.length];
        for (int r = 0; r < repetitions; r++) {
            for (int v = 0; v < noisy.length; v++) {
                if (oracle != null) {
                    // User-level sums are counts of rare inclusions, skewed where n·μ is small:
                    // drawn as binomials, so that the projection clips what the real one would.
                    double mu = oracle.q() + (oracle.p() - oracle.q()) * profile[v];
                    int included = BinomialSampler.sample(binomials, (int) n, mu);
                    truth[v] = profile[v];
                    noisy[v] = (included / n - oracle.q()) / (oracle.p() - oracle.q());
                } else {
                    // In ε-t mode the estimand is the reports' sampled events, which scatter
                    // around the profile (multinomially, nearly) and need not keep the pairs'
                    // order: part of that scatter is error the projection cannot remove.
                    truth[v] =
                            profile[v]
                                    + Math.sqrt(profile[v] * (1 - profile[v]) / events)
                                            * gaussian(random);
                    noisy[v] = truth[v] + errors[v] * gaussian(random);
                }
            }
            total += FrequencyMetrics.relativeError(truth, projection.project(noisy).solution());
        }
        return total / repetitions;
    }

    /** A seed from the seed and the candidate's values (never identity hash codes). */
    private long streamSeed(PrivacyParameters privacy, Candidate candidate) {
        long h = seed;
        for (long part :
                new long[] {
                    privacy.mode().ordinal(),
                    Double.doubleToLongBits(privacy.epsilon()),
                    privacy.t(),
                    privacy.k(),
                    Double.doubleToLongBits(candidate.reportsPerDay())
                }) {
            h = (h ^ part) * 0x9E3779B97F4A7C15L;
            h ^= h >>> 29;
        }
        return h;
    }

    /** A standard normal draw (Marsaglia's polar method). */
    private static double gaussian(SplittableRandom random) {
        while (true) {
            double u = 2 * random.nextDouble() - 1;
            double w = 2 * random.nextDouble() - 1;
            double s = u * u + w * w;
            if (s > 0 && s < 1) {
                return u * Math.sqrt(-2 * Math.log(s) / s);
            }
        }
    }

    public ConstraintGraph graph() {
        return graph;
    }

    /** n of a window: devices × reports per device per day × the window in days. */
    public double reportsPerWindow(double reportsPerDay) {
        return devices * reportsPerDay * windowDays;
    }

    /** The span one estimate covers, in days. */
    public double windowDays() {
        return windowDays;
    }
}
