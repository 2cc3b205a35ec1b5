package dev.fieldprof.cli.analysis;

import dev.fieldprof.analysis.plan.CallRates;
import dev.fieldprof.analysis.plan.CostTerms;
import dev.fieldprof.analysis.plan.CostWeights;
import dev.fieldprof.analysis.plan.MethodCosts;
import dev.fieldprof.analysis.plan.PlanOptions;
import dev.fieldprof.analysis.plan.PlanResult;
import dev.fieldprof.analysis.plan.ProbePlanner;
import dev.fieldprof.analysis.plan.Strategy;
import dev.fieldprof.bytecode.model.ProgramModels;
import dev.fieldprof.cli.diff.EstimateInputs;
import dev.fieldprof.cli.options.KafkaBootstrap;
import dev.fieldprof.cli.options.KafkaClientProperties;
import dev.fieldprof.cli.options.KafkaFailure;
import dev.fieldprof.cli.support.CliFailure;
import dev.fieldprof.schemas.EstimateWindow;
import dev.fieldprof.schemas.ProgramModel;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.Callable;
import org.apache.kafka.common.KafkaException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code fieldprof plan}: spreads path tracing over program variants with {@link ProbePlanner} (the
 * strategies of probe distribution, docs/references.md) and writes the model again with its {@code
 * probePlan}. The help lists every strategy in one sentence, generated from {@link Strategy}. With
 * {@code --call-rates} each method's cost is weighed by its call rate as the frequency job
 * estimated it ({@link EstimatedCallRates}), from a saved estimate file or the estimates topic.
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
                            + " branch probes, 1 + the method's branch blocks per traced method."
                            + " With --call-rates the unit is 'branch-probes x call rate' (or"
                            + " 'methods x call rate'): that cost times the method's estimated"
                            + " entries relative to the mean method, rounded up, at least 1.")
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
            names = "--call-rates",
            paramLabel = "SOURCE",
            description =
                    "Weigh each method's cost by its call rate from the frequency estimates: an"
                            + " estimate file (as 'fieldprof diff --estimates ... --save DIR'"
                            + " writes) or APP:VERSION, whose newest cumulative estimate is read"
                            + " from the estimates topic (needs --bootstrap). It must be of the"
                            + " model's app version and methods.")
    String callRates;

    @CommandLine.ArgGroup(exclusive = false, multiplicity = "0..1")
    KafkaBootstrap kafka;

    @CommandLine.Mixin KafkaClientProperties kafkaProperties;

    @Option(
            names = "--config",
            paramLabel = "ID",
            description =
                    "With --call-rates: the privacy configuration whose estimate to use (needed"
                            + " when the version has estimates of several).")
    String configId;

    @Option(
            names = "--call-rate-floor",
            paramLabel = "SHARE",
            description =
                    "With --call-rates: the least share of all entries a method is priced at."
                            + " Estimates are unbiased, so rarely run methods are often estimated"
                            + " at 0 or below; every share at or below the floor is raised to it"
                            + " (default: the estimate's standard error).")
    Double callRateFloor;

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

    @Option(
            names = "--max-moves",
            paramLabel = "N",
            description =
                    "Stop each hill climb after N moves in all, a bound on the planner's time that"
                            + " keeps plans reproducible: the same seed makes the same first N"
                            + " moves (default: no limit).")
    Long maxMoves;

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
        if (maxMoves != null && maxMoves < 1) {
            throw bad("--max-moves must be >= 1, was " + maxMoves);
        }
        if (callRates == null
                && (kafka != null
                        || kafkaProperties.file() != null
                        || configId != null
                        || callRateFloor != null)) {
            throw bad(
                    "--bootstrap, --kafka-properties, --config and --call-rate-floor need"
                            + " --call-rates");
        }
        if (callRateFloor != null && !(callRateFloor >= 0 && callRateFloor < 1)) {
            throw bad("--call-rate-floor must be a share in [0, 1), was " + callRateFloor);
        }
        if (callRates != null && !EstimateInputs.isFile(callRates)) {
            if (!callRates.contains(":")) {
                throw bad(
                        "--call-rates: '"
                                + callRates
                                + "' is neither an estimate file nor APP:VERSION");
            }
            if (kafka == null) {
                throw bad(
                        "--call-rates "
                                + callRates
                                + " reads the estimates topic and needs --bootstrap");
            }
        }
        long chosenSeed = seed != null ? seed : new SecureRandom().nextLong();
        PlanOptions options =
                PlanOptions.of(chosen, variants, hBound, chosenSeed)
                        .withWeights(chosenWeights)
                        .withCostUnit(costUnit)
                        .withEventBounds(maxChainLength, maxEvents, maxClusterMethods)
                        .withClimbBounds(maxBadMoves, maxMoves == null ? Long.MAX_VALUE : maxMoves);
        ProgramModel input;
        try {
            input = ProgramModels.read(model);
        } catch (IllegalArgumentException e) {
            throw new CliFailure(e.getMessage());
        }
        PlanResult result;
        String ratesLine = null;
        if (callRates == null) {
            result = ProbePlanner.plan(input, options);
        } else {
            EstimateWindow window = estimate();
            CallRates rates;
            try {
                rates = EstimatedCallRates.of(window, input, callRateFloor);
            } catch (IllegalArgumentException e) {
                throw new CliFailure("--call-rates: " + e.getMessage(), e);
            }
            ratesLine = EstimatedCallRates.describe(window, rates, callRateFloor != null);
            result = ProbePlanner.plan(input, options, rates);
        }
        try {
            ProgramModels.write(result.applyTo(input), out);
        } catch (UncheckedIOException e) {
            throw new CliFailure(e.getMessage());
        }
        PrintWriter writer = spec.commandLine().getOut();
        List<String> lines = summary(result);
        if (ratesLine != null) {
            lines.add(1, ratesLine);
        }
        lines.addAll(overBound(result, input));
        for (String line : lines) {
            writer.println(line);
        }
        writer.println("model with plan written to " + out);
        writer.flush();
        return 0;
    }

    /**
     * The estimate {@code --call-rates} names: a saved estimate file, or the newest cumulative
     * estimate of an app version on the estimates topic.
     */
    private EstimateWindow estimate() {
        if (EstimateInputs.isFile(callRates)) {
            EstimateWindow window = EstimateInputs.readFile(Path.of(callRates));
            if (configId != null && !configId.equals(window.getConfigId())) {
                throw new CliFailure(
                        "--call-rates: "
                                + callRates
                                + " is an estimate of config "
                                + window.getConfigId()
                                + ", not of --config "
                                + configId);
            }
            return window;
        }
        Properties client = kafkaProperties.connect(kafka.servers(), spec.commandLine());
        try {
            return EstimateInputs.newestCumulative(client, List.of(callRates), configId).get(0);
        } catch (IllegalStateException | KafkaException e) {
            throw KafkaFailure.of(
                    e, client, "cannot read from " + kafka.servers() + ": " + e.getMessage());
        }
    }

    /**
     * What the plan leaves out because a method alone costs more than the h-bound: no variant
     * traces it (the bound holds for every device); its entries are still counted.
     */
    static List<String> overBound(PlanResult result, ProgramModel model) {
        int[] methods = result.overBoundMethods();
        if (methods.length == 0) {
            return List.of();
        }
        long hBound = result.options().hBound();
        String unit = result.costs().unit();
        List<String> lines = new ArrayList<>();
        lines.add(
                String.format(
                        Locale.ROOT,
                        "%d methods cost more than the h-bound %d %s alone: no variant traces"
                                + " them (only their entries are counted); raise --h-bound to"
                                + " trace them:",
                        methods.length,
                        hBound,
                        unit));
        Integer[] byCost = java.util.Arrays.stream(methods).boxed().toArray(Integer[]::new);
        java.util.Arrays.sort(
                byCost, (a, b) -> Long.compare(result.costs().cost(b), result.costs().cost(a)));
        int shown = Math.min(byCost.length, 10);
        for (int i = 0; i < shown; i++) {
            int m = byCost[i];
            long cost = result.costs().cost(m);
            lines.add(
                    String.format(
                            Locale.ROOT,
                            "  %s costs %d (%d over the bound)",
                            model.getMethods().get(m).getSignature(),
                            cost,
                            cost - hBound));
        }
        if (byCost.length > shown) {
            lines.add(
                    String.format(
                            Locale.ROOT,
                            "  and %d more (the costliest shown)",
                            byCost.length - shown));
        }
        return lines;
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
                        + " cannot see. --h-bound counts cost units: branch probes by default,"
                        + " branch probes x call rate with --call-rates. A method that alone costs"
                        + " more than --h-bound is traced by no variant (the bound holds for every"
                        + " device); the summary lists such methods.");
            spec.usageMessage().footer(footer.toArray(String[]::new));
            return spec;
        }
    }
}
