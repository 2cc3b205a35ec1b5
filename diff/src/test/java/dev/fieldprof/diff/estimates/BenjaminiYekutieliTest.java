package dev.fieldprof.diff.estimates;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Random;
import org.junit.jupiter.api.Test;

class BenjaminiYekutieliTest {

    @Test
    void adjustsAHandComputedExample() {
        // m = 5, c(5) = 1 + 1/2 + 1/3 + 1/4 + 1/5 = 137/60. The BH values 0.05125 0.005 0.6
        // 0.05125 0.02 times 137/60, capped at 1.
        double c = 137.0 / 60;
        double[] q = BenjaminiYekutieli.adjust(new double[] {0.041, 0.001, 0.6, 0.039, 0.008});
        assertThat(q[0]).isCloseTo(0.05125 * c, within(1e-15));
        assertThat(q[1]).isCloseTo(0.005 * c, within(1e-15));
        assertThat(q[2]).isEqualTo(1.0); // 0.6 * 2.283 capped
        assertThat(q[3]).isCloseTo(0.05125 * c, within(1e-15));
        assertThat(q[4]).isCloseTo(0.02 * c, within(1e-15));
        assertThat(BenjaminiYekutieli.harmonic(1)).isEqualTo(1.0);
        assertThat(BenjaminiYekutieli.harmonic(0)).isEqualTo(1.0);
    }

    /** The step-up rule at level q/c(m): the largest r with p(r) <= r·q/(m·c(m)). */
    @Test
    void rejectsExactlyWhatTheStepUpRuleRejects() {
        Random random = new Random(12);
        for (int trial = 0; trial < 500; trial++) {
            int m = 1 + random.nextInt(12);
            double[] p = new double[m];
            for (int i = 0; i < m; i++) {
                p[i] = random.nextInt(3) == 0 ? random.nextDouble() * 0.01 : random.nextDouble();
            }
            double level = 0.05;
            double c = 0;
            for (int i = 1; i <= m; i++) {
                c += 1.0 / i;
            }
            double[] sorted = p.clone();
            java.util.Arrays.sort(sorted);
            double threshold = -1;
            for (int r = m; r >= 1; r--) {
                if (sorted[r - 1] <= r * level / (m * c)) {
                    threshold = sorted[r - 1];
                    break;
                }
            }
            double[] q = BenjaminiYekutieli.adjust(p);
            for (int i = 0; i < m; i++) {
                assertThat(q[i] <= level)
                        .as("trial %d, p %s", trial, p[i])
                        .isEqualTo(p[i] <= threshold);
            }
        }
    }
}
