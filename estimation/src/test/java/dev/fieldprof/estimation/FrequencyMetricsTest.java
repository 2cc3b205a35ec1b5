package dev.fieldprof.estimation;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class FrequencyMetricsTest {
    /** Every method sorted by the documented order, then cut: what {@code top} must equal. */
    private static int[] sortedThenCut(double[] f, int count) {
        return IntStream.range(0, f.length)
                .boxed()
                .sorted(
                        (u, w) -> {
                            double a = f[u] == 0 ? 0.0 : f[u]; // 0.0 and -0.0 tie
                            double b = f[w] == 0 ? 0.0 : f[w];
                            int byValue = Double.compare(b, a); // a NaN is largest
                            return byValue != 0 ? byValue : Integer.compare(u, w);
                        })
                .limit(Math.max(0, count))
                .mapToInt(Integer::intValue)
                .toArray();
    }

    @Test
    void topRanksByDecreasingValueWithTiesByIdAndNaNFirst() {
        double[] f = {0.1, Double.NaN, 0.3, -0.0, 0.3, 0.0, Double.NaN, -0.2, 0.1};
        assertThat(FrequencyMetrics.top(f, 9)).containsExactly(1, 6, 2, 4, 0, 8, 3, 5, 7);
        assertThat(FrequencyMetrics.top(f, 4)).containsExactly(1, 6, 2, 4);
        assertThat(FrequencyMetrics.top(f, 20)).containsExactly(1, 6, 2, 4, 0, 8, 3, 5, 7);
        assertThat(FrequencyMetrics.top(f, 0)).isEmpty();
        assertThat(FrequencyMetrics.top(f, -3)).isEmpty();
        assertThat(FrequencyMetrics.top(new double[0], 5)).isEmpty();
    }

    @Test
    void topEqualsSortingEveryMethodOnArraysWithManyTies() {
        SplittableRandom random = new SplittableRandom(28);
        double[] values = {0.0, -0.0, Double.NaN, 0.5, -0.5, 1e-300, Double.POSITIVE_INFINITY};
        for (int round = 0; round < 500; round++) {
            double[] f = new double[random.nextInt(0, 200)];
            for (int v = 0; v < f.length; v++) {
                // Few distinct values, so most comparisons are ties.
                f[v] =
                        random.nextInt(4) == 0
                                ? values[random.nextInt(values.length)]
                                : random.nextInt(-5, 6) / 4.0;
            }
            int count = random.nextInt(0, f.length + 3);
            assertThat(FrequencyMetrics.top(f, count))
                    .as("round %d, %d methods, top %d", round, f.length, count)
                    .containsExactly(sortedThenCut(f, count));
        }
    }
}
