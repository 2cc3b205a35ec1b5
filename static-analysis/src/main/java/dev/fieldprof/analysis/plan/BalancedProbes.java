package dev.fieldprof.analysis.plan;

import java.util.Arrays;
import java.util.Comparator;
import java.util.SplittableRandom;

/**
 * Balanced-Probes: Algorithm 1 of probe distribution (docs/references.md, Section 4.3). Variant
 * after variant, probes go to random locations among those with the fewest probes so far across
 * variants; when every such location got one, the next count level becomes available. With unit
 * costs this is the published algorithm exactly (the counts per location differ by at most one).
 * With weighed methods a location that no longer fits the variant's remaining budget is skipped and
 * the next one is tried, so a variant is filled as far as its h-bound allows; and within one count
 * level the costlier locations come first (random among equal costs), as in first-fit-decreasing
 * packing. Taken in random order alone, a variant would mostly fill up with cheap methods before it
 * drew an expensive one, which then fit nowhere: with costs weighed by call rates, the hot methods
 * would be the ones no variant traces. With unit costs the order, and so the plan, is the published
 * one. O(n·|V|·log|V|).
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
            // A stable sort keeps the random order among methods of equal count and cost.
            Integer[] byCount = new Integer[methods];
            for (int i = 0; i < methods; i++) {
                byCount[i] = order[i];
            }
            Arrays.sort(
                    byCount,
                    Comparator.<Integer>comparingInt(distribution::timesUsed)
                            .thenComparing(
                                    Comparator.<Integer>comparingLong(
                                                    m -> distribution.costs().cost(m))
                                            .reversed()));
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
