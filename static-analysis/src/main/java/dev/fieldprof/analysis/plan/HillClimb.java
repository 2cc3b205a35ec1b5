package dev.fieldprof.analysis.plan;

import java.util.SplittableRandom;

/**
 * Algorithm 2 of probe distribution (docs/references.md, Section 4.3): from a distribution,
 * repeatedly pick a random variant, remove a random number of its sets (1 to {@link #MAX_REMOVED},
 * chosen at random), and add random sets back while they fit its h-bound; keep the move if {@code
 * α·BALANCE + β·PACKING + γ·ALLUSED} fell, else undo it and count a bad move. Two additions to the
 * published loop: a move that leaves the cost unchanged is kept (still counted as bad), so plateaus
 * can be crossed; and after the random refill every set that fits by its whole length is added
 * shortest first, so variants stay full as Section 4.1 requires. Stops at cost 0, after {@code
 * maxBadMoves} consecutive bad moves ("frozen"), or after {@code maxMoves} moves in all.
 *
 * <p>Refilling draws sets uniformly from all |E| and gives up after {@code 8 + 2·removed}
 * consecutive draws that do not fit, and the completion looks only at the variant's own sets and
 * the ones it adds, so a move costs O(Σ sizes of the sets it touches + sets in the variant + n)
 * with the incremental {@link Distribution}, never O(|E|).
 *
 * <p>The draws come from {@link SplitMixStream}: the source's own values in the same order, the
 * source left where the same calls would leave it, and the next values known before they are drawn,
 * so a move first reads the sets it is about to remove and draw (their cache misses then overlap)
 * and then runs exactly as it would without that. Deterministic for a seed: the plans are the ones
 * the plain {@code random.nextInt} loop makes.
 */
final class HillClimb {

    /** Table 1 of probe distribution: FROZEN = 500,000 consecutive bad moves. */
    static final long PAPER_FROZEN = 500_000;

    /**
     * Most sets one move removes. The published planner leaves the number open; small moves keep a
     * move cheap on variants holding hundreds of sets and are the ones that still gain late in a
     * climb.
     */
    static final int MAX_REMOVED = 8;

    /** Draws a move reads ahead: a refill makes 28 on average at 50,000 events. */
    static final int LOOK_AHEAD = 32;

    private final CostWeights weights;
    // What the look-ahead read, kept so that the reads are not optimized away.
    private int touched;
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

    Outcome climb(Distribution distribution, SplittableRandom source) {
        SplitMixStream random = new SplitMixStream(source, Math.max(1, distribution.sets().size()));
        try {
            return climb(distribution, random);
        } finally {
            random.sync();
        }
    }

    private Outcome climb(Distribution distribution, SplitMixStream random) {
        double cost = distribution.cost(weights);
        int setCount = distribution.sets().size();
        long moves = 0;
        long accepted = 0;
        long bad = 0;
        IntList removed = new IntList();
        int[] lookAhead = new int[LOOK_AHEAD];
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
            removed.clear();
            int variant = random.nextInt(distribution.variants());
            int held = distribution.placedCount(variant);
            int toRemove = held == 0 ? 0 : 1 + random.nextInt(Math.min(held, MAX_REMOVED));
            for (int i = 0; i < toRemove; i++) {
                int index = random.nextInt(distribution.placedCount(variant));
                removed.add(distribution.placedAt(variant, index));
                distribution.removeAt(variant, index);
            }
            if (random.canPeek()) {
                // The refill's draws, as far as they are known now (a draw that the JDK rejects
                // and redraws, probability below |E| / 2^31, shifts them by one: a wasted look).
                for (int k = 0; k < LOOK_AHEAD; k++) {
                    lookAhead[k] = random.frequentOf(random.peekRaw(k));
                }
                touched += distribution.touch(variant, lookAhead, LOOK_AHEAD);
            }
            int misses = 0;
            int patience = 8 + 2 * toRemove;
            while (distribution.remaining(variant) > 0 && misses < patience) {
                int set = random.nextInt(setCount);
                if (distribution.fits(variant, set)) {
                    distribution.addInMove(variant, set);
                    misses = 0;
                } else {
                    misses++;
                }
            }
            // The published planner's variants are full (Section 4.1: h_bound probes each); random
            // draws alone may leave room, and an emptier variant can look cheaper (BALANCE is 0
            // when
            // nothing is used), so whatever still fits by its length goes in.
            distribution.completeShortestFirstInMove(variant);
            double moved = distribution.cost(weights);
            if (moved < cost) {
                distribution.keepMove(variant);
                cost = moved;
                accepted++;
                bad = 0;
            } else if (moved == cost) {
                // A sideways move: kept, so the climb can cross plateaus, yet counted as bad so
                // that a plateau still freezes it.
                distribution.keepMove(variant);
                bad++;
            } else {
                // The move appended its added sets after the removals, so they are the last
                // placed, in order; taking them from the end restores the list as it was.
                distribution.undoMove(variant);
                for (int i = removed.size() - 1; i >= 0; i--) {
                    distribution.add(variant, removed.get(i));
                }
                bad++;
            }
        }
    }

    /** A growable int list, reused across moves. */
    private static final class IntList {
        private int[] values = new int[16];
        private int size;

        void add(int value) {
            if (size == values.length) {
                values = java.util.Arrays.copyOf(values, 2 * size);
            }
            values[size++] = value;
        }

        int get(int index) {
            return values[index];
        }

        int size() {
            return size;
        }

        void clear() {
            size = 0;
        }
    }
}
