package dev.fieldprof.benchmarks.plan;

import dev.fieldprof.analysis.plan.MethodCosts;
import dev.fieldprof.analysis.plan.ModelCallGraph;
import dev.fieldprof.analysis.plan.Placement;
import dev.fieldprof.analysis.plan.PlanOptions;
import dev.fieldprof.analysis.plan.PlanResult;
import dev.fieldprof.analysis.plan.ProbePlanner;
import dev.fieldprof.analysis.plan.Strategy;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * The probe planner's time at 1k, 10k and 50k events (call chains) on one thread, for the
 * hill-climbing strategies over events and clusters and for balanced-probes, with the published
 * FROZEN = 500,000 consecutive bad moves (probe distribution, docs/references.md). The program is a
 * synthetic, seeded call graph sized so that the chain enumeration reaches the event count (a
 * method per 5 events, each calling 1-4 later methods, costs of 1-8 branch probes); 36 variants as
 * in the published study, h-bound = 1/8 of all methods' cost. Arguments: event counts (default 1000
 * 10000 50000), then optionally {@code --strategies a,b} (CLI names) and {@code --max-moves N}
 * (stop every climb after N moves: the same seed makes the same first N moves, so builds compare on
 * a prefix of the full run), {@code --seed S} (the planner's seed, default 1; the graph's seed is
 * the event count) and {@code --sha} (a last column with the SHA-256 of the whole plan: every
 * variant's sets, methods and used cost, the cost terms' bits, moves and accepted moves, so two
 * builds can be shown to make the same plan). Each row ends with the plan's share of its targets
 * covered and its cost, α·BALANCE + β·PACKING + γ·ALLUSED with the strategy's weights (what the
 * climb lowers), so that a climb cut short can be compared with the whole one.
 */
public final class PlannerSpeed {

    private PlannerSpeed() {}

    private static final Strategy[] ALL = {
        Strategy.BALANCED_PROBES,
        Strategy.BALANCED_EVENTS,
        Strategy.BALANCED_PACKED_EVENTS,
        Strategy.BALANCED_CLUSTERS,
        Strategy.BALANCED_PACKED_CLUSTERS
    };

    public static void main(String[] args) {
        measure(System.out, args);
    }

    /**
     * Parses the arguments of {@link #main}, runs, prints the table to {@code out} and returns each
     * row's thread CPU seconds ({@link PlannerSpeedCompare} calls this in each build's class
     * loader).
     */
    static double[] measure(PrintStream out, String[] args) {
        java.util.List<Integer> sizes = new java.util.ArrayList<>();
        Strategy[] strategies = ALL;
        long maxMoves = Long.MAX_VALUE;
        long seed = 1L;
        boolean sha = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--strategies" ->
                        strategies =
                                java.util.Arrays.stream(args[++i].split(","))
                                        .map(Strategy::parse)
                                        .toArray(Strategy[]::new);
                case "--max-moves" -> maxMoves = Long.parseLong(args[++i]);
                case "--seed" -> seed = Long.parseLong(args[++i]);
                case "--sha" -> sha = true;
                default -> sizes.add(Integer.parseInt(args[i]));
            }
        }
        int[] events =
                sizes.isEmpty()
                        ? new int[] {1_000, 10_000, 50_000}
                        : sizes.stream().mapToInt(Integer::intValue).toArray();
        return run(out, events, strategies, maxMoves, seed, sha);
    }

    static void run(PrintStream out, int[] sizes) {
        run(out, sizes, ALL, Long.MAX_VALUE, 1L, false);
    }

    /**
     * Runs the strategies at each size and returns each row's thread CPU seconds, in the order
     * printed.
     */
    static double[] run(
            PrintStream out,
            int[] sizes,
            Strategy[] strategies,
            long maxMoves,
            long seed,
            boolean sha) {
        double[] cpus = new double[sizes.length * strategies.length];
        int row = 0;
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        out.printf(
                Locale.ROOT,
                "%-26s %7s %7s %8s %10s %9s %8s %10s %8s %12s%s%n",
                "strategy",
                "events",
                "methods",
                "h-bound",
                "moves",
                "accepted",
                "stopped",
                "CPU s",
                "covered",
                "cost",
                sha ? " sha-256" : "");
        for (int events : sizes) {
            int methods = Math.max(50, events / 5);
            SplittableRandom random = new SplittableRandom(events);
            int[][] callees = new int[methods][];
            long[] costs = new long[methods];
            long total = 0;
            for (int m = 0; m < methods; m++) {
                int later = methods - m - 1;
                int out1 = later == 0 ? 0 : Math.min(later, 1 + random.nextInt(4));
                callees[m] = new int[out1];
                for (int i = 0; i < out1; i++) {
                    callees[m][i] = m + 1 + random.nextInt(Math.min(later, 40));
                }
                costs[m] = 1 + random.nextInt(8);
                total += costs[m];
            }
            // Roots: the first 2% of methods have outside callers.
            boolean[] unknownCallers = new boolean[methods];
            for (int m = 0; m < methods / 50; m++) {
                unknownCallers[m] = true;
            }
            ModelCallGraph graph = new ModelCallGraph(callees, unknownCallers);
            MethodCosts methodCosts = MethodCosts.of(costs, MethodCosts.BRANCH_PROBES);
            for (Strategy strategy : strategies) {
                PlanOptions defaults =
                        PlanOptions.of(strategy, 36, total / 8, seed)
                                .withEventBounds(8, events, 64);
                PlanOptions options = defaults.withClimbBounds(defaults.maxBadMoves(), maxMoves);
                long start = threads.getCurrentThreadCpuTime();
                PlanResult result = ProbePlanner.plan(graph, methodCosts, options);
                double cpu = (threads.getCurrentThreadCpuTime() - start) / 1e9;
                cpus[row++] = cpu;
                out.printf(
                        Locale.ROOT,
                        "%-26s %7d %7d %8d %10d %9d %8s %10.2f %7.1f%% %12.6f%s%n",
                        strategy.cliName(),
                        result.events().size(),
                        methods,
                        options.hBound(),
                        result.placement().moves(),
                        result.placement().acceptedMoves(),
                        result.placement().stoppedBecause().replace(' ', '-'),
                        cpu,
                        100.0
                                * (strategy.target() == Strategy.Target.CLUSTERS
                                        ? result.clusterCoverage().coveredAnywhere()
                                                / (double) result.clusters().size()
                                        : result.eventCoverage().coveredAnywhere()
                                                / (double) result.events().size()),
                        result.placement().terms().cost(options.effectiveWeights()),
                        sha ? " " + digest(result.placement()) : "");
            }
        }
        return cpus;
    }

    /** SHA-256 of everything a plan decides, in a fixed order. */
    static String digest(Placement placement) {
        java.security.MessageDigest sha;
        try {
            sha = java.security.MessageDigest.getInstance("SHA-256");
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        java.nio.ByteBuffer buffer = java.nio.ByteBuffer.allocate(8);
        java.util.function.LongConsumer put =
                value -> {
                    buffer.clear();
                    buffer.putLong(value);
                    sha.update(buffer.array());
                };
        for (int v = 0; v < placement.placements().length; v++) {
            put.accept(placement.placements()[v].length);
            for (int set : placement.placements()[v]) {
                put.accept(set);
            }
            put.accept(placement.methods()[v].length);
            for (int method : placement.methods()[v]) {
                put.accept(method);
            }
            put.accept(placement.used()[v]);
        }
        put.accept(Double.doubleToRawLongBits(placement.terms().balance()));
        put.accept(Double.doubleToRawLongBits(placement.terms().packing()));
        put.accept(placement.terms().allUsed());
        put.accept(placement.moves());
        put.accept(placement.acceptedMoves());
        return java.util.HexFormat.of().formatHex(sha.digest());
    }
}
