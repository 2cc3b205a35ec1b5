package dev.fieldprof.benchmarks.plan;

import dev.fieldprof.analysis.plan.MethodCosts;
import dev.fieldprof.analysis.plan.ModelCallGraph;
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
 * a prefix of the full run).
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
        java.util.List<Integer> sizes = new java.util.ArrayList<>();
        Strategy[] strategies = ALL;
        long maxMoves = Long.MAX_VALUE;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--strategies" ->
                        strategies =
                                java.util.Arrays.stream(args[++i].split(","))
                                        .map(Strategy::parse)
                                        .toArray(Strategy[]::new);
                case "--max-moves" -> maxMoves = Long.parseLong(args[++i]);
                default -> sizes.add(Integer.parseInt(args[i]));
            }
        }
        int[] events =
                sizes.isEmpty()
                        ? new int[] {1_000, 10_000, 50_000}
                        : sizes.stream().mapToInt(Integer::intValue).toArray();
        run(System.out, events, strategies, maxMoves);
    }

    static void run(PrintStream out, int[] sizes) {
        run(out, sizes, ALL, Long.MAX_VALUE);
    }

    static void run(PrintStream out, int[] sizes, Strategy[] strategies, long maxMoves) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        out.printf(
                Locale.ROOT,
                "%-26s %7s %7s %8s %10s %9s %8s %10s %8s%n",
                "strategy",
                "events",
                "methods",
                "h-bound",
                "moves",
                "accepted",
                "stopped",
                "CPU s",
                "covered");
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
                        PlanOptions.of(strategy, 36, total / 8, 1L).withEventBounds(8, events, 64);
                PlanOptions options = defaults.withClimbBounds(defaults.maxBadMoves(), maxMoves);
                long start = threads.getCurrentThreadCpuTime();
                PlanResult result = ProbePlanner.plan(graph, methodCosts, options);
                double cpu = (threads.getCurrentThreadCpuTime() - start) / 1e9;
                out.printf(
                        Locale.ROOT,
                        "%-26s %7d %7d %8d %10d %9d %8s %10.2f %7.1f%%%n",
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
                                                / (double) result.events().size()));
            }
        }
    }
}
