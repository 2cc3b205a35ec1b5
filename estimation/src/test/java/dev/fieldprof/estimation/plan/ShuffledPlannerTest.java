package dev.fieldprof.estimation.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.fieldprof.estimation.FrequencyEstimator;
import dev.fieldprof.estimation.evaluation.SimulatedReports;
import dev.fieldprof.estimation.evaluation.StudyGraphs;
import dev.fieldprof.estimation.evaluation.SyntheticWorkload;
import dev.fieldprof.ldp.PrivacyParameters;
import dev.fieldprof.ldp.RandomSource;
import dev.fieldprof.ldp.SeededRandomSource;
import dev.fieldprof.ldp.ShuffleAmplification;
import dev.fieldprof.ldp.SubsetSelection;
import dev.fieldprof.schemas.PrivacyMode;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

class ShuffledPlannerTest {
    private static final double Z95 = 1.959963984540054;

    @Test
    void theLargestLocalEpsilonIsTheInverseOfTheAmplification() {
        // 10,000 reports at ln 9 hold 0.1817515 at δ = 1e-6: a target of 0.1818 allows a little
        // more than ln 9, and the next step of ε₀ would break it.
        double epsilon0 = ShuffledPlanner.largestEpsilon0(10_000, 0.1818, 1e-6);
        assertThat(epsilon0).isBetween(Math.log(9), Math.log(9) + 0.01);
        assertThat(new ShuffleAmplification(10_000, epsilon0).centralEpsilon(1e-6))
                .isLessThanOrEqualTo(0.1818);
        assertThat(new ShuffleAmplification(10_000, epsilon0 + 1.5e-4).delta(0.1818))
                .isGreaterThan(1e-6);
        // 100,000 reports at 4 hold 0.16977: a target of 0.17 allows at least 4.
        assertThat(ShuffledPlanner.largestEpsilon0(100_000, 0.17, 1e-6)).isGreaterThanOrEqualTo(4);
        // One report is not amplified: ε₀ can only be the target.
        assertThat(ShuffledPlanner.largestEpsilon0(1, 1, 1e-6)).isCloseTo(1, within(2e-4));
    }

    @Test
    void moreReportsPerWindowAllowALargerLocalEpsilonAndANarrowerInterval() {
        SyntheticWorkload workload =
                new SyntheticWorkload("synthetic", StudyGraphs.chainDiamondAndFree(), 7);
        double[] profile = PrivacyPlanner.zipfProfile(workload.graph());
        double previousEpsilon0 = 0;
        double previousWidth = Double.POSITIVE_INFINITY;
        for (long devices : new long[] {1_000, 10_000, 100_000}) {
            PrivacyPlanner planner =
                    new PrivacyPlanner(workload.graph(), profile, devices, 1, 2, 1);
            ShuffledPlanner.Plan plan = ShuffledPlanner.plan(planner, 1, 1, 1e-6);
            assertThat(plan.batchSize()).isEqualTo(devices);
            assertThat(plan.windowDays()).isEqualTo(1.0);
            assertThat(plan.reportsPerDevicePerBatch()).isEqualTo(1.0);
            assertThat(plan.centralEpsilon()).isLessThanOrEqualTo(1);
            assertThat(plan.epsilon0()).isGreaterThan(previousEpsilon0);
            assertThat(plan.prediction().halfWidth95()).isLessThan(previousWidth);
            previousEpsilon0 = plan.epsilon0();
            previousWidth = plan.prediction().halfWidth95();
        }
    }

    /**
     * The shuffled plan against the real randomizer and estimator: 2,000 simulated devices of the
     * synthetic workload report once each at the plan's ε₀ through subset selection (shuffling
     * reorders the batch and changes no sum, so it is left out), the real estimator estimates, and
     * the measured 95% half-width, 1.96 × the root-mean-square error over all methods and 200
     * batches, is within 10% of the predicted one, 1.96 × the root mean of the predicted squared
     * standard errors (measured 0.01750, predicted 0.01752); so is the relative error of ĝ.
     */
    @Test
    void predictedIntervalWidthIsWithinTenPercentOfTheRealRandomizerAndEstimator() {
        SyntheticWorkload workload =
                new SyntheticWorkload("synthetic", StudyGraphs.chainDiamondAndFree(), 7);
        int devices = 2000;
        int methods = workload.graph().methods();
        RandomSource random = new SeededRandomSource(20261127L);
        long[][] epochs = new long[devices][];
        for (int d = 0; d < devices; d++) {
            epochs[d] = workload.epoch(d, 5L * methods, random);
        }
        double[] profile = SimulatedReports.meanShares(epochs);
        PrivacyPlanner planner = new PrivacyPlanner(workload.graph(), profile, devices, 1, 16, 3);
        ShuffledPlanner.Plan plan = ShuffledPlanner.plan(planner, 1, 1, 1e-6);
        double epsilon0 = plan.epsilon0();
        // 2,000 reports amplify ε₀ = 3.3015 to a central ε of 1 at δ = 1e-6.
        assertThat(epsilon0).isCloseTo(3.3015, within(1.5e-4));
        assertThat(plan.centralEpsilon()).isBetween(0.9999, 1.0);

        PrivacyParameters privacy = new PrivacyParameters(PrivacyMode.USER_LEVEL, epsilon0, 1, 1);
        FrequencyEstimator estimator = new FrequencyEstimator(privacy);
        int batches = 200;
        double squared = 0;
        for (int b = 0; b < batches; b++) {
            double[] estimate =
                    estimator
                            .estimate(SimulatedReports.sum(privacy, epochs, random, null))
                            .normalized();
            for (int v = 0; v < methods; v++) {
                squared += (estimate[v] - profile[v]) * (estimate[v] - profile[v]);
            }
        }
        double measured = Z95 * Math.sqrt(squared / (batches * methods));
        SubsetSelection oracle = new SubsetSelection(methods, epsilon0);
        double predictedSquared = 0;
        for (double share : profile) {
            predictedSquared += Math.pow(oracle.standardError(share, devices), 2);
        }
        double predicted = Z95 * Math.sqrt(predictedSquared / methods);
        System.out.printf(
                Locale.ROOT,
                "shuffled, central 1 at 1e-6, %d reports: epsilon0 %.4f (central %.4f); 95%%"
                        + " half-width predicted %.5f (share 0: %.5f) measured %.5f (x%.3f)%n",
                devices,
                epsilon0,
                plan.centralEpsilon(),
                predicted,
                plan.prediction().halfWidth95(),
                measured,
                predicted / measured);
        assertThat(predicted / measured).isBetween(0.9, 1.1);
        assertThat(plan.prediction().halfWidth95())
                .isCloseTo(Z95 * oracle.standardErrorAtZero(devices), within(1e-15));

        List<PlanValidation.Comparison> comparisons =
                PlanValidation.run(workload, devices, List.of(privacy), 16, 20261127L);
        PlanValidation.Comparison c = comparisons.get(0);
        System.out.println(c.describe());
        assertThat(c.rawRatio()).isBetween(0.9, 1.1);
        // RE(g*) is printed, not asserted: the planner's simulated projection is the user-level
        // mode's, and overstates it here by 11% (predicted 0.2302, simulated 0.2081), as it does
        // in that mode's own validation.
        assertThat(c.projectedRatio()).isGreaterThan(1);
    }
}
