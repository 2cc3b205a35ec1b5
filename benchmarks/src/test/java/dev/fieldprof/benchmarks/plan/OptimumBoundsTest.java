package dev.fieldprof.benchmarks.plan;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The greedy lower bound and the upper bound of the a-posteriori optimum against the exact optimum
 * by brute force on the four sites of {@link VariantScoreTest} (unit costs).
 */
class OptimumBoundsTest {

    static final long[] UNIT = {1, 1, 1, 1, 1, 1};
    static final int[] DEAL = {0, 1, 2, 3};

    @Test
    void greedyMissesTheOptimumWhereTheCheapChainCrowdsOutTheLongOne() {
        FieldChains field = VariantScoreTest.field();
        // h = 3: the optimum gives variant 0 {0,1,2} and variant 1 {0,1,3}: all 4 chains. The
        // greedy gives variant 0 the cheaper (0,3) first, after which (0,1,2) no longer fits.
        assertThat(bruteForce(field, UNIT, 3, DEAL, 4)).isEqualTo(4);
        assertThat(OptimumBounds.greedy(field, UNIT, 3, DEAL, 4)).isEqualTo(3);
        assertThat(OptimumBounds.upperBound(field, UNIT, 3)).isEqualTo(4);
    }

    @Test
    void greedyReachesTheOptimumWithRoomToSpare() {
        FieldChains field = VariantScoreTest.field();
        assertThat(bruteForce(field, UNIT, 4, DEAL, 4)).isEqualTo(4);
        assertThat(OptimumBounds.greedy(field, UNIT, 4, DEAL, 4)).isEqualTo(4);
    }

    @Test
    void tightBoundsAndWeightedCosts() {
        FieldChains field = VariantScoreTest.field();
        // h = 2: only (0,3) fits anywhere.
        assertThat(bruteForce(field, UNIT, 2, DEAL, 4)).isEqualTo(1);
        assertThat(OptimumBounds.greedy(field, UNIT, 2, DEAL, 4)).isEqualTo(1);
        assertThat(OptimumBounds.upperBound(field, UNIT, 2)).isEqualTo(1);
        // Method 3 costs 5: (0,3) and (0,1,3) cost 6 and 7, the others 3. Sites 0 and 1 share
        // variant 0, which affords (0,1,2) or (0,3) but not both (8): the optimum is 2, while
        // the upper bound counts the 3 chains that fit on their own.
        long[] costs = {1, 1, 1, 5, 1, 1};
        int[] shared = {0, 0, 1, 1};
        assertThat(bruteForce(field, costs, 6, shared, 2)).isEqualTo(2);
        assertThat(OptimumBounds.greedy(field, costs, 6, shared, 2)).isEqualTo(2);
        assertThat(OptimumBounds.upperBound(field, costs, 6)).isEqualTo(3);
    }

    /** Exact: every probe set of cost <= h per variant, every combination over the variants. */
    static int bruteForce(FieldChains field, long[] costs, long h, int[] deal, int variants) {
        int[] chains = field.exercised();
        int methods = field.methodCount();
        // Per variant, the distinct sets of chains (bit masks) some affordable probe set covers.
        @SuppressWarnings("unchecked")
        Set<Integer>[] options = new Set[variants];
        for (int v = 0; v < variants; v++) {
            options[v] = new HashSet<>();
            for (int subset = 0; subset < 1 << methods; subset++) {
                long cost = 0;
                for (int m = 0; m < methods; m++) {
                    cost += (subset >> m & 1) == 1 ? costs[m] : 0;
                }
                if (cost > h) {
                    continue;
                }
                int covered = 0;
                for (int s = 0; s < deal.length; s++) {
                    if (deal[s] != v) {
                        continue;
                    }
                    for (int chain : field.chains(s)) {
                        boolean all = true;
                        for (int m : field.methods(chain)) {
                            all &= (subset >> m & 1) == 1;
                        }
                        if (all) {
                            covered |= 1 << java.util.Arrays.binarySearch(chains, chain);
                        }
                    }
                }
                options[v].add(covered);
            }
        }
        return best(options, 0, 0);
    }

    private static int best(Set<Integer>[] options, int v, int covered) {
        if (v == options.length) {
            return Integer.bitCount(covered);
        }
        int best = 0;
        for (int mask : options[v]) {
            best = Math.max(best, best(options, v + 1, covered | mask));
        }
        return best;
    }
}
