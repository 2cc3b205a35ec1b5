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
 * (p and q are the device's exact dyadic probabilities). The sum is an ordinary {@link PartialSum}
 * (validation expands a subset into its 0/1 vector), so the window sums, merges, generations and
 * cumulative estimates are the ε-t mode's.
 *
 * <p><b>Standard errors.</b> Each estimate carries one per method ({@link
 * FrequencyEstimate#standardErrors()}), the one its 95% interval ĝ(v) ± 1.96·se(v) must use.
 *
 * <ul>
 *   <li>ε-t mode: √(a/(n·k))/(a − 1) for every v. It is exact at every share: a reported count
 *       R(F)(v) = Binomial(F(v), p) + Binomial(k − F(v), 1 − p) has variance F(v)·p(1 − p) + (k −
 *       F(v))·p(1 − p) = k·p(1 − p) whatever F(v), so a per-method plug-in would only add noise.
 *   <li>User-level mode: the plug-in √(μ̂(1 − μ̂)/n)/(p − q) with μ̂ = S(v)/n. The true standard
 *       error above grows with the share (by √(μ(1 − μ)/(q(1 − q))) at μ = q + (p − q)·g: 1.56
 *       times the share-0 one at |V| = 90, ε = ln 9, g = 0.5), so the share-0 one that estimates
 *       carried before made intervals that covered 80% at g = 0.5. The plug-in's formula is the
 *       exact variance for iid devices (every Pr[x_i = v] equal: S(v) is then Binomial(n, μ), and
 *       μ̂ estimates μ without bias) and an upper bound otherwise: with μ̄ the mean of the μ_i, Σ_i
 *       μ_i(1 − μ_i) = n·μ̄(1 − μ̄) − Σ_i (μ_i − μ̄)² ≤ n·μ̄(1 − μ̄), and E[μ̂] = μ̄, so devices
 *       that differ only make the truth smaller than what the plug-in estimates. μ̂ is clamped into
 *       [q, p] first: μ̄ is a mean of μ_i in [q, p], so a μ̂ outside it is noise and the clamped
 *       value is closer to μ̄ (a ĝ below 0 gets the share-0 error, one above 1 the share-1 error);
 *       without the clamp a window with S(v) = 0 would claim an error of 0. The plug-in's square is
 *       biased low by the factor (n − 1)/n under iid devices (0.05% of the standard error at n =
 *       1,000), left as it is.
 * </ul>
 *
 * {@link FrequencyEstimate#standardError()} keeps the common one (share 0 in user-level mode), the
 * only one records written before the per-method errors carry.
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
     * Ĝ, ĝ and the standard errors of a sum of {@code n >= 1} reports; in user-level mode the sum's
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
            double[] errors = new double[sums.length];
            for (int v = 0; v < sums.length; v++) {
                normalized[v] = ((double) sums[v] / n - q) / (p - q);
                unbiased[v] = normalized[v] * n;
                errors[v] = plugInStandardError(subsets, sums[v], n);
            }
            return new FrequencyEstimate(
                    n, unbiased, normalized, errors, subsets.standardErrorAtZero(n));
        }
        double nk = (double) n * parameters.k();
        for (int v = 0; v < sums.length; v++) {
            unbiased[v] = ((a + 1.0) * sums[v] - nk) / (a - 1.0);
            normalized[v] = unbiased[v] / nk;
        }
        double common = standardError(n);
        double[] errors = new double[sums.length];
        java.util.Arrays.fill(errors, common);
        return new FrequencyEstimate(n, unbiased, normalized, errors, common);
    }

    /**
     * The user-level plug-in standard error of ĝ(v) = (S(v)/n − q)/(p − q): √(μ̂(1 − μ̂)/n)/(p − q)
     * with μ̂ = S(v)/n clamped into [q, p] (why: the class comment).
     *
     * @param inclusions S(v), the reports whose subset holds v
     * @param n the reports, >= 1
     */
    public static double plugInStandardError(SubsetSelection oracle, long inclusions, long n) {
        double mu = Math.min(oracle.p(), Math.max(oracle.q(), (double) inclusions / n));
        return Math.sqrt(mu * (1 - mu) / n) / (oracle.p() - oracle.q());
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
