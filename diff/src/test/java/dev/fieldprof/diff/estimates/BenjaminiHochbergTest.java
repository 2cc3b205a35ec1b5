package dev.fieldprof.diff.estimates;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Random;
import org.junit.jupiter.api.Test;

class BenjaminiHochbergTest {

    @Test
    void adjustsAHandComputedExample() {
        // m = 5; sorted p 0.001 0.008 0.039 0.041 0.6 -> m p / rank 0.005 0.02 0.065 0.05125 0.6,
        // then the running minimum from the top: 0.005 0.02 0.05125 0.05125 0.6.
        double[] q = BenjaminiHochberg.adjust(new double[] {0.041, 0.001, 0.6, 0.039, 0.008});
        assertThat(q[0]).isCloseTo(0.05125, within(1e-15));
        assertThat(q[1]).isCloseTo(0.005, within(1e-15));
        assertThat(q[2]).isCloseTo(0.6, within(1e-15));
        assertThat(q[3]).isCloseTo(0.05125, within(1e-15));
        assertThat(q[4]).isCloseTo(0.02, within(1e-15));
    }

    @Test
    void rejectsExactlyWhatTheStepUpRuleRejects() {
        Random random = new Random(11);
        for (int trial = 0; trial < 500; trial++) {
            int m = 1 + random.nextInt(12);
            double[] p = new double[m];
            for (int i = 0; i < m; i++) {
                p[i] = random.nextInt(4) == 0 ? random.nextDouble() * 0.01 : random.nextDouble();
            }
            double level = 0.05;
            // The rule itself: the largest r with p(r) <= r q / m; reject every p <= p(r).
            double[] sorted = p.clone();
            java.util.Arrays.sort(sorted);
            double threshold = -1;
            for (int r = m; r >= 1; r--) {
                if (sorted[r - 1] <= r * level / m) {
                    threshold = sorted[r - 1];
                    break;
                }
            }
            double[] q = BenjaminiHochberg.adjust(p);
            for (int i = 0; i < m; i++) {
                assertThat(q[i] <= level)
                        .as("trial %d, p %s", trial, p[i])
                        .isEqualTo(p[i] <= threshold);
            }
        }
    }
}
