package dev.fieldprof.diff.estimates;

/**
 * The Benjamini–Yekutieli step-up procedure: Benjamini–Hochberg at level q/c(m), c(m) = Σ_{i=1..m}
 * 1/i, which keeps the expected share of false discoveries among the rejected hypotheses at most q
 * under any dependence between the p-values. Stateless.
 *
 * <p>The release diff needs that: in user-level mode a report names exactly ω methods, so its
 * indicators 1[v ∈ Z] are negatively correlated across methods and so are the ĝ(v) of one window,
 * while Benjamini–Hochberg is proven for independent or positively dependent p-values only. (In ε-t
 * mode the randomized counts are independent given the reports' histograms, which is what ĝ
 * estimates, so BH would hold there; one procedure for both modes keeps a flag's meaning the same
 * and a diff of an ε-t release against a user-level one valid.) The price is the factor c(m) ≈ ln m
 * + 0.58 on every adjusted p-value (7.5 at m = 1,000 methods).
 *
 * <p>With the m p-values sorted, p(1) ≤ … ≤ p(m), the adjusted p-value of p(i) is min over j ≥ i of
 * min(1, c(m)·m·p(j)/j): the Benjamini–Hochberg one times c(m), capped at 1.
 */
public final class BenjaminiYekutieli {
    private BenjaminiYekutieli() {}

    /** The BY-adjusted p-values, in the order of {@code pValues} (each in [0, 1]). */
    public static double[] adjust(double[] pValues) {
        double[] adjusted = BenjaminiHochberg.adjust(pValues);
        double c = harmonic(pValues.length);
        for (int i = 0; i < adjusted.length; i++) {
            // min(1, c·min(1, x)) = min(1, c·x) for c >= 1, so scaling the capped BH values is
            // exact.
            adjusted[i] = Math.min(1, c * adjusted[i]);
        }
        return adjusted;
    }

    /** c(m) = 1 + 1/2 + … + 1/m (1 for m <= 1). */
    static double harmonic(int m) {
        double sum = 0;
        for (int i = m; i >= 1; i--) { // smallest terms first
            sum += 1.0 / i;
        }
        return Math.max(1, sum);
    }
}
