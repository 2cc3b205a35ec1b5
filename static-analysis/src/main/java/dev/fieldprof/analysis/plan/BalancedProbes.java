package dev.fieldprof.analysis.plan;

import java.util.SplittableRandom;

/**
 * Balanced-Probes: Algorithm 1 of the probe-distribution paper (Section 4.3). Variant after
 * variant, probes go to random locations among those with the fewest probes so far across variants;
 * when every such location got one, the next count level becomes available. With unit costs this is
 * the paper's algorithm exactly (the counts per location differ by at most one). With weighed
 * methods a location that no longer fits the variant's remaining budget is skipped and the next one
 * is tried, so a variant is filled as far as its h-bound allows. O(n·|V|·log|V|).
 */
final class BalancedProbes {

    private BalancedProbes() {}

    /**
     * @param distribution over {@link ProbeSets#singletons} (set i = method i)
     */
    static void fill(Distribution distribution, SplittableRandom random) {
        int methods = distribution.sets().size();
        int[] order = new int[methods];
        for (int v = 0; v < distribution.variants(); v++) {
            for (int i = 0; i < methods; i++) {
                order[i] = i;
            }
            RandomFill.shuffle(order, random);
            // Counting sort by probes so far keeps the random order within each count level.
            int maxCount = distribution.variants();
            int[] start = new int[maxCount + 2];
            for (int m : order) {
                start[distribution.timesUsed(m) + 1]++;
            }
            for (int c = 1; c < start.length; c++) {
                start[c] += start[c - 1];
            }
            int[] byCount = new int[methods];
            for (int m : order) {
                byCount[start[distribution.timesUsed(m)]++] = m;
            }
            for (int m : byCount) {
                if (distribution.remaining(v) == 0) {
                    break;
                }
                if (distribution.fits(v, m)) {
                    distribution.add(v, m);
                }
            }
        }
    }
}
