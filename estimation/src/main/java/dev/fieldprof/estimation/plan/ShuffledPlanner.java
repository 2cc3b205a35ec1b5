package dev.fieldprof.estimation.plan;

import dev.fieldprof.ldp.PrivacyParameters;
import dev.fieldprof.ldp.ShuffleAmplification;
import dev.fieldprof.schemas.PrivacyMode;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The planner's shuffled mode: for a target central (ε, δ), the largest local ε₀ a device may
 * randomize at so that a shuffled batch of a window's reports still holds the target ({@link
 * ShuffleAmplification}), and the accuracy that ε₀ buys.
 *
 * <p>A device in this mode reports exactly as in the user-level mode (one event through subset
 * selection, at ε₀); the shuffler only strips identities and reorders, which changes no sum, so the
 * window estimates are the user-level estimator's at ε₀ and {@link PrivacyPlanner} predicts their
 * accuracy. The batch is the window's reports: n = devices × reports per device per day × the
 * window, rounded down; the shuffler's minimum batch size must be at least that n for the central ε
 * to hold (a larger batch only strengthens it).
 */
public final class ShuffledPlanner {
    /** ε₀ is searched up to this; subset selection beyond it reports the event almost surely. */
    static final double MAX_EPSILON0 = 20;

    /** ε₀ is found to within this and given as a multiple of it, rounded down. */
    static final double EPSILON0_RESOLUTION = 1e-4;

    /**
     * A shuffled configuration and what it is predicted to give.
     *
     * @param prediction the window estimates' accuracy at ε₀ (a user-level candidate)
     * @param windowDays the span of a window, and so of a batch, in days
     * @param batchSize n, the reports of a window, shuffled as one batch
     * @param reportsPerDevicePerBatch reports per device per day × the window in days: above 1, a
     *     device has several reports in a batch and the central ε protects each, not the device
     * @param targetEpsilon the central ε asked for; ε₀ is the largest that meets it
     * @param delta the central δ
     * @param centralEpsilon the central ε the batch holds at ε₀ (≤ the target)
     */
    public record Plan(
            PrivacyPlanner.Prediction prediction,
            double windowDays,
            long batchSize,
            double reportsPerDevicePerBatch,
            double targetEpsilon,
            double delta,
            double centralEpsilon) {
        /** The local ε₀ each report is randomized at: the guarantee without the shuffler. */
        public double epsilon0() {
            return prediction.candidate().privacy().epsilon();
        }

        /** The central ε a device spends per day: one per report, by composition. */
        public double centralEpsilonPerDay() {
            return prediction.candidate().reportsPerDay() * centralEpsilon;
        }
    }

    private ShuffledPlanner() {}

    /**
     * The largest multiple of {@value #EPSILON0_RESOLUTION} (at most {@value #MAX_EPSILON0}) at
     * which a shuffled batch of n reports is (ε, δ)-DP. Never below ε itself: a report at ε₀ = ε is
     * (ε, 0)-DP without any shuffling. The bisection relies on the batch's δ at ε growing with ε₀
     * (more distinguishable reports, fewer clones).
     */
    public static double largestEpsilon0(long batchSize, double centralEpsilon, double delta) {
        if (!(centralEpsilon > 0) || Double.isInfinite(centralEpsilon)) {
            throw new IllegalArgumentException(
                    "the central epsilon must be finite and > 0, got " + centralEpsilon);
        }
        if (!(delta > 0 && delta < 1)) {
            throw new IllegalArgumentException("delta must be in (0, 1), got " + delta);
        }
        double lo = Math.min(centralEpsilon, MAX_EPSILON0);
        double hi = MAX_EPSILON0;
        if (holds(batchSize, hi, centralEpsilon, delta)) {
            return hi;
        }
        while (hi - lo > EPSILON0_RESOLUTION / 4) {
            double mid = (lo + hi) / 2;
            if (holds(batchSize, mid, centralEpsilon, delta)) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        // Down to a multiple of the resolution: a smaller ε₀ holds whenever lo does, and a
        // figure printed to four decimals is then the one checked.
        double rounded = Math.floor(lo / EPSILON0_RESOLUTION) * EPSILON0_RESOLUTION;
        return rounded > 0 ? rounded : lo;
    }

    private static boolean holds(long n, double epsilon0, double centralEpsilon, double delta) {
        return new ShuffleAmplification(n, epsilon0).delta(centralEpsilon) <= delta;
    }

    /**
     * The plan for one reporting rate: the window's reports as one batch, the largest ε₀ that meets
     * the target, and the planner's prediction at it.
     *
     * @throws IllegalArgumentException when a window holds less than one report
     */
    public static Plan plan(
            PrivacyPlanner planner, double reportsPerDay, double centralEpsilon, double delta) {
        double perWindow = planner.reportsPerWindow(reportsPerDay);
        if (!(perWindow >= 1)) {
            throw new IllegalArgumentException(
                    "a window holds "
                            + perWindow
                            + " reports: a shuffled batch needs at least one");
        }
        long batch = (long) Math.floor(perWindow);
        double epsilon0 = largestEpsilon0(batch, centralEpsilon, delta);
        PrivacyPlanner.Prediction prediction =
                planner.predict(
                        new PrivacyPlanner.Candidate(
                                new PrivacyParameters(PrivacyMode.USER_LEVEL, epsilon0, 1, 1),
                                reportsPerDay));
        double achieved = new ShuffleAmplification(batch, epsilon0).centralEpsilon(delta);
        return new Plan(
                prediction,
                planner.windowDays(),
                batch,
                reportsPerDay * planner.windowDays(),
                centralEpsilon,
                delta,
                achieved);
    }

    /**
     * The plan that meets the target 95% half-width at the smallest central ε per device per day,
     * that is the fewest reports per device per day at the target central ε (ties: the shorter
     * window, whose estimates are fresher, then the smaller RE of g*), or empty when none meets it.
     * The target, not the central ε each plan reaches (a hair below it, by rounding ε₀ down), is
     * what is compared.
     */
    public static Optional<Plan> recommend(List<Plan> plans, double halfWidth) {
        return plans.stream()
                .filter(p -> p.prediction().halfWidth95() <= halfWidth)
                .min(
                        Comparator.comparingDouble(
                                        (Plan p) ->
                                                p.prediction().candidate().reportsPerDay()
                                                        * p.targetEpsilon())
                                .thenComparingDouble(Plan::windowDays)
                                .thenComparingDouble(p -> p.prediction().relativeErrorProjected()));
    }
}
