package dev.fieldprof.analysis.plan;

import java.util.SplittableRandom;

/**
 * Random-Probes, Random-Events and Random-Clusters (Section 4.2 of probe distribution
 * (docs/references.md)), and the initial distribution of the hill climb (Algorithm 2): each variant
 * in turn takes the sets in a fresh random order and places every one that still fits its h-bound,
 * until none is left. O(n·Σ|e|).
 */
final class RandomFill {

    private RandomFill() {}

    static void fill(Distribution distribution, SplittableRandom random) {
        int[] order = new int[distribution.sets().size()];
        for (int v = 0; v < distribution.variants(); v++) {
            for (int i = 0; i < order.length; i++) {
                order[i] = i;
            }
            shuffle(order, random);
            for (int set : order) {
                if (distribution.remaining(v) == 0) {
                    break;
                }
                if (distribution.fits(v, set)) {
                    distribution.add(v, set);
                }
            }
        }
    }

    /** Fisher-Yates, so the order depends on the seed alone. */
    static void shuffle(int[] values, SplittableRandom random) {
        for (int i = values.length - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int swap = values[i];
            values[i] = values[j];
            values[j] = swap;
        }
    }
}
