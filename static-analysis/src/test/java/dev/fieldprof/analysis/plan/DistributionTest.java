package dev.fieldprof.analysis.plan;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The incrementally kept cost terms equal the ones recomputed from their definitions. */
class DistributionTest {

    static ProbeSets randomSets(SplittableRandom random, int methods, int count, int maxSize) {
        List<int[]> sets = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            int[] members = new int[1 + random.nextInt(maxSize)];
            for (int j = 0; j < members.length; j++) {
                members[j] = random.nextInt(methods);
            }
            sets.add(members);
        }
        return ProbeSets.of(methods, sets);
    }

    static MethodCosts randomCosts(SplittableRandom random, int methods) {
        long[] costs = new long[methods];
        for (int m = 0; m < methods; m++) {
            costs[m] = 1 + random.nextInt(5);
        }
        return MethodCosts.of(costs, MethodCosts.BRANCH_PROBES);
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10})
    void incrementalTermsEqualTermsRecomputedFromScratchAfterEveryMove(long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        int methods = 5 + random.nextInt(30);
        ProbeSets sets = randomSets(random, methods, 1 + random.nextInt(40), 6);
        MethodCosts costs = randomCosts(random, methods);
        Distribution distribution =
                new Distribution(sets, costs, 1 + random.nextInt(6), 5 + random.nextInt(40));
        for (int move = 0; move < 2_000; move++) {
            int variant = random.nextInt(distribution.variants());
            int set = random.nextInt(sets.size());
            if (distribution.holds(variant, set)) {
                distribution.remove(variant, set);
            } else if (distribution.fits(variant, set)) {
                distribution.add(variant, set);
            }
            assertThat(distribution.terms())
                    .as("seed %d, move %d", seed, move)
                    .isEqualTo(DistributionCost.of(sets, costs, distribution.placements()));
        }
    }

    /**
     * Past 65,536 methods and 65,536 sets the distribution keeps member ids and per-method counts
     * in four bytes instead of two; the terms, placements and traced methods must come out the same
     * as recomputed from their definitions.
     */
    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {21, 22})
    void wideIdsAndCountsKeepTermsEqualToTermsRecomputedFromScratch(long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        int methods = 70_000;
        // Many sets over a few hot methods (so that counts pass 1 and 2) and ids above 65,535.
        List<int[]> members = new ArrayList<>();
        for (int i = 0; i < 66_000; i++) {
            members.add(
                    new int[] {
                        random.nextInt(20), 65_530 + random.nextInt(20), random.nextInt(methods)
                    });
        }
        ProbeSets sets = ProbeSets.of(methods, members);
        MethodCosts costs = randomCosts(random, methods);
        Distribution distribution = new Distribution(sets, costs, 3, 60);
        for (int move = 0; move < 300; move++) {
            int variant = random.nextInt(distribution.variants());
            int set = random.nextInt(sets.size());
            if (distribution.holds(variant, set)) {
                distribution.remove(variant, set);
            } else if (distribution.fits(variant, set)) {
                distribution.add(variant, set);
            }
        }
        new HillClimb(CostWeights.BALANCED_PACKED, 200, 2_000).climb(distribution, random);
        int[][] placements = distribution.placements();
        assertThat(distribution.terms()).isEqualTo(DistributionCost.of(sets, costs, placements));
        for (int v = 0; v < placements.length; v++) {
            java.util.TreeSet<Integer> traced = new java.util.TreeSet<>();
            for (int set : placements[v]) {
                for (int m : sets.members(set)) {
                    traced.add(m);
                }
            }
            assertThat(distribution.methods()[v])
                    .containsExactly(traced.stream().mapToInt(Integer::intValue).toArray());
            assertThat(placements[v]).isNotEmpty();
        }
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {11, 12, 13, 14, 15})
    void hillClimbLeavesTermsEqualToTermsRecomputedFromScratch(long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        int methods = 40;
        ProbeSets sets = randomSets(random, methods, 60, 5);
        MethodCosts costs = randomCosts(random, methods);
        for (CostWeights weights :
                List.of(
                        CostWeights.BALANCED,
                        CostWeights.PACKED,
                        CostWeights.BALANCED_PACKED,
                        new CostWeights(1, 1, 0))) {
            Distribution distribution = new Distribution(sets, costs, 4, 25);
            RandomFill.fill(distribution, random);
            new HillClimb(weights, 2_000, 50_000).climb(distribution, random);
            assertThat(distribution.terms())
                    .as("seed %d, weights %s", seed, weights)
                    .isEqualTo(DistributionCost.of(sets, costs, distribution.placements()));
            for (int v = 0; v < 4; v++) {
                assertThat(distribution.used(v)).isLessThanOrEqualTo(25);
            }
        }
    }

    /**
     * A hill-climb move's adds ({@code addInMove}), kept or undone, leave the distribution as
     * {@code add} and {@code remove} would: the same terms, placements, methods, fits and cost,
     * with narrow costs and with costs past 65,535 (the other path of {@code fits}).
     */
    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {31, 32, 33, 34, 35, 36})
    void movesKeptOrUndoneLeaveWhatAddAndRemoveWould(long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        int methods = 5 + random.nextInt(40);
        ProbeSets sets = randomSets(random, methods, 1 + random.nextInt(60), 6);
        long[] raw = new long[methods];
        long scale = seed % 2 == 0 ? 1 : 100_000;
        for (int m = 0; m < methods; m++) {
            raw[m] = scale * (1 + random.nextInt(5));
        }
        MethodCosts costs = MethodCosts.of(raw, MethodCosts.BRANCH_PROBES);
        int variants = 1 + random.nextInt(5);
        long hBound = scale * (5 + random.nextInt(40));
        Distribution moved = new Distribution(sets, costs, variants, hBound);
        Distribution reference = new Distribution(sets, costs, variants, hBound);
        CostWeights weights = seed % 3 == 0 ? CostWeights.BALANCED : CostWeights.BALANCED_PACKED;
        for (int move = 0; move < 1_500; move++) {
            int variant = random.nextInt(variants);
            java.util.List<Integer> added = new ArrayList<>();
            for (int draw = 0; draw < 6; draw++) {
                int set = random.nextInt(sets.size());
                assertThat(moved.fits(variant, set)).isEqualTo(reference.fits(variant, set));
                if (moved.fits(variant, set)) {
                    moved.addInMove(variant, set);
                    reference.add(variant, set);
                    added.add(set);
                }
                assertThat(moved.cost(weights)).isEqualTo(reference.terms().cost(weights));
            }
            if (random.nextBoolean()) {
                moved.keepMove(variant);
            } else {
                moved.undoMove(variant);
                for (int i = added.size() - 1; i >= 0; i--) {
                    reference.removeLast(variant, added.get(i));
                }
            }
            if (moved.placedCount(variant) > 0 && random.nextInt(3) == 0) {
                int index = random.nextInt(moved.placedCount(variant));
                moved.removeAt(variant, index);
                reference.removeAt(variant, index);
            }
            assertThat(moved.terms())
                    .as("seed %d, move %d", seed, move)
                    .isEqualTo(reference.terms());
            assertThat(moved.terms())
                    .isEqualTo(DistributionCost.of(sets, costs, moved.placements()));
            assertThat(moved.placements()).isEqualTo(reference.placements());
            assertThat(moved.methods()).isEqualTo(reference.methods());
            for (int set = 0; set < sets.size(); set++) {
                assertThat(moved.fits(variant, set))
                        .isEqualTo(
                                !moved.holds(variant, set)
                                        && moved.addedCost(variant, set)
                                                <= moved.remaining(variant));
            }
        }
    }
}
