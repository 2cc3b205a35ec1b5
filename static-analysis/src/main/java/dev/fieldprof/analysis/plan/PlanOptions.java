package dev.fieldprof.analysis.plan;

/**
 * What {@link ProbePlanner} is asked for.
 *
 * @param strategy the distribution strategy
 * @param variants n, the number of variants ({@code >= 1})
 * @param hBound most cost units per variant ({@code >= 0}), in the unit of {@code costUnit}
 * @param weights α, β, γ of the hill climb's cost; null for the strategy's {@link
 *     Strategy#defaultWeights}
 * @param seed seed of every random choice; the same inputs and seed give the same plan
 * @param costUnit {@link MethodCosts#METHODS} (the unit cost per probe of probe distribution,
 *     docs/references.md) or {@link MethodCosts#BRANCH_PROBES} (1 + the method's branch blocks)
 * @param maxChainLength most methods in one call chain (event), {@code >= 1}
 * @param maxEvents most call chains (events), {@code >= 0}
 * @param maxClusterMethods most methods in one cluster, {@code >= 1}
 * @param maxBadMoves consecutive rejected moves after which the hill climb is frozen ({@code >= 1};
 *     Table 1 of probe distribution: 500,000)
 * @param maxMoves most hill-climb moves in all ({@code >= 0}), a time limit independent of the
 *     machine
 */
public record PlanOptions(
        Strategy strategy,
        int variants,
        long hBound,
        CostWeights weights,
        long seed,
        String costUnit,
        int maxChainLength,
        int maxEvents,
        int maxClusterMethods,
        long maxBadMoves,
        long maxMoves) {

    public static final int DEFAULT_MAX_CHAIN_LENGTH = 8;
    public static final int DEFAULT_MAX_EVENTS = 10_000;
    public static final int DEFAULT_MAX_CLUSTER_METHODS = 64;

    public PlanOptions {
        if (strategy == null) {
            throw new IllegalArgumentException("strategy must be given");
        }
        if (variants < 1) {
            throw new IllegalArgumentException("variants must be >= 1, was " + variants);
        }
        if (hBound < 0) {
            throw new IllegalArgumentException("h-bound must be >= 0, was " + hBound);
        }
        if (!MethodCosts.METHODS.equals(costUnit) && !MethodCosts.BRANCH_PROBES.equals(costUnit)) {
            throw new IllegalArgumentException(
                    "cost unit must be "
                            + MethodCosts.METHODS
                            + " or "
                            + MethodCosts.BRANCH_PROBES
                            + ", was '"
                            + costUnit
                            + "'");
        }
        if (maxChainLength < 1 || maxEvents < 0 || maxClusterMethods < 1) {
            throw new IllegalArgumentException(
                    "max chain length and max cluster methods must be >= 1, max events >= 0");
        }
        if (maxBadMoves < 1 || maxMoves < 0) {
            throw new IllegalArgumentException("max bad moves must be >= 1, max moves >= 0");
        }
    }

    /** Branch-probe costs, the published bounds on the climb, and this package's event bounds. */
    public static PlanOptions of(Strategy strategy, int variants, long hBound, long seed) {
        return new PlanOptions(
                strategy,
                variants,
                hBound,
                null,
                seed,
                MethodCosts.BRANCH_PROBES,
                DEFAULT_MAX_CHAIN_LENGTH,
                DEFAULT_MAX_EVENTS,
                DEFAULT_MAX_CLUSTER_METHODS,
                HillClimb.PAPER_FROZEN,
                Long.MAX_VALUE);
    }

    public PlanOptions withWeights(CostWeights newWeights) {
        return new PlanOptions(
                strategy,
                variants,
                hBound,
                newWeights,
                seed,
                costUnit,
                maxChainLength,
                maxEvents,
                maxClusterMethods,
                maxBadMoves,
                maxMoves);
    }

    public PlanOptions withCostUnit(String newCostUnit) {
        return new PlanOptions(
                strategy,
                variants,
                hBound,
                weights,
                seed,
                newCostUnit,
                maxChainLength,
                maxEvents,
                maxClusterMethods,
                maxBadMoves,
                maxMoves);
    }

    public PlanOptions withEventBounds(
            int newMaxChainLength, int newMaxEvents, int newMaxClusterMethods) {
        return new PlanOptions(
                strategy,
                variants,
                hBound,
                weights,
                seed,
                costUnit,
                newMaxChainLength,
                newMaxEvents,
                newMaxClusterMethods,
                maxBadMoves,
                maxMoves);
    }

    public PlanOptions withClimbBounds(long newMaxBadMoves, long newMaxMoves) {
        return new PlanOptions(
                strategy,
                variants,
                hBound,
                weights,
                seed,
                costUnit,
                maxChainLength,
                maxEvents,
                maxClusterMethods,
                newMaxBadMoves,
                newMaxMoves);
    }

    /** The weights given, else the strategy's. */
    public CostWeights effectiveWeights() {
        return weights == null ? strategy.defaultWeights() : weights;
    }
}
