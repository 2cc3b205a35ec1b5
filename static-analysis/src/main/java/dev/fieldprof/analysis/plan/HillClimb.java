package dev.fieldprof.analysis.plan;

import java.util.SplittableRandom;

/**
 * Algorithm 2 of the probe-distribution paper (Section 4.3): from a distribution, repeatedly pick a
 * random variant, remove a random number of its sets (1 to all of them, chosen at random), and add
 * random sets back while they fit its h-bound; keep the move if {@code α·BALANCE + β·PACKING +
 * γ·ALLUSED} fell, else undo it and count a bad move. Stops at cost 0, after {@code maxBadMoves}
 * consecutive bad moves ("frozen"), or after {@code maxMoves} moves in all.
 *
 * <p>Refilling draws sets uniformly from all |E| and gives up after {@code 16 + 4·removed}
 * consecutive draws that do not fit, so a move costs O(Σ sizes of the sets it touches + n) with the
 * incremental {@link Distribution}, never O(|E|).
 */
final class HillClimb {

    /** Table 1 of the paper: FROZEN = 500,000 consecutive bad moves. */
    static final long PAPER_FROZEN = 500_000;

    private final CostWeights weights;
    private final long maxBadMoves;
    private final long maxMoves;

    HillClimb(CostWeights weights, long maxBadMoves, long maxMoves) {
        if (maxBadMoves < 1 || maxMoves < 0) {
            throw new IllegalArgumentException("maxBadMoves must be >= 1 and maxMoves >= 0");
        }
        this.weights = weights;
        this.maxBadMoves = maxBadMoves;
        this.maxMoves = maxMoves;
    }

    /** How a climb ended. */
    record Outcome(long moves, long accepted, double cost, String stoppedBecause) {}

    Outcome climb(Distribution distribution, SplittableRandom random) {
        double cost = distribution.terms().cost(weights);
        int setCount = distribution.sets().size();
        long moves = 0;
        long accepted = 0;
        long bad = 0;
        int[] removed = new int[16];
        int[] added = new int[16];
        while (true) {
            if (cost <= 0) {
                return new Outcome(moves, accepted, cost, "cost 0");
            }
            if (bad >= maxBadMoves) {
                return new Outcome(moves, accepted, cost, "frozen");
            }
            if (moves >= maxMoves || setCount == 0) {
                return new Outcome(moves, accepted, cost, "move limit");
            }
            moves++;
            int variant = random.nextInt(distribution.variants());
            int held = distribution.placedCount(variant);
            int toRemove = held == 0 ? 0 : 1 + random.nextInt(held);
            if (removed.length < toRemove) {
                removed = new int[Math.max(toRemove, 2 * removed.length)];
            }
            for (int i = 0; i < toRemove; i++) {
                int set =
                        distribution.placedAt(
                                variant, random.nextInt(distribution.placedCount(variant)));
                distribution.remove(variant, set);
                removed[i] = set;
            }
            int addedCount = 0;
            int misses = 0;
            int patience = 16 + 4 * toRemove;
            while (distribution.remaining(variant) > 0 && misses < patience) {
                int set = random.nextInt(setCount);
                if (distribution.fits(variant, set)) {
                    distribution.add(variant, set);
                    if (addedCount == added.length) {
                        added = java.util.Arrays.copyOf(added, 2 * added.length);
                    }
                    added[addedCount++] = set;
                    misses = 0;
                } else {
                    misses++;
                }
            }
            double moved = distribution.terms().cost(weights);
            if (moved < cost) {
                cost = moved;
                accepted++;
                bad = 0;
            } else {
                for (int i = addedCount - 1; i >= 0; i--) {
                    distribution.remove(variant, added[i]);
                }
                for (int i = toRemove - 1; i >= 0; i--) {
                    distribution.add(variant, removed[i]);
                }
                bad++;
            }
        }
    }
}
