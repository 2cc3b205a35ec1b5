package dev.fieldprof.estimation;

import dev.fieldprof.ldp.PrivacyParameters;
import dev.fieldprof.ldp.SubsetSelection;
import dev.fieldprof.schemas.PrivacyMode;

/**
 * Turns a sum of randomized reports into unbiased estimates of the share profile, for either
 * privacy mode. Immutable and thread-safe.
 *
 * <p><b>ε-t mode</b>: the estimator of frequency profiling (docs/references.md; its Section 4.2,
 * equation 2) as docs/architecture.md, "The estimator", states it: Ĝ(v) = ((a + 1)·F̂(v) − n·k)/(a
 * − 1), ĝ = Ĝ/(n·k), standard error √(a/(n·k))/(a − 1) for every v.
 *
 * <p><b>User-level mode</b> ({@link SubsetSelection}): the window's sum holds S(v) = Σ_i 1[v ∈ Z_i]
 * over its n reports, and with the oracle's p = Pr[v ∈ Z | x = v] and q = Pr[v ∈ Z | x ≠ v]
 *
 * <pre>
 *   ĝ(v) = (S(v)/n − q) / (p − q)        E[ĝ(v)] = g(v) = (1/n) Σ_i Pr[x_i = v]
 *   Ĝ(v) = n·ĝ(v)                         (k = 1: one event per report)
 *   SE(ĝ(v)) = √(Σ_i μ_i(1 − μ_i)) / (n (p − q)),   μ_i = q + (p − q)·Pr[x_i = v]
 * </pre>
 *
 * x_i being report i's event, drawn uniformly from its epoch, so g(v) is the mean of the
 * device-epochs' shares of v, each weighted equally. Unbiased because E[1[v ∈ Z_i]] = μ_i exactly
 * (p and q are the device's exact dyadic probabilities). The standard error carried in the estimate
 * is the one of a method of share 0, √(q(1 − q)/n)/(p − q), the same for every v; a method of share
 * g has the one above, larger by at most the factor √(max μ(1−μ)/(q(1−q))) over μ in [q, p]. The
 * sum is an ordinary {@link PartialSum} (validation expands a subset into its 0/1 vector), so the
 * window sums, merges, generations and cumulative estimates are the ε-t mode's.
 */
public final class FrequencyEstimator {
    private final PrivacyParameters parameters;
    private final double a;

    /** The user-level oracle of the last width estimated (ω depends on |V|). */
    private volatile SubsetSelection oracle;

    public FrequencyEstimator(PrivacyParameters parameters) {
        this.parameters = parameters;
        this.a = parameters.a();
    }

    public PrivacyParameters parameters() {
        return parameters;
    }

    /**
     * Ĝ, ĝ and the standard error of a sum of {@code n >= 1} reports; in user-level mode the sum's
     * width is |V|.
     *
     * @throws IllegalArgumentException when the sum holds no report
     */
    public FrequencyEstimate estimate(PartialSum sum) {
        long n = sum.getReports();
        if (n < 1) {
            throw new IllegalArgumentException("cannot estimate from 0 reports");
        }
        long[] sums = sum.getSums();
        double[] unbiased = new double[sums.length];
        double[] normalized = new double[sums.length];
        if (parameters.mode() == PrivacyMode.USER_LEVEL) {
            SubsetSelection subsets = oracle(sums.length);
            double p = subsets.p();
            double q = subsets.q();
            for (int v = 0; v < sums.length; v++) {
                normalized[v] = ((double) sums[v] / n - q) / (p - q);
                unbiased[v] = normalized[v] * n;
            }
            return new FrequencyEstimate(n, unbiased, normalized, subsets.standardErrorAtZero(n));
        }
        double nk = (double) n * parameters.k();
        for (int v = 0; v < sums.length; v++) {
            unbiased[v] = ((a + 1.0) * sums[v] - nk) / (a - 1.0);
            normalized[v] = unbiased[v] / nk;
        }
        return new FrequencyEstimate(n, unbiased, normalized, standardError(n));
    }

    /** The user-level mode's oracle at |V| = {@code width}. */
    public SubsetSelection oracle(int width) {
        SubsetSelection current = oracle;
        if (current == null || current.domainSize() != width) {
            current = new SubsetSelection(width, parameters.epsilon());
            oracle = current;
        }
        return current;
    }

    /**
     * √(a/(n·k)) / (a − 1): the standard error of every ĝ(v) from n reports in ε-t mode. In
     * user-level mode it depends on |V|: {@link #standardError(long, int)}.
     */
    public double standardError(long n) {
        if (parameters.mode() == PrivacyMode.USER_LEVEL) {
            throw new IllegalStateException("user-level standard errors depend on |V|");
        }
        return epsilonTStandardError(parameters, n);
    }

    /**
     * √(a/(n·k)) / (a − 1) for ε-t parameters and n reports (a predicted count need not be whole).
     */
    public static double epsilonTStandardError(PrivacyParameters parameters, double n) {
        double a = parameters.a();
        return Math.sqrt(a / (n * parameters.k())) / (a - 1.0);
    }

    /**
     * The standard error of ĝ(v) from n reports over |V| = width methods (share 0 in user-level).
     */
    public double standardError(long n, int width) {
        return parameters.mode() == PrivacyMode.USER_LEVEL
                ? oracle(width).standardErrorAtZero(n)
                : standardError(n);
    }
}
