package dev.fieldprof.jobs.shuffle;

import java.security.SecureRandom;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * Puts a batch in an order drawn uniformly from all n! orders, with a cryptographically secure
 * generator: the order of a released batch tells nothing about the order reports arrived in.
 *
 * <p>Fisher–Yates: position i, from the last down to the second, takes the element at a position j
 * drawn uniformly from 0..i. Each of the n! sequences of draws gives another permutation, so every
 * permutation has probability exactly 1/n! when each draw is uniform. Each draw is {@link
 * Random#nextInt(int)}, which rejects the generator's 31-bit values above the largest multiple of
 * the bound instead of reducing them modulo it, so no value of 0..i is favoured. (Swapping each
 * position with any of 0..n-1 instead gives n^n equally likely draw sequences over n! permutations,
 * which n^n is not a multiple of for n ≥ 3: some orders come out more often.)
 */
public final class SecureShuffle {
    private final Random random;

    /** A shuffle with a fresh {@link SecureRandom}. */
    public SecureShuffle() {
        this(new SecureRandom());
    }

    /**
     * @param random the generator of the draws: a {@link SecureRandom} in the job; tests may pass
     *     another to show what a biased or a predictable one does
     */
    public SecureShuffle(Random random) {
        this.random = random;
    }

    /** Shuffles {@code items} in place. */
    public <T> void shuffle(List<T> items) {
        for (int i = items.size() - 1; i > 0; i--) {
            Collections.swap(items, i, random.nextInt(i + 1));
        }
    }
}
