package dev.fieldprof.cli.analysis;

import dev.fieldprof.analysis.model.ProgramModels;
import dev.fieldprof.analysis.plan.CostTerms;
import dev.fieldprof.analysis.plan.CostWeights;
import dev.fieldprof.analysis.plan.MethodCosts;
import dev.fieldprof.analysis.plan.PlanOptions;
import dev.fieldprof.analysis.plan.PlanResult;
import dev.fieldprof.analysis.plan.ProbePlanner;
import dev.fieldprof.analysis.plan.Strategy;
import dev.fieldprof.cli.CliFailure;
import dev.fieldprof.schemas.ProgramModel;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code fieldprof plan}: spreads path tracing over program variants with {@link ProbePlanner} (the
 * probe-distribution paper's strategies) and writes the model again with its {@code probePlan}. The
 * help lists every strategy in one sentence, generated from {@link Strategy}.
 */
@Command(
        name = "plan",
        mixinStandardHelpOptions = true,
        modelTransformer = PlanCommand.StrategyHelp.class,
        description =
                "Plan which methods each of N program variants path-traces, at most H cost units"
                        + " per variant, and write the model with the plan. A device traces the"
                        + " methods of its variant (a salted hash of its id) and still counts"
                        + " every method's entries.")
public final class PlanCommand implements Callable<Integer> {

    @Option(names = "--model", required = true, paramLabel = "MODEL", description = "Model file.")
    Path model;

    @Option(
            names = "--variants",
            required = true,
            paramLabel = "N",
            description = "Number of variants n >= 1.")
    int variants;

    @Option(
            names = "--h-bound",
            required = true,
            paramLabel = "H",
            description =
                    "Most cost units per variant (h_bound), in the unit of --cost-unit: by default"
                            + " branch probes, 1 + the method's branch blocks per traced method.")
    long hBound;

    @Option(
            names = "--strategy",
            required = true,
            paramLabel = "S",
            description = "Distribution strategy (see the list below).")
    String strategy;

    @Option(
            names = "--weights",
            paramLabel = "A,B,G",
            description =
                    "alpha,beta,gamma in [0,1] of alpha*BALANCE + beta*PACKING + gamma*ALLUSED"
                            + " (default: the strategy's, from the paper's Table 1).")
    String weights;

    @Option(
            names = "--seed",
            paramLabel = "S",
            description =
                    "Seed of every random choice; the same model, options and seed give the same"
                            + " plan and salt (default: a fresh one, printed).")
    Long seed;

    @Option(
            names = "--cost-unit",
            defaultValue = MethodCosts.BRANCH_PROBES,
            paramLabel = "branch-probes|methods",
            description =
                    "What a traced method costs: branch-probes (1 + its branch blocks) or methods"
                            + " (1 each, the paper's unit) (default: ${DEFAULT-VALUE}).")
    String costUnit;

    @Option(
            names = "--max-chain-length",
            defaultValue = "" + PlanOptions.DEFAULT_MAX_CHAIN_LENGTH,
            description = "Most methods in one call chain (event) (default: ${DEFAULT-VALUE}).")
    int maxChainLength;

    @Option(
            names = "--max-events",
            defaultValue = "" + PlanOptions.DEFAULT_MAX_EVENTS,
            description = "Most call chains (events) (default: ${DEFAULT-VALUE}).")
    int maxEvents;

    @Option(
            names = "--max-cluster-methods",
            defaultValue = "" + PlanOptions.DEFAULT_MAX_CLUSTER_METHODS,
            description = "Most methods in one cluster (default: ${DEFAULT-VALUE}).")
    int maxClusterMethods;

    @Option(
            names = "--max-bad-moves",
            defaultValue = "500000",
            description =
                    "Consecutive rejected hill-climb moves after which it stops (the paper's"
                            + " FROZEN) (default: ${DEFAULT-VALUE}).")
    long maxBadMoves;

    @Option(names = "--out", required = true, paramLabel = "MODEL2", description = "Output model.")
    Path out;

    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        Strategy chosen;
        try {
            chosen = Strategy.parse(strategy);
        } catch (IllegalArgumentException e) {
            throw bad("--strategy: " + e.getMessage());
        }
        CostWeights chosenWeights = null;
        if (weights != null) {
            try {
                chosenWeights = CostWeights.parse(weights);
            } catch (IllegalArgumentException e) {
                throw bad("--weights: " + e.getMessage());
            }
        }
        if (variants < 1) {
            throw bad("--variants must be >= 1, was " + variants);
        }
        if (hBound < 0) {
            throw bad("--h-bound must be >= 0, was " + hBound);
        }
        if (!MethodCosts.BRANCH_PROBES.equals(costUnit) && !MethodCosts.METHODS.equals(costUnit)) {
            throw bad("--cost-unit must be branch-probes or methods, was '" + costUnit + "'");
        }
        if (maxChainLength < 1 || maxEvents < 0 || maxClusterMethods < 1 || maxBadMoves < 1) {
            throw bad(
                    "--max-chain-length, --max-cluster-methods and --max-bad-moves must be >= 1,"
                            + " --max-events >= 0");
        }
        long chosenSeed = seed != null ? seed : new SecureRandom().nextLong();
        PlanOptions options =
                PlanOptions.of(chosen, variants, hBound, chosenSeed)
                        .withWeights(chosenWeights)
                        .withCostUnit(costUnit)
                        .withEventBounds(maxChainLength, maxEvents, maxClusterMethods)
                        .withClimbBounds(maxBadMoves, Long.MAX_VALUE);
        ProgramModel input;
        try {
            input = ProgramModels.read(model);
        } catch (IllegalArgumentException e) {
            throw new CliFailure(e.getMessage());
        }
        PlanResult result = ProbePlanner.plan(input, options);
        try {
            ProgramModels.write(result.applyTo(input), out);
        } catch (UncheckedIOException e) {
            throw new CliFailure(e.getMessage());
        }
        PrintWriter writer = spec.commandLine().getOut();
        for (String line : summary(result)) {
            writer.println(line);
        }
        writer.println("model with plan written to " + out);
        writer.flush();
        return 0;
    }

    /** The lines {@code fieldprof plan} prints about a plan. */
    static List<String> summary(PlanResult result) {
        PlanOptions options = result.options();
        String unit = result.costs().unit();
        List<String> lines = new ArrayList<>();
        lines.add(
                String.format(
                        Locale.ROOT,
                        "%s: %d variants, h-bound %d %s, weights %s, seed %d, salt %d",
                        options.strategy().cliName(),
                        options.variants(),
                        options.hBound(),
                        unit,
                        options.effectiveWeights(),
                        options.seed(),
                        result.salt()));
        long totalCost = 0;
        for (int m = 0; m < result.costs().size(); m++) {
            totalCost += result.costs().cost(m);
        }
        lines.add(
                String.format(
                        Locale.ROOT,
                        "model: %d methods costing %d %s in all, %d events (call chains of <= %d"
                                + " methods), %d clusters (<= %d methods)",
                        result.costs().size(),
                        totalCost,
                        unit,
                        result.events().size(),
                        options.maxChainLength(),
                        result.clusters().size(),
                        options.maxClusterMethods()));
        lines.add(
                String.format(
                        Locale.ROOT,
                        "%-8s %10s %8s %16s %18s",
                        "variant",
                        "cost",
                        "methods",
                        "events covered",
                        "clusters covered"));
        int[][] methods = result.placement().methods();
        for (int v = 0; v < methods.length; v++) {
            lines.add(
                    String.format(
                            Locale.ROOT,
                            "%-8d %10d %8d %16d %18d",
                            v,
                            result.placement().used()[v],
                            methods[v].length,
                            result.eventCoverage().perVariant()[v],
                            result.clusterCoverage().perVariant()[v]));
        }
        lines.add(
                String.format(
                        Locale.ROOT,
                        "events covered by some variant: %d of %d; ALLUSED over events (length of"
                                + " the uncovered ones): %d %s",
                        result.eventCoverage().coveredAnywhere(),
                        result.events().size(),
                        result.eventCoverage().uncoveredLength(),
                        unit));
        lines.add(
                String.format(
                        Locale.ROOT,
                        "clusters covered by some variant: %d of %d; ALLUSED over clusters: %d %s",
                        result.clusterCoverage().coveredAnywhere(),
                        result.clusters().size(),
                        result.clusterCoverage().uncoveredLength(),
                        unit));
        CostTerms terms = result.placement().terms();
        int placedSets = countPlaced(result.placement().placements(), result.placement().sets());
        lines.add(
                String.format(
                        Locale.ROOT,
                        "over the %d %s distributed: %d used (TimesUsed > 0); BALANCE %.3f,"
                                + " PACKING %.3f, ALLUSED %d; cost %.3f",
                        result.placement().sets().size(),
                        options.strategy().target().name().toLowerCase(Locale.ROOT),
                        placedSets,
                        terms.balance(),
                        terms.packing(),
                        terms.allUsed(),
                        terms.cost(options.effectiveWeights())));
        lines.add(
                String.format(
                        Locale.ROOT,
                        "%s: %d moves, %d kept; %.2f s",
                        result.placement().stoppedBecause(),
                        result.placement().moves(),
                        result.placement().acceptedMoves(),
                        result.seconds()));
        return lines;
    }

    private static int countPlaced(int[][] placements, dev.fieldprof.analysis.plan.ProbeSets sets) {
        boolean[] used = new boolean[sets.size()];
        int count = 0;
        for (int[] variant : placements) {
            for (int set : variant) {
                if (!used[set]) {
                    used[set] = true;
                    count++;
                }
            }
        }
        return count;
    }

    private CommandLine.ParameterException bad(String message) {
        return new CommandLine.ParameterException(spec.commandLine(), message);
    }

    /** Writes the strategy list of the help from {@link Strategy}, so it is never out of date. */
    public static final class StrategyHelp implements CommandLine.IModelTransformer {
        @Override
        public CommandLine.Model.CommandSpec transform(CommandLine.Model.CommandSpec spec) {
            List<String> footer = new ArrayList<>();
            footer.add("");
            footer.add(
                    "Strategies (probe-distribution paper, Section 4; probes = single methods,"
                            + " events = call chains from the roots, clusters = a root and the"
                            + " methods it reaches):");
            for (Strategy strategy : Strategy.values()) {
                footer.add(String.format("  %-25s %s", strategy.cliName(), strategy.description()));
            }
            footer.add("");
            footer.add(
                    "Roots are methods with no caller in the model or with callers the analysis"
                        + " cannot see. --h-bound counts cost units: branch probes by default.");
            spec.usageMessage().footer(footer.toArray(String[]::new));
            return spec;
        }
    }
}
