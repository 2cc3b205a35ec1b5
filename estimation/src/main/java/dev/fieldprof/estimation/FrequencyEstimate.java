package dev.fieldprof.estimation;

/**
 * The unbiased estimate of one window (docs/architecture.md, "The privacy contract"): n, Ĝ, the
 * normalized ĝ = Ĝ/(n·k) and the standard error of every ĝ(v).
 *
 * @param reports n
 * @param unbiased Ĝ(v) = ((a + 1)·F̂(v) − n·k) / (a − 1); user-level: n·ĝ(v)
 * @param normalized ĝ(v) = Ĝ(v) / (n·k); user-level: (S(v)/n − q)/(p − q)
 * @param standardError √(a/(n·k)) / (a − 1); user-level: √(q(1−q)/n)/(p − q), a method of share 0
 *     ({@link FrequencyEstimator})
 */
public record FrequencyEstimate(
        long reports, double[] unbiased, double[] normalized, double standardError) {}
