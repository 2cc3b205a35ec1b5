package dev.fieldprof.diff.estimates;

import java.util.Arrays;
import java.util.Comparator;

/**
 * The Benjamini–Hochberg step-up procedure, which keeps the expected share of false discoveries
 * among the rejected hypotheses at most q when the p-values are independent (or positively
 * dependent). Stateless.
 *
 * <p>With the m p-values sorted, p(1) ≤ … ≤ p(m): reject the hypotheses of p(1), …, p(r) for the
 * largest r with p(r) ≤ r·q/m. Equivalently, the adjusted p-value ("q-value") of p(i) is min over j
 * ≥ i of min(1, m·p(j)/j), and a hypothesis is rejected at level q when its q-value is ≤ q.
 */
public final class BenjaminiHochberg {
    private BenjaminiHochberg() {}

    /** The BH-adjusted p-values, in the order of {@code pValues} (each in [0, 1]). */
    public static double[] adjust(double[] pValues) {
        int m = pValues.length;
        for (double p : pValues) {
            if (!(p >= 0 && p <= 1)) {
                throw new IllegalArgumentException("p-values must be in [0, 1], got " + p);
            }
        }
        Integer[] order = new Integer[m];
        for (int i = 0; i < m; i++) {
            order[i] = i;
        }
        Arrays.sort(order, Comparator.comparingDouble(i -> pValues[i]));
        double[] adjusted = new double[m];
        double running = 1;
        for (int rank = m; rank >= 1; rank--) {
            int i = order[rank - 1];
            running = Math.min(running, Math.min(1, pValues[i] * m / rank));
            adjusted[i] = running;
        }
        return adjusted;
    }
}
