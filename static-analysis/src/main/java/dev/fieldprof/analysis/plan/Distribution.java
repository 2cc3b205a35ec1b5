package dev.fieldprof.analysis.plan;

import java.util.Arrays;

/**
 * A distribution of probe sets over {@code n} variants of at most {@code h_bound} cost units each,
 * with the cost terms of Section 4.3 of probe distribution (docs/references.md) kept up to date as
 * sets are placed and removed.
 *
 * <p>The published planner recomputes BALANCE in O(|E|) after each move (and reports runs of days).
 * Here a move costs O(size of the move) plus O(n) to read the cost: per variant and method it keeps
 * how many placed sets use the method (so a variant's used cost and its overlap change only where a
 * count crosses 0↔1 or 1↔2); per set its TimesUsed; per TimesUsed value {@code t} the summed length
 * of the sets used {@code t} times, and {@code S = Σ TimesUsed}. Since {@code 0 ≤ TimesUsed ≤ n},
 * {@code BALANCE = Σ_t W[t]·|t·|E| − S| / |E|} takes O(n), PACKING O(n), ALLUSED O(1).
 *
 * <p>Terms, in cost units (each probe weighs its method's cost; with unit costs these are the
 * published counts): length(e) is the summed cost of the set's probes; TimesUsed(e) the number of
 * variants the set was placed in; {@code ov_i} the summed cost of the probes that two or more sets
 * placed in variant {@code i} share; ALLUSED the summed length of the sets placed nowhere.
 *
 * <p>A hill-climb move asks {@link #fits} of some 28 random sets, places about 8 and takes back
 * 4-5, and 99% of moves are undone. So everything a move reads is kept small: a bit per (variant,
 * set) for "placed", bits per (variant, method) for "used" and "shared" (count 1 or 2 and more),
 * the sets' members back to back in one array (two bytes each while |V| ≤ 65,536) with each set's
 * start and TimesUsed side by side, a cost per method (two bytes while below 65,536), and the
 * per-(variant, method) counts in two bytes while there are fewer than 65,536 sets. A move's adds
 * ({@link #addInMove}) touch the bits only; the counts, the largest rows, catch up only when the
 * move is kept ({@link #keepMove}), and an undone move ({@link #undoMove}) clears the bits it set.
 * {@link #fits}, {@link #add} and {@link #removeAt} work without a branch per member. Placed sets
 * are removed by their index in the variant's list ({@link #removeAt}, {@link #removeLast}), so no
 * position per (variant, set) is kept. None of this changes a result: the same sets fit, the same
 * terms and the same cost (the same double: PACKING is summed in the same order, one term
 * recomputed per move) come out.
 *
 * <p>Memory: two bytes (four past 65,535 sets) per (variant, method), a bit per (variant, set) and
 * two per (variant, method), and the placed sets' ids. Not thread-safe.
 */
final class Distribution {

    private final ProbeSets sets;
    private final MethodCosts costs;
    private final int variants;
    private final long hBound;

    private final long[] length;
    // Per variant and method, how many placed sets use it: two bytes each when there are fewer
    // than 65,536 sets (no count can exceed the number of sets), so that a variant's row of
    // 10,000 methods stays in the core's first-level cache; else four.
    private final char[][] narrowUses;
    private final int[][] uses;
    private final long[] used;
    private final long[] overlap;
    private final long[] lengthByTimesUsed;
    private long timesUsedSum;
    private long allUsed;

    // Sets placed per variant, as a list: the climb removes by index (a random one, or the last
    // added), so no position per (variant, set) is kept; its 4 bytes per pair were the largest
    // array and a cache miss per add and remove.
    private final int[][] placed;
    private final int[] placedCount;

    // Set ids by ascending length (ties by id), to find the sets that surely fit a variant.
    private final int[] byLength;

    // The sets' members back to back (ProbeSets.flatMembers), and each method's cost: an array per
    // method, small enough to stay in cache, rather than a cost beside each member.
    // Per set, where its members start and its TimesUsed side by side: set e's start at 2e, its
    // TimesUsed at 2e + 1, its end at 2e + 2, so placing a set that fits just read finds its
    // TimesUsed in the same cache line.
    private final int[] setInfo;
    private final int[] member;

    // The same members in two bytes each when every method id fits (|V| <= 65,536), else null:
    // half the bytes to bring into cache for each set a move draws.
    private final char[] narrowMember;
    private final long[] methodCost;
    // The same costs in two bytes each when all are below 65,536, else null: 20 KB for 10,000
    // methods, which stays in the first-level cache beside a variant's bits.
    private final char[] narrowCost;

    // Bit sets per variant: the sets placed in it, and the methods some placed set uses.
    private final long[][] placedBits;
    private final long[][] usedBits;
    // Per variant, the methods two or more placed sets use (their count is >= 2).
    private final long[][] sharedBits;

    // A move's adds (addInMove) change the bits, costs and TimesUsed but not the per-(variant,
    // method) counts, whose rows are the largest data a move would touch: the bits say all that
    // fits and the cost need (count 0, 1, or 2 and more). The counts catch up when the move is
    // kept (keepMove); an undone move (undoMove) clears the bits it set, listed here as
    // method << 1 | (1 if the shared bit).
    private int[] moveSets = new int[16];
    private int moveSetCount;
    private int[] moveFlips = new int[64];
    private int moveFlipCount;
    private long moveUsedBefore;
    private long moveOverlapBefore;

    // Whether a set's unused members' costs can be summed whole without overflow (the largest set
    // times the largest cost stays below 2^62): fits then sums them without a branch per member.
    private final boolean sumsFit;

    // PACKING's term per variant, 1 / (max − ov_v), for the max it was computed with, and which
    // variants' overlaps changed since: a move changes one variant, so PACKING takes one division
    // and the same additions in the same order as CostTerms.packing, hence the same double.
    private final double[] packTerm;
    private final boolean[] packStale;
    private long packMax = Long.MIN_VALUE;

    Distribution(ProbeSets sets, MethodCosts costs, int variants, long hBound) {
        if (costs.size() != sets.methodCount()) {
            throw new IllegalArgumentException(
                    "need one cost per method: " + sets.methodCount() + ", got " + costs.size());
        }
        if (variants < 1) {
            throw new IllegalArgumentException("variants must be >= 1, was " + variants);
        }
        if (hBound < 0) {
            throw new IllegalArgumentException("h-bound must be >= 0, was " + hBound);
        }
        this.sets = sets;
        this.costs = costs;
        this.variants = variants;
        this.hBound = hBound;
        int setCount = sets.size();
        length = new long[setCount];
        for (int e = 0; e < setCount; e++) {
            length[e] = sets.length(e, costs);
            allUsed += length[e];
        }
        if (setCount < 1 << 16) {
            narrowUses = new char[variants][sets.methodCount()];
            uses = null;
        } else {
            narrowUses = null;
            uses = new int[variants][sets.methodCount()];
        }
        used = new long[variants];
        overlap = new long[variants];
        lengthByTimesUsed = new long[variants + 1];
        lengthByTimesUsed[0] = allUsed;
        placed = new int[variants][8];
        placedCount = new int[variants];
        int[] starts = sets.flatStarts();
        setInfo = new int[2 * setCount + 2];
        for (int e = 0; e <= setCount; e++) {
            setInfo[2 * e] = starts[e];
        }
        member = sets.flatMembers();
        if (sets.methodCount() <= 1 << 16) {
            narrowMember = new char[member.length];
            for (int j = 0; j < member.length; j++) {
                narrowMember[j] = (char) member[j];
            }
        } else {
            narrowMember = null;
        }
        methodCost = new long[sets.methodCount()];
        for (int m = 0; m < methodCost.length; m++) {
            methodCost[m] = costs.cost(m);
        }
        long maxCost = 0;
        for (long c : methodCost) {
            maxCost = Math.max(maxCost, c);
        }
        int maxSize = 0;
        for (int e = 0; e < setCount; e++) {
            maxSize = Math.max(maxSize, setInfo[2 * e + 2] - setInfo[2 * e]);
        }
        sumsFit = maxCost <= (Long.MAX_VALUE >> 2) / Math.max(1, maxSize);
        if (maxCost < 1 << 16) {
            narrowCost = new char[methodCost.length];
            for (int m = 0; m < methodCost.length; m++) {
                narrowCost[m] = (char) methodCost[m];
            }
        } else {
            narrowCost = null;
        }
        packTerm = new double[variants];
        packStale = new boolean[variants];
        java.util.Arrays.fill(packStale, true);
        placedBits = new long[variants][(setCount + 63) >>> 6];
        usedBits = new long[variants][(sets.methodCount() + 63) >>> 6];
        sharedBits = new long[variants][(sets.methodCount() + 63) >>> 6];
        byLength =
                java.util.stream.IntStream.range(0, setCount)
                        .boxed()
                        .sorted(
                                java.util.Comparator.<Integer>comparingLong(e -> length[e])
                                        .thenComparingInt(e -> e))
                        .mapToInt(Integer::intValue)
                        .toArray();
    }

    /**
     * Places, shortest first, every set not yet in the variant whose whole length still fits, so
     * that afterwards no set fits by its length alone (one may still fit thanks to probes it shares
     * with the variant). O(sets placed in the variant + sets added): a skipped set is one already
     * placed, any other set short enough is added.
     *
     * @param added receives the sets added, in order
     * @return how many were added
     */
    int completeShortestFirst(int variant, java.util.function.IntConsumer added) {
        return completeShortestFirst(variant, added, false);
    }

    /** {@link #completeShortestFirst} with {@link #addInMove} for its adds. */
    int completeShortestFirstInMove(int variant) {
        return completeShortestFirst(variant, set -> {}, true);
    }

    private int completeShortestFirst(
            int variant, java.util.function.IntConsumer added, boolean inMove) {
        int count = 0;
        for (int set : byLength) {
            if (length[set] > remaining(variant)) {
                break;
            }
            if (!holds(variant, set)) {
                if (inMove) {
                    addInMove(variant, set);
                } else {
                    add(variant, set);
                }
                added.accept(set);
                count++;
            }
        }
        return count;
    }

    ProbeSets sets() {
        return sets;
    }

    MethodCosts costs() {
        return costs;
    }

    int variants() {
        return variants;
    }

    long hBound() {
        return hBound;
    }

    boolean holds(int variant, int set) {
        return (placedBits[variant][set >>> 6] & (1L << set)) != 0;
    }

    int placedCount(int variant) {
        return placedCount[variant];
    }

    /** The {@code index}-th set placed in the variant (the order changes as sets are removed). */
    int placedAt(int variant, int index) {
        return placed[variant][index];
    }

    /** Cost units the variant's distinct probes take. */
    long used(int variant) {
        return used[variant];
    }

    long remaining(int variant) {
        return hBound - used[variant];
    }

    long overlap(int variant) {
        return overlap[variant];
    }

    int timesUsed(int set) {
        return setInfo[2 * set + 1];
    }

    /** Cost units placing the set would add to the variant (its probes not yet there). */
    long addedCost(int variant, int set) {
        long added = 0;
        for (int m : sets.membersView(set)) {
            if (useCount(variant, m) == 0) {
                added += costs.cost(m);
            }
        }
        return added;
    }

    private int useCount(int variant, int method) {
        return narrowUses != null ? narrowUses[variant][method] : uses[variant][method];
    }

    /** Whether the set is not yet in the variant and fits its remaining budget. */
    boolean fits(int variant, int set) {
        if (holds(variant, set)) {
            return false;
        }
        long[] usedBit = usedBits[variant];
        long room = remaining(variant);
        if (narrowCost != null && narrowMember != null) {
            // addedCost without a branch per member but one per 8 (a mispredicted exit cost more
            // than the few members it skipped, while a set of 64 should still stop early); costs
            // are >= 1, so the sum only grows and stopping once it passes the room decides the
            // same. Below 65,536 each, no set's sum can overflow.
            long added = 0;
            int j = setInfo[2 * set];
            int end = setInfo[2 * set + 2];
            while (j < end) {
                for (int block = Math.min(end, j + 8); j < block; j++) {
                    int m = narrowMember[j];
                    added += narrowCost[m] & (((usedBit[m >>> 6] >>> m) & 1L) - 1);
                }
                if (added > room) {
                    return false;
                }
            }
            return true;
        }
        if (sumsFit && narrowMember != null) {
            long added = 0;
            for (int j = setInfo[2 * set], end = setInfo[2 * set + 2]; j < end; j++) {
                int m = narrowMember[j];
                added += methodCost[m] & (((usedBit[m >>> 6] >>> m) & 1L) - 1);
            }
            return added <= room;
        }
        // addedCost with an early exit: most draws of a nearly full variant do not fit.
        for (int j = setInfo[2 * set], end = setInfo[2 * set + 2]; j < end; j++) {
            int m = narrowMember != null ? narrowMember[j] : member[j];
            if ((usedBit[m >>> 6] & (1L << m)) == 0) {
                room -= methodCost[m];
                if (room < 0) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * Reads what {@link #fits} will read first for each of the given sets (its "placed" bit and its
     * members), independently of one another, so that their cache misses overlap; returns a value
     * made of what it read, for the caller to keep.
     */
    int touch(int variant, int[] some, int count) {
        long[] placedBit = placedBits[variant];
        int sum = 0;
        for (int i = 0; i < count; i++) {
            int set = some[i];
            sum += (int) placedBit[set >>> 6] + setInfo[2 * set];
        }
        for (int i = 0; i < count; i++) {
            int start = setInfo[2 * some[i]];
            sum += narrowMember != null ? narrowMember[start] : member[start];
        }
        return sum;
    }

    void add(int variant, int set) {
        if (holds(variant, set)) {
            throw new IllegalStateException("set " + set + " already in variant " + variant);
        }
        checkNoMove();
        char[] narrowUse = narrowUses == null ? null : narrowUses[variant];
        int[] use = narrowUse == null ? uses[variant] : null;
        long[] usedBit = usedBits[variant];
        long[] sharedBit = sharedBits[variant];
        long usedCost = 0;
        long overlapCost = 0;
        for (int j = setInfo[2 * set], end = setInfo[2 * set + 2]; j < end; j++) {
            int m = narrowMember != null ? narrowMember[j] : member[j];
            int before;
            if (narrowUse != null) {
                before = narrowUse[m];
                narrowUse[m] = (char) (before + 1);
            } else {
                before = use[m]++;
            }
            // Masks instead of branches: all ones when the count was 0 (the method is newly
            // used), resp. 1 (newly shared).
            long wasZero = (before - 1) >> 31;
            long wasOne = ((before ^ 1) - 1) >> 31;
            long cost = methodCost[m];
            usedCost += cost & wasZero;
            overlapCost += cost & wasOne;
            usedBit[m >>> 6] |= (wasZero & 1L) << m;
            sharedBit[m >>> 6] |= (wasOne & 1L) << m;
        }
        used[variant] += usedCost;
        overlap[variant] += overlapCost;
        packStale[variant] = true;
        if (used[variant] > hBound) {
            throw new IllegalStateException("variant " + variant + " exceeds the h-bound");
        }
        int t = setInfo[2 * set + 1]++;
        lengthByTimesUsed[t] -= length[set];
        lengthByTimesUsed[t + 1] += length[set];
        timesUsedSum++;
        if (t == 0) {
            allUsed -= length[set];
        }
        if (placedCount[variant] == placed[variant].length) {
            placed[variant] = Arrays.copyOf(placed[variant], 2 * placed[variant].length);
        }
        placed[variant][placedCount[variant]++] = set;
        placedBits[variant][set >>> 6] |= 1L << set;
    }

    /**
     * Places the set as {@link #add} does, as far as everything but the per-method counts is
     * concerned ({@link #fits}, {@link #remaining}, {@link #cost}, {@link #holds} answer the same),
     * until {@link #keepMove} or {@link #undoMove}; nothing else may change the variant meanwhile.
     */
    void addInMove(int variant, int set) {
        if (holds(variant, set)) {
            throw new IllegalStateException("set " + set + " already in variant " + variant);
        }
        if (moveSetCount == 0) {
            moveUsedBefore = used[variant];
            moveOverlapBefore = overlap[variant];
        }
        long[] usedBit = usedBits[variant];
        long[] sharedBit = sharedBits[variant];
        int end = setInfo[2 * set + 2];
        int start = setInfo[2 * set];
        if (moveFlipCount + 2 * (end - start) > moveFlips.length) {
            moveFlips = Arrays.copyOf(moveFlips, 2 * (moveFlipCount + end - start) + 16);
        }
        int[] flips = moveFlips;
        int flipCount = moveFlipCount;
        long usedCost = 0;
        long overlapCost = 0;
        long setLength = 0;
        for (int j = start; j < end; j++) {
            int m = narrowMember != null ? narrowMember[j] : member[j];
            int word = m >>> 6;
            long bit = 1L << m;
            long cost = methodCost[m];
            setLength += cost;
            long wasUsed = usedBit[word];
            long wasShared = sharedBit[word];
            // Newly used: all ones if the used bit was clear; newly shared: used but not shared.
            long newlyUsed = ((wasUsed & bit) == 0) ? -1L : 0L;
            long newlyShared = ~newlyUsed & (((wasShared & bit) == 0) ? -1L : 0L);
            usedCost += cost & newlyUsed;
            overlapCost += cost & newlyShared;
            usedBit[word] = wasUsed | bit;
            sharedBit[word] = wasShared | (bit & newlyShared);
            flips[flipCount] = m << 1;
            flipCount += (int) (newlyUsed & 1L);
            flips[flipCount] = (m << 1) | 1;
            flipCount += (int) (newlyShared & 1L);
        }
        moveFlipCount = flipCount;
        used[variant] += usedCost;
        overlap[variant] += overlapCost;
        packStale[variant] = true;
        if (used[variant] > hBound) {
            throw new IllegalStateException("variant " + variant + " exceeds the h-bound");
        }
        int t = setInfo[2 * set + 1]++;
        lengthByTimesUsed[t] -= setLength;
        lengthByTimesUsed[t + 1] += setLength;
        timesUsedSum++;
        if (t == 0) {
            allUsed -= setLength;
        }
        if (placedCount[variant] == placed[variant].length) {
            placed[variant] = Arrays.copyOf(placed[variant], 2 * placed[variant].length);
        }
        placed[variant][placedCount[variant]++] = set;
        placedBits[variant][set >>> 6] |= 1L << set;
        if (moveSetCount == moveSets.length) {
            moveSets = Arrays.copyOf(moveSets, 2 * moveSetCount);
        }
        moveSets[moveSetCount++] = set;
    }

    /** Keeps the sets {@link #addInMove} placed: their members' counts catch up. */
    void keepMove(int variant) {
        char[] narrowUse = narrowUses == null ? null : narrowUses[variant];
        int[] use = narrowUse == null ? uses[variant] : null;
        for (int i = 0; i < moveSetCount; i++) {
            int set = moveSets[i];
            for (int j = setInfo[2 * set], end = setInfo[2 * set + 2]; j < end; j++) {
                int m = narrowMember != null ? narrowMember[j] : member[j];
                if (narrowUse != null) {
                    narrowUse[m]++;
                } else {
                    use[m]++;
                }
            }
        }
        moveSetCount = 0;
        moveFlipCount = 0;
    }

    /**
     * Takes back the sets {@link #addInMove} placed, last first, leaving the variant's list of
     * placed sets and every term as they were before them.
     */
    void undoMove(int variant) {
        for (int i = moveSetCount - 1; i >= 0; i--) {
            int set = moveSets[i];
            int last = --placedCount[variant];
            if (placed[variant][last] != set) {
                throw new IllegalStateException("set " + set + " was not placed last in the move");
            }
            placedBits[variant][set >>> 6] &= ~(1L << set);
            long setLength = length[set];
            int t = setInfo[2 * set + 1]--;
            lengthByTimesUsed[t] -= setLength;
            lengthByTimesUsed[t - 1] += setLength;
            timesUsedSum--;
            if (t == 1) {
                allUsed += setLength;
            }
        }
        long[] usedBit = usedBits[variant];
        long[] sharedBit = sharedBits[variant];
        for (int i = 0; i < moveFlipCount; i++) {
            int flip = moveFlips[i];
            int m = flip >>> 1;
            long[] bits = (flip & 1) == 0 ? usedBit : sharedBit;
            bits[m >>> 6] &= ~(1L << m);
        }
        if (moveSetCount > 0) {
            used[variant] = moveUsedBefore;
            overlap[variant] = moveOverlapBefore;
            packStale[variant] = true;
        }
        moveSetCount = 0;
        moveFlipCount = 0;
    }

    private void checkNoMove() {
        if (moveSetCount != 0) {
            throw new IllegalStateException("a move's adds are neither kept nor undone");
        }
    }

    /** Removes the set from the variant; O(sets placed in it) to find it. */
    void remove(int variant, int set) {
        int[] list = placed[variant];
        for (int at = placedCount[variant] - 1; at >= 0; at--) {
            if (list[at] == set) {
                removeAt(variant, at);
                return;
            }
        }
        throw new IllegalStateException("set " + set + " not in variant " + variant);
    }

    /**
     * Removes the {@code index}-th set placed in the variant ({@link #placedAt}); the last placed
     * set takes its index.
     */
    void removeAt(int variant, int index) {
        int count = placedCount[variant];
        if (index < 0 || index >= count) {
            throw new IndexOutOfBoundsException(
                    "index " + index + " of " + count + " sets in variant " + variant);
        }
        checkNoMove();
        int set = placed[variant][index];
        char[] narrowUse = narrowUses == null ? null : narrowUses[variant];
        int[] use = narrowUse == null ? uses[variant] : null;
        long[] usedBit = usedBits[variant];
        long[] sharedBit = sharedBits[variant];
        long usedCost = 0;
        long overlapCost = 0;
        for (int j = setInfo[2 * set], end = setInfo[2 * set + 2]; j < end; j++) {
            int m = narrowMember != null ? narrowMember[j] : member[j];
            int after;
            if (narrowUse != null) {
                after = narrowUse[m] - 1;
                narrowUse[m] = (char) after;
            } else {
                after = --use[m];
            }
            long isZero = (after - 1) >> 31;
            long isOne = ((after ^ 1) - 1) >> 31;
            long cost = methodCost[m];
            usedCost += cost & isZero;
            overlapCost += cost & isOne;
            usedBit[m >>> 6] &= ~((isZero & 1L) << m);
            sharedBit[m >>> 6] &= ~((isOne & 1L) << m);
        }
        used[variant] -= usedCost;
        overlap[variant] -= overlapCost;
        packStale[variant] = true;
        int t = setInfo[2 * set + 1]--;
        lengthByTimesUsed[t] -= length[set];
        lengthByTimesUsed[t - 1] += length[set];
        timesUsedSum--;
        if (t == 1) {
            allUsed += length[set];
        }
        placed[variant][index] = placed[variant][count - 1];
        placedCount[variant] = count - 1;
        placedBits[variant][set >>> 6] &= ~(1L << set);
    }

    /** Removes the set placed last in the variant, which must be {@code set}; O(its size). */
    void removeLast(int variant, int set) {
        int last = placedCount[variant] - 1;
        if (last < 0 || placed[variant][last] != set) {
            throw new IllegalStateException(
                    "set " + set + " is not the last placed in variant " + variant);
        }
        removeAt(variant, last);
    }

    /** BALANCE, PACKING and ALLUSED of the current distribution, in O(n). */
    CostTerms terms() {
        long setCount = sets.size();
        long scaled = 0;
        for (int t = 0; t <= variants; t++) {
            scaled += lengthByTimesUsed[t] * Math.abs(t * setCount - timesUsedSum);
        }
        return new CostTerms(CostTerms.balance(scaled, sets.size()), packing(), allUsed);
    }

    /**
     * {@code terms().cost(weights)}, the same double, without the record; PACKING is read only when
     * β ≠ 0 ({@code 0·PACKING} is +0.0, PACKING being finite and >= 0, and adding +0.0 to {@code
     * α·BALANCE >= 0} changes nothing).
     */
    double cost(CostWeights weights) {
        long setCount = sets.size();
        long scaled = 0;
        for (int t = 0; t <= variants; t++) {
            scaled += lengthByTimesUsed[t] * Math.abs(t * setCount - timesUsedSum);
        }
        double balance = CostTerms.balance(scaled, sets.size());
        double packing = weights.beta() == 0 ? 0 : packing();
        return weights.alpha() * balance + weights.beta() * packing + weights.gamma() * allUsed;
    }

    /** {@code CostTerms.packing(overlap)}, recomputing only the terms of changed variants. */
    private double packing() {
        long max = Long.MIN_VALUE;
        for (long ov : overlap) {
            max = Math.max(max, ov);
        }
        boolean allStale = max != packMax;
        packMax = max;
        double packing = 0;
        for (int v = 0; v < variants; v++) {
            long ov = overlap[v];
            if (allStale || packStale[v]) {
                packStale[v] = false;
                packTerm[v] = ov == max ? 0 : 1.0 / (max - ov);
            }
            if (ov != max) {
                packing += packTerm[v];
            }
        }
        return packing;
    }

    /** The sets placed in each variant, ascending. */
    int[][] placements() {
        int[][] result = new int[variants][];
        for (int v = 0; v < variants; v++) {
            result[v] = Arrays.copyOf(placed[v], placedCount[v]);
            Arrays.sort(result[v]);
        }
        return result;
    }

    /** The methods each variant traces, ascending. */
    int[][] methods() {
        int[][] result = new int[variants][];
        for (int v = 0; v < variants; v++) {
            int count = 0;
            for (int m = 0; m < sets.methodCount(); m++) {
                if (useCount(v, m) > 0) {
                    count++;
                }
            }
            int[] methods = new int[count];
            int i = 0;
            for (int m = 0; m < sets.methodCount(); m++) {
                if (useCount(v, m) > 0) {
                    methods[i++] = m;
                }
            }
            result[v] = methods;
        }
        return result;
    }
}
