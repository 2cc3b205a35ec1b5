package dev.fieldprof.diff.estimates;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Compares the field estimates of two releases method by method. Stateless; thread-safe.
 *
 * <p>For a method v of V1 paired with w of V2, with unbiased shares ĝ1(v), ĝ2(w) and their own
 * standard errors se1(v), se2(w) (docs/architecture.md, "The estimator": the same for every method
 * in ε-t mode, growing with the share in user-level mode):
 *
 * <pre>
 *   Δ = ĝ2(w) − ĝ1(v)                        unbiased for the change of the share g
 *   SE(Δ) = √(se1(v)² + se2(w)²)             the two releases' reports are independent
 *   95% interval: Δ ± 1.95996 · SE(Δ)
 *   z = Δ / SE(Δ),  p = Pr[|Z| ≥ |z|] = erfc(|z| / √2)
 * </pre>
 *
 * ĝ(v) is a sum of n independent reports' randomized counts, scaled, so it is close to normal for
 * the n of any useful window. The p-values of all compared methods go through the
 * Benjamini–Yekutieli procedure at the given false discovery rate q ({@link BenjaminiYekutieli}):
 * among the methods flagged as changed, the expected share of methods whose share did not change is
 * at most q. Not Benjamini–Hochberg, which needs independent or positively dependent p-values: in
 * user-level mode the ĝ(v) of one window are negatively correlated across methods (a report names
 * exactly ω of them), and BY holds under any dependence (why for both modes: {@link
 * BenjaminiYekutieli}).
 *
 * <p>What the standard error covers: the randomized response noise of the reports and, in
 * user-level mode, the draw of each report's one event (the plug-in estimates the variance of the
 * whole report). In ε-t mode it does not cover the sampling of devices and of the k events each
 * device reports: two windows of the same release over different devices differ by that too. At the
 * privacy levels in use the randomization dominates (its variance per report and method is a/(a −
 * 1)²/k, against at most 1/(4k) for the event sampling of one device's fixed histogram: 3.9/k vs
 * 0.25/k at ε/(2t) = 0.5).
 */
public final class EstimateDiffer {
    private final double fdr;

    /**
     * @param fdr the false discovery rate q of the Benjamini–Yekutieli procedure, 0 < q < 1
     */
    public EstimateDiffer(double fdr) {
        if (!(fdr > 0 && fdr < 1)) {
            throw new IllegalArgumentException("fdr must be in (0, 1), was " + fdr);
        }
        this.fdr = fdr;
    }

    /** Compares two releases whose methods were paired by {@link MethodAlignment}. */
    public EstimateDiff diff(
            ReleaseEstimate first, ReleaseEstimate second, MethodAlignment.Result alignment) {
        List<MethodAlignment.Pair> pairs = alignment.pairs();
        double[] errors = new double[pairs.size()];
        double[] differences = new double[pairs.size()];
        double[] z = new double[pairs.size()];
        double[] p = new double[pairs.size()];
        for (int i = 0; i < pairs.size(); i++) {
            MethodAlignment.Pair pair = pairs.get(i);
            differences[i] = second.normalized(pair.second()) - first.normalized(pair.first());
            double se1 = first.standardError(pair.first());
            double se2 = second.standardError(pair.second());
            double se = Math.sqrt(se1 * se1 + se2 * se2);
            errors[i] = se;
            if (se > 0) {
                z[i] = differences[i] / se;
            } else {
                z[i] =
                        differences[i] == 0
                                ? 0
                                : Math.copySign(Double.POSITIVE_INFINITY, differences[i]);
            }
            p[i] = NormalDistribution.twoSidedTail(z[i]);
        }
        double[] q = BenjaminiYekutieli.adjust(p);
        List<EstimateDiff.MethodChange> changes = new ArrayList<>();
        for (int i = 0; i < pairs.size(); i++) {
            MethodAlignment.Pair pair = pairs.get(i);
            changes.add(
                    new EstimateDiff.MethodChange(
                            first.signatures().get(pair.first()),
                            second.signatures().get(pair.second()),
                            pair.first(),
                            pair.second(),
                            pair.source(),
                            first.normalized(pair.first()),
                            second.normalized(pair.second()),
                            first.consistent(pair.first()),
                            second.consistent(pair.second()),
                            errors[i],
                            z[i],
                            p[i],
                            q[i],
                            q[i] <= fdr));
        }
        changes.sort(
                Comparator.comparing((EstimateDiff.MethodChange c) -> !c.significant())
                        .thenComparingDouble(
                                c -> c.significant() ? -Math.abs(c.difference()) : c.pValue())
                        .thenComparingDouble(c -> -Math.abs(c.difference()))
                        .thenComparing(EstimateDiff.MethodChange::signatureSecond));
        return new EstimateDiff(
                first,
                second,
                fdr,
                changes,
                shares(first, alignment.gone()),
                shares(second, alignment.added()));
    }

    private static List<EstimateDiff.MethodShare> shares(
            ReleaseEstimate release, List<Integer> ids) {
        List<EstimateDiff.MethodShare> out = new ArrayList<>();
        for (int v : ids) {
            out.add(
                    new EstimateDiff.MethodShare(
                            release.signatures().get(v),
                            v,
                            release.normalized(v),
                            release.consistent(v),
                            release.standardError(v)));
        }
        out.sort(
                Comparator.comparingDouble((EstimateDiff.MethodShare s) -> -s.consistent())
                        .thenComparingDouble(s -> -s.normalized())
                        .thenComparing(EstimateDiff.MethodShare::signature));
        return out;
    }
}
