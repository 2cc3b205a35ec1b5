package dev.fieldprof.estimation;

/**
 * The unbiased estimate of one window (docs/architecture.md, "The privacy contract" and "The
 * estimator"): n, Ĝ, the normalized ĝ = Ĝ/(n·k) and the standard error of each ĝ(v).
 *
 * @param reports n
 * @param unbiased Ĝ(v) = ((a + 1)·F̂(v) − n·k) / (a − 1); user-level: n·ĝ(v)
 * @param normalized ĝ(v) = Ĝ(v) / (n·k); user-level: (S(v)/n − q)/(p − q)
 * @param standardErrors the standard error of each ĝ(v), the one its 95% interval ĝ(v) ± 1.96·se(v)
 *     uses: ε-t √(a/(n·k))/(a − 1) for every v (exact whatever the share); user-level the plug-in
 *     √(μ̂(1 − μ̂)/n)/(p − q), μ̂ = S(v)/n clamped into [q, p] ({@link FrequencyEstimator})
 * @param standardError the common one: ε-t every method's; user-level the one of a method of share
 *     0, √(q(1−q)/n)/(p − q) (what records written before per-method errors carry)
 */
public record FrequencyEstimate(
        long reports,
        double[] unbiased,
        double[] normalized,
        double[] standardErrors,
        double standardError) {}
