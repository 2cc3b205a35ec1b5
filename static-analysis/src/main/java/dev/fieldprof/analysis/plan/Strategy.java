package dev.fieldprof.analysis.plan;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The distribution strategies of Section 4.2 of probe distribution (docs/references.md): random,
 * balanced, packed and balanced-packed, each over probes (single methods), events (call chains) or
 * clusters (a root and what it reaches). Random ones fill variants at random; balanced-probes is
 * Algorithm 1; the rest hill-climb (Algorithm 2) with the weights of Table 1 of probe distribution,
 * which {@code --weights} may override.
 */
public enum Strategy {
    RANDOM_PROBES(
            Target.PROBES,
            Algorithm.RANDOM,
            CostWeights.BALANCED_PACKED,
            "random methods until the variant's h-bound is met; blind to events."),
    BALANCED_PROBES(
            Target.PROBES,
            Algorithm.BALANCED_PROBES,
            CostWeights.BALANCED_PACKED,
            "Algorithm 1: random methods among those in the fewest variants so far, so every"
                    + " method is traced about equally often."),
    PACKED_PROBES(
            Target.PROBES,
            Algorithm.HILL_CLIMB,
            CostWeights.PACKED,
            "hill climb over single methods with weights 0,0.5,0.5 (single probes never overlap,"
                    + " so this only strives to trace every method somewhere)."),
    BALANCED_PACKED_PROBES(
            Target.PROBES,
            Algorithm.HILL_CLIMB,
            CostWeights.BALANCED_PACKED,
            "hill climb over single methods with weights 0.4,0.2,0.4."),
    RANDOM_EVENTS(
            Target.EVENTS,
            Algorithm.RANDOM,
            CostWeights.BALANCED_PACKED,
            "whole call chains in random order while they fit."),
    BALANCED_EVENTS(
            Target.EVENTS,
            Algorithm.HILL_CLIMB,
            CostWeights.BALANCED,
            "hill climb over call chains with weights 0.5,0,0.5: every chain in about as many"
                    + " variants, longer chains weigh more."),
    PACKED_EVENTS(
            Target.EVENTS,
            Algorithm.HILL_CLIMB,
            CostWeights.PACKED,
            "hill climb over call chains with weights 0,0.5,0.5: chains that share methods go"
                    + " together so more fit."),
    BALANCED_PACKED_EVENTS(
            Target.EVENTS,
            Algorithm.HILL_CLIMB,
            CostWeights.BALANCED_PACKED,
            "hill climb over call chains with weights 0.4,0.2,0.4."),
    RANDOM_CLUSTERS(
            Target.CLUSTERS,
            Algorithm.RANDOM,
            CostWeights.BALANCED_PACKED,
            "whole clusters (a root and the methods it reaches) in random order while they fit."),
    BALANCED_CLUSTERS(
            Target.CLUSTERS,
            Algorithm.HILL_CLIMB,
            CostWeights.BALANCED,
            "hill climb over clusters with weights 0.5,0,0.5 (the paper's best at tight"
                    + " bounds)."),
    PACKED_CLUSTERS(
            Target.CLUSTERS,
            Algorithm.HILL_CLIMB,
            CostWeights.PACKED,
            "hill climb over clusters with weights 0,0.5,0.5."),
    BALANCED_PACKED_CLUSTERS(
            Target.CLUSTERS,
            Algorithm.HILL_CLIMB,
            CostWeights.BALANCED_PACKED,
            "hill climb over clusters with weights 0.4,0.2,0.4.");

    /** What the strategy places whole into a variant. */
    public enum Target {
        PROBES,
        EVENTS,
        CLUSTERS
    }

    /** How it builds the variants. */
    public enum Algorithm {
        RANDOM,
        BALANCED_PROBES,
        HILL_CLIMB
    }

    private final Target target;
    private final Algorithm algorithm;
    private final CostWeights defaultWeights;
    private final String description;

    Strategy(Target target, Algorithm algorithm, CostWeights defaultWeights, String description) {
        this.target = target;
        this.algorithm = algorithm;
        this.defaultWeights = defaultWeights;
        this.description = description;
    }

    public Target target() {
        return target;
    }

    public Algorithm algorithm() {
        return algorithm;
    }

    /**
     * The weights the hill climb minimizes (Table 1 of probe distribution); random strategies and
     * balanced-probes do not climb and report their cost with balanced-packed's 0.4,0.2,0.4.
     */
    public CostWeights defaultWeights() {
        return defaultWeights;
    }

    /** One sentence for the help. */
    public String description() {
        return description;
    }

    /** The name on the command line, e.g. {@code balanced-packed-clusters}. */
    public String cliName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** The strategy of a command-line name. */
    public static Strategy parse(String name) {
        for (Strategy strategy : values()) {
            if (strategy.cliName().equals(name.trim().toLowerCase(Locale.ROOT))) {
                return strategy;
            }
        }
        throw new IllegalArgumentException(
                "unknown strategy '"
                        + name
                        + "'; one of "
                        + Arrays.stream(values())
                                .map(Strategy::cliName)
                                .collect(Collectors.joining(", ")));
    }
}
