package dev.fieldprof.benchmarks.diff;

import dev.fieldprof.diff.cct.CallingContextTree;
import dev.fieldprof.diff.match.EflaskMatcher;
import dev.fieldprof.diff.match.LabelEquivalence;
import dev.fieldprof.diff.match.NodeMatching;
import java.lang.management.ManagementFactory;
import java.util.Locale;
import java.util.Random;

/**
 * Matching time of {@link EflaskMatcher}: generated CCT pairs of 10k and 50k nodes per side, α =
 * 0..3, wall-clock and thread CPU time of one matching each (after one warm-up matching at α = 0),
 * with the candidate pairs Σ|Cα(v)| and the matching's size.
 *
 * <pre>
 * java -Xmx4g -cp "$CP" dev.fieldprof.benchmarks.diff.DiffMatchingBenchmark [--sizes 10000,50000]
 *     [--max-alpha 3] [--seed 1]
 * </pre>
 */
public final class DiffMatchingBenchmark {
    private DiffMatchingBenchmark() {}

    public static void main(String[] args) {
        int[] sizes = {10_000, 50_000};
        int maxAlpha = 3;
        long seed = 1;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--sizes" -> {
                    String[] parts = args[++i].split(",");
                    sizes = new int[parts.length];
                    for (int k = 0; k < parts.length; k++) {
                        sizes[k] = Integer.parseInt(parts[k].trim());
                    }
                }
                case "--max-alpha" -> maxAlpha = Integer.parseInt(args[++i]);
                case "--seed" -> seed = Long.parseLong(args[++i]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        var threads = ManagementFactory.getThreadMXBean();
        System.out.printf(
                Locale.ROOT,
                "== EFLASK matching time (seed %d), load average %.1f%n",
                seed,
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        System.out.printf(
                Locale.ROOT,
                "%8s %8s %3s %10s %10s %14s %10s%n",
                "nodes A",
                "nodes B",
                "α",
                "wall (s)",
                "cpu (s)",
                "Σ|Cα(v)|",
                "matched");
        for (int size : sizes) {
            Random random = new Random(seed);
            CallingContextTree a = GeneratedProfiles.tree(random, size);
            CallingContextTree b = GeneratedProfiles.evolve(random, a);
            System.out.println(
                    "   " + GeneratedProfiles.describe(a) + " / " + GeneratedProfiles.describe(b));
            new EflaskMatcher(0, LabelEquivalence.exactNames()).match(a, b); // warm-up
            for (int alpha = 0; alpha <= maxAlpha; alpha++) {
                EflaskMatcher matcher = new EflaskMatcher(alpha, LabelEquivalence.exactNames());
                long cpu = threads.getCurrentThreadCpuTime();
                long wall = System.nanoTime();
                NodeMatching matching = matcher.match(a, b);
                double wallSeconds = (System.nanoTime() - wall) / 1e9;
                double cpuSeconds = (threads.getCurrentThreadCpuTime() - cpu) / 1e9;
                System.out.printf(
                        Locale.ROOT,
                        "%8d %8d %3d %10.2f %10.2f %14d %10d%n",
                        a.size(),
                        b.size(),
                        alpha,
                        wallSeconds,
                        cpuSeconds,
                        matching.candidatePairs(),
                        matching.size());
            }
        }
    }
}
