package dev.fieldprof.analysis.plan;

import dev.fieldprof.schemas.ProgramModel;
import java.util.SplittableRandom;

/**
 * Plans which methods each program variant path-traces (probe distribution, docs/references.md,
 * Sections 4.2-4.3): builds the model's events (bounded call chains from the roots) and clusters (a
 * root and what it reaches), weighs methods by cost, and distributes the strategy's sets over the
 * variants.
 *
 * <pre>{@code
 * PlanOptions options = PlanOptions.of(Strategy.BALANCED_CLUSTERS, 36, 200, 7L);
 * ProgramModel planned = ProbePlanner.plan(model, options).applyTo(model);
 * }</pre>
 *
 * <p>Deterministic: the seed drives every random choice (one {@link SplittableRandom}; the salt is
 * its first draw), and nothing iterates in hash order. Thread-safe (no shared state).
 */
public final class ProbePlanner {

    private ProbePlanner() {}

    public static PlanResult plan(ProgramModel model, PlanOptions options) {
        return plan(ModelCallGraph.of(model), unitCosts(model, options), options);
    }

    /**
     * Plans with each method's cost in the options' unit weighed by its relative call rate, so that
     * a hot method counts for what tracing it costs at run time; the h-bound is then in {@code
     * "<unit> x call rate"}.
     */
    public static PlanResult plan(ProgramModel model, PlanOptions options, CallRates rates) {
        if (rates.size() != model.getMethods().size()) {
            throw new IllegalArgumentException(
                    "need one call rate per method: "
                            + model.getMethods().size()
                            + ", got "
                            + rates.size());
        }
        MethodCosts costs = unitCosts(model, options).timesCallRates(rates.rates());
        return plan(ModelCallGraph.of(model), costs, options);
    }

    private static MethodCosts unitCosts(ProgramModel model, PlanOptions options) {
        return MethodCosts.METHODS.equals(options.costUnit())
                ? MethodCosts.unit(model.getMethods().size())
                : MethodCosts.branchProbes(model);
    }

    /** Plans over a call graph with given method costs (the unit of the h-bound). */
    public static PlanResult plan(ModelCallGraph graph, MethodCosts costs, PlanOptions options) {
        long start = System.nanoTime();
        if (costs.size() != graph.methodCount()) {
            throw new IllegalArgumentException(
                    "need one cost per method: " + graph.methodCount() + ", got " + costs.size());
        }
        SplittableRandom random = new SplittableRandom(options.seed());
        long salt = random.nextLong();
        ProbeSets events = CallChainEvents.of(graph, options.maxChainLength(), options.maxEvents());
        ProbeSets clusters = RootClusters.of(graph, options.maxClusterMethods());
        ProbeSets target =
                switch (options.strategy().target()) {
                    case PROBES -> ProbeSets.singletons(graph.methodCount());
                    case EVENTS -> events;
                    case CLUSTERS -> clusters;
                };
        Placement placement = distribute(target, costs, options, random);
        return new PlanResult(
                options,
                salt,
                costs,
                events,
                clusters,
                placement,
                SetCoverage.of(events, costs, placement.methods()),
                SetCoverage.of(clusters, costs, placement.methods()),
                (System.nanoTime() - start) / 1e9);
    }

    /**
     * Distributes the given sets with the options' strategy (its target kind is not looked at: the
     * sets are the target). For probe strategies pass {@link ProbeSets#singletons}.
     */
    public static Placement distribute(ProbeSets sets, MethodCosts costs, PlanOptions options) {
        return distribute(sets, costs, options, new SplittableRandom(options.seed()));
    }

    private static Placement distribute(
            ProbeSets sets, MethodCosts costs, PlanOptions options, SplittableRandom random) {
        Distribution distribution =
                new Distribution(sets, costs, options.variants(), options.hBound());
        HillClimb.Outcome outcome = null;
        switch (options.strategy().algorithm()) {
            case RANDOM -> RandomFill.fill(distribution, random);
            case BALANCED_PROBES -> BalancedProbes.fill(distribution, random);
            case HILL_CLIMB -> {
                RandomFill.fill(distribution, random);
                outcome =
                        new HillClimb(
                                        options.effectiveWeights(),
                                        options.maxBadMoves(),
                                        options.maxMoves())
                                .climb(distribution, random);
            }
        }
        long[] used = new long[options.variants()];
        for (int v = 0; v < used.length; v++) {
            used[v] = distribution.used(v);
        }
        return new Placement(
                sets,
                distribution.placements(),
                distribution.methods(),
                used,
                distribution.terms(),
                outcome == null ? 0 : outcome.moves(),
                outcome == null ? 0 : outcome.accepted(),
                outcome == null ? "no climb" : outcome.stoppedBecause());
    }
}
