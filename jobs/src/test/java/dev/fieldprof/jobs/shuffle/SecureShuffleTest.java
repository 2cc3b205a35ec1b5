package dev.fieldprof.jobs.shuffle;

import static org.assertj.core.api.Assertions.assertThat;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;

/**
 * The shuffle is a uniform permutation: Pearson's chi-square over all n! orders of {@value #TRIALS}
 * shuffles (20,000 expected per order of 3 items, 5,000 per order of 4) stays below the quantile
 * that a uniform shuffle exceeds with probability 10⁻⁶ (so this class fails falsely with
 * probability below 2·10⁻⁶), while the naive shuffle that swaps each position with any position
 * exceeds it by far: its orders have probabilities 4/27 and 5/27 for 3 items, 8/256 to 15/256 for
 * 4, which puts its expected statistic at about {@value #TRIALS} × 0.0123 = 1,481 and × 0.0298 =
 * 3,574.
 */
class SecureShuffleTest {
    private static final int TRIALS = 120_000;

    /** The chi-square quantiles at 1 − 10⁻⁶: 5 degrees of freedom (3! − 1), 23 (4! − 1). */
    private static final double CRITICAL_3 = 35.888;

    private static final double CRITICAL_4 = 70.550;

    @Test
    void everyOrderOfThreeIsEquallyLikely() {
        SecureShuffle shuffle = new SecureShuffle();
        double statistic = chiSquare(3, 6, (items, r) -> shuffle.shuffle(items));
        assertThat(statistic).isLessThan(CRITICAL_3);
    }

    @Test
    void everyOrderOfFourIsEquallyLikely() {
        SecureShuffle shuffle = new SecureShuffle();
        double statistic = chiSquare(4, 24, (items, r) -> shuffle.shuffle(items));
        assertThat(statistic).isLessThan(CRITICAL_4);
    }

    /** The same test catches the classic biased shuffle, at both sizes. */
    @Test
    void failsTheNaiveSwapWithAnyPosition() {
        BiConsumer<List<Integer>, Random> naive =
                (items, random) -> {
                    for (int i = 0; i < items.size(); i++) {
                        Collections.swap(items, i, random.nextInt(items.size()));
                    }
                };
        assertThat(chiSquare(3, 6, naive)).isGreaterThan(CRITICAL_3);
        assertThat(chiSquare(4, 24, naive)).isGreaterThan(CRITICAL_4);
    }

    /** Pearson's statistic of the orders that {@value #TRIALS} shuffles of n items came out in. */
    private static double chiSquare(int n, int orders, BiConsumer<List<Integer>, Random> shuffle) {
        Random random = new SecureRandom();
        Map<List<Integer>, Integer> counts = new HashMap<>();
        for (int t = 0; t < TRIALS; t++) {
            List<Integer> items = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                items.add(i);
            }
            shuffle.accept(items, random);
            counts.merge(items, 1, Integer::sum);
        }
        assertThat(counts).as("every order occurs").hasSize(orders);
        double expected = (double) TRIALS / orders;
        double statistic = 0;
        for (int observed : counts.values()) {
            statistic += (observed - expected) * (observed - expected) / expected;
        }
        return statistic;
    }
}
