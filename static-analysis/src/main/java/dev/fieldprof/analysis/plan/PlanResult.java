package dev.fieldprof.analysis.plan;

import dev.fieldprof.schemas.ProbePlan;
import dev.fieldprof.schemas.ProgramModel;
import java.util.ArrayList;
import java.util.List;

/**
 * A finished probe plan with what it covers.
 *
 * @param options what was asked
 * @param salt salt of the device-to-variant hash, drawn from the seed
 * @param costs the cost of each method, in the h-bound's unit
 * @param events the call chains (events) of the model
 * @param clusters the clusters (one per root) of the model
 * @param placement the distribution of the strategy's target sets
 * @param eventCoverage events each variant fully traces
 * @param clusterCoverage clusters each variant fully traces
 * @param seconds wall time of planning, events and clusters included
 */
public record PlanResult(
        PlanOptions options,
        long salt,
        MethodCosts costs,
        ProbeSets events,
        ProbeSets clusters,
        Placement placement,
        SetCoverage eventCoverage,
        SetCoverage clusterCoverage,
        double seconds) {

    /**
     * The methods whose own cost exceeds the h-bound, ascending. No variant traces them: the
     * h-bound is a promise to every device, so a method that alone breaks it is left out (its
     * entries are still counted) rather than given a variant of its own that exceeds it.
     */
    public int[] overBoundMethods() {
        return java.util.stream.IntStream.range(0, costs.size())
                .filter(m -> costs.cost(m) > options.hBound())
                .toArray();
    }

    /** The plan as it travels in the program model. */
    public ProbePlan toRecord() {
        List<List<Integer>> variants = new ArrayList<>();
        for (int[] methods : placement.methods()) {
            List<Integer> ids = new ArrayList<>(methods.length);
            for (int m : methods) {
                ids.add(m);
            }
            variants.add(ids);
        }
        List<Long> methodCosts = new ArrayList<>(costs.size());
        for (long cost : costs.toArray()) {
            methodCosts.add(cost);
        }
        CostWeights weights = options.effectiveWeights();
        return ProbePlan.newBuilder()
                .setSalt(salt)
                .setVariantCount(options.variants())
                .setVariants(variants)
                .setStrategy(options.strategy().cliName())
                .setHBound(options.hBound())
                .setCostUnit(costs.unit())
                .setMethodCosts(methodCosts)
                .setAlpha(weights.alpha())
                .setBeta(weights.beta())
                .setGamma(weights.gamma())
                .setSeed(options.seed())
                .build();
    }

    /** A copy of the model that carries this plan (replacing any earlier one). */
    public ProgramModel applyTo(ProgramModel model) {
        return ProgramModel.newBuilder(model).setProbePlan(toRecord()).build();
    }
}
