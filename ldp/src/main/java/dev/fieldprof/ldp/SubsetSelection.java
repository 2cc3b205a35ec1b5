package dev.fieldprof.ldp;

import java.io.Serializable;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Arrays;

/**
 * The frequency oracle of the user-level mode: ω-subset selection over the d = |V| methods (Wang,
 * Lopuhaä-Zwakenberg et al., "Mutual information optimally local private discrete distribution
 * estimation", 2016; Ye and Barg, "Optimal schemes for discrete distribution estimation under
 * locally differential privacy", IEEE Trans. Inf. Theory 2018, section III). A device reports one
 * event x of its epoch as a set Z of ω methods:
 *
 * <pre>
 *   Pr[Z | x] = P / C(d−1, ω−1)       if x ∈ Z
 *   Pr[Z | x] = (1 − P) / C(d−1, ω)   if x ∉ Z,       P ≈ ω·e^ε / (ω·e^ε + d − ω)
 * </pre>
 *
 * so every output's probability changes by at most the factor P(d−ω) / ((1−P)ω) ≤ e^ε between any
 * two inputs: one report is ε-LDP for the whole epoch (the event is the epoch's only contribution).
 *
 * <p><b>Why subset selection.</b> For a method v let p = Pr[v ∈ Z | x = v] = P and q = Pr[v ∈ Z | x
 * ≠ v] = (ω − P)/(d − 1). With Y_i(v) = 1[v ∈ Z_i] over n reports, ĝ(v) = (Σ Y_i(v)/n − q)/(p − q)
 * is unbiased for the mean of the devices' shares g(v) = (1/n) Σ Pr[x_i = v], and for a method of
 * share 0 its variance is
 *
 * <pre>
 *   Var ĝ(v) = q(1 − q) / (n (p − q)²)                      (share 0)
 *   Var ĝ(v) = (1/n²) Σ_i μ_i(1 − μ_i) / (p − q)²,  μ_i = q + (p − q)·Pr[x_i = v]    (in general)
 * </pre>
 *
 * {@link OracleVariance} evaluates this against optimal local hashing (Wang et al., USENIX Security
 * 2017, Var = (e^ε + g − 1)² / ((g − 1)(e^ε − 1)²), g = e^ε + 1 rounded) and Hadamard response
 * (Acharya, Sun and Zhang, AISTATS 2019, support counts: Var = (e^ε + 1)²/(e^ε − 1)²) at
 * fieldprof's |V| (200 .. 5000) and ε (ln 3, 2, ln 9, 4, 6, 8): subset selection with the ω that
 * minimizes the formula has the smallest variance at every point of that grid. OLH comes within
 * 0.1-1.3% of it at ε = ln 3 (n·Var 3.000 against 2.960-2.998) and is 1.5 to 3.8 times worse at ε =
 * 8 (0.00134 against 0.00036-0.00090), where ω = 1 (randomized response) is optimal because e^ε + 1
 * is comparable to |V|; Hadamard response is 1.33 times worse at ε = ln 3 and over 1000 times at ε
 * = 8 (its variance never falls below 1). {@code OracleVarianceTest} prints the table. ω is chosen
 * per (d, ε) by {@link #optimalSubsetSize} (the formula minimized over every ω, ties to the
 * smaller), near d/(e^ε + 1); ω = 1 is k-ary randomized response.
 *
 * <p><b>Why exact.</b> The only irrational quantity is P. It is replaced by the dyadic rational P̃
 * = T/2^53, T the largest integer with T(d − ω) ≤ (2^53 − T)·ω·E, E = the double below {@code
 * Math.exp(ε)} (which is within one ulp of e^ε, so E ≤ e^ε); the comparison is done in exact
 * decimal arithmetic. The device draws a uniform 53-bit integer j and includes x iff j < T, so Pr[x
 * ∈ Z] is exactly P̃; the rest of Z is a uniform subset of the other d − 1 methods drawn by Floyd's
 * algorithm from uniform integers made by rejection (no modulo bias). The implemented distribution
 * is therefore exactly the one above with P̃ in place of P, and its worst-case ratio T(d −
 * ω)/((2^53 − T)ω) ≤ E ≤ e^ε holds as a statement about rationals, not about rounded doubles; it
 * falls short of e^ε by less than 2^-50 relative. The server estimates with the same P̃ (p = P̃, q
 * = (ω − P̃)/(d − 1)), so rounding costs no bias either.
 *
 * <p>Immutable and thread-safe (the random source passed to {@link #randomize} is not).
 */
public final class SubsetSelection implements Serializable {
    private static final long serialVersionUID = 1L;
    private static final long TWO_53 = 1L << 53;

    private final int domainSize;
    private final double epsilon;
    private final int subsetSize;
    private final long threshold;
    private final double p;
    private final double q;

    /**
     * The oracle with the variance-optimal subset size {@link #optimalSubsetSize(int, double)}.
     *
     * <pre>{@code
     * SubsetSelection oracle = new SubsetSelection(500, Math.log(3));
     * int[] subset = oracle.randomize(new ChaCha20RandomSource(), 17);
     * }</pre>
     *
     * @param domainSize d = |V|, in [2, 10^8]
     * @param epsilon ε, finite, in [{@link PrivacyParameters#MIN_USER_LEVEL_EPSILON}, {@link
     *     PrivacyParameters#MAX_USER_LEVEL_EPSILON}]
     */
    public SubsetSelection(int domainSize, double epsilon) {
        this(domainSize, epsilon, optimalSubsetSize(checkDomain(domainSize), epsilon));
    }

    /**
     * The oracle with a given subset size ω in [1, d − 1]; same ranges as above.
     *
     * @throws IllegalArgumentException if a bound is violated, naming it
     */
    public SubsetSelection(int domainSize, double epsilon, int subsetSize) {
        checkDomain(domainSize);
        if (!(epsilon >= PrivacyParameters.MIN_USER_LEVEL_EPSILON
                && epsilon <= PrivacyParameters.MAX_USER_LEVEL_EPSILON)) {
            throw new IllegalArgumentException(
                    "epsilon must be in ["
                            + PrivacyParameters.MIN_USER_LEVEL_EPSILON
                            + ", "
                            + PrivacyParameters.MAX_USER_LEVEL_EPSILON
                            + "] for the user-level oracle, got "
                            + epsilon);
        }
        if (subsetSize < 1 || subsetSize > domainSize - 1) {
            throw new IllegalArgumentException(
                    "subset size must be in [1, d-1=" + (domainSize - 1) + "], got " + subsetSize);
        }
        this.domainSize = domainSize;
        this.epsilon = epsilon;
        this.subsetSize = subsetSize;
        this.threshold = inclusionThreshold(domainSize, epsilon, subsetSize);
        this.p = threshold / (double) TWO_53; // exact: threshold < 2^53
        this.q = (subsetSize - p) / (domainSize - 1);
        if (!(p > q)) {
            throw new IllegalArgumentException(
                    "epsilon=" + epsilon + " is too small for d=" + domainSize + ": p <= q");
        }
    }

    private static int checkDomain(int domainSize) {
        if (domainSize < 2 || domainSize > 100_000_000) {
            throw new IllegalArgumentException(
                    "domain size d must be in [2, 10^8], got " + domainSize);
        }
        return domainSize;
    }

    /**
     * T: the largest integer with T(d − ω) ≤ (2^53 − T)·ω·E, E = nextDown(exp(ε)) ≤ e^ε, decided in
     * exact decimal arithmetic.
     */
    static long inclusionThreshold(int d, double epsilon, int omega) {
        BigDecimal e = new BigDecimal(Math.nextDown(Math.exp(epsilon)));
        BigDecimal omegaE = e.multiply(BigDecimal.valueOf(omega));
        BigDecimal rest = BigDecimal.valueOf((long) d - omega);
        BigDecimal two53 = BigDecimal.valueOf(TWO_53);
        long t =
                two53.multiply(omegaE)
                        .divide(omegaE.add(rest), new MathContext(40, RoundingMode.FLOOR))
                        .setScale(0, RoundingMode.FLOOR)
                        .longValueExact();
        while (t > 0 && !fits(t, rest, omegaE, two53)) {
            t--;
        }
        while (t + 1 < TWO_53 && fits(t + 1, rest, omegaE, two53)) {
            t++;
        }
        return t;
    }

    private static boolean fits(long t, BigDecimal rest, BigDecimal omegaE, BigDecimal two53) {
        BigDecimal bt = BigDecimal.valueOf(t);
        return bt.multiply(rest).compareTo(two53.subtract(bt).multiply(omegaE)) <= 0;
    }

    /**
     * The ω in [1, d − 1] that minimizes the share-0 variance q(1 − q)/(p − q)² with the ideal P =
     * ωe^ε/(ωe^ε + d − ω); ties go to the smaller ω (fewer ids per report).
     */
    public static int optimalSubsetSize(int domainSize, double epsilon) {
        checkDomain(domainSize);
        double e = Math.exp(epsilon);
        int best = 1;
        double bestVariance = Double.POSITIVE_INFINITY;
        for (int omega = 1; omega < domainSize; omega++) {
            double variance = OracleVariance.subsetSelection(domainSize, e, omega);
            if (variance < bestVariance * (1 - 1e-12)) {
                best = omega;
                bestVariance = variance;
            }
        }
        return best;
    }

    /**
     * Randomizes one event.
     *
     * @param random a cryptographically secure source on devices, a seeded one in tests
     * @param value the event's method id x in [0, d)
     * @return Z: ω distinct method ids in increasing order
     */
    public int[] randomize(RandomSource random, int value) {
        if (value < 0 || value >= domainSize) {
            throw new IllegalArgumentException(
                    "value must be in [0, d=" + domainSize + "), got " + value);
        }
        boolean include = (random.nextLong() >>> 11) < threshold; // Pr = T / 2^53 exactly
        int others = include ? subsetSize - 1 : subsetSize;
        int[] subset = new int[subsetSize];
        int size = 0;
        if (include) {
            subset[size++] = value;
        }
        // Floyd's algorithm: a uniform others-subset of [0, d - 1), then skip over x.
        int n = domainSize - 1;
        java.util.HashSet<Integer> chosen = new java.util.HashSet<>(2 * others + 1);
        for (int j = n - others; j < n; j++) {
            int r = uniform(random, j + 1);
            int pick = chosen.add(r) ? r : j;
            if (pick == j) {
                chosen.add(j);
            }
            subset[size++] = pick >= value ? pick + 1 : pick;
        }
        Arrays.sort(subset);
        return subset;
    }

    /** A uniform integer in [0, bound), bound >= 1, by rejection from 63 random bits. */
    static int uniform(RandomSource random, int bound) {
        long limit = Long.MAX_VALUE - (Long.MAX_VALUE % bound + 1) % bound; // multiple of bound, -1
        while (true) {
            long r = random.nextLong() >>> 1;
            if (r <= limit) {
                return (int) (r % bound);
            }
        }
    }

    /** Pr[Z | x] exactly for an ω-subset Z, as a decimal (for the audit and the tests). */
    public BigDecimal probability(int[] subset, int value, MathContext precision) {
        boolean contains = false;
        for (int z : subset) {
            contains |= z == value;
        }
        BigDecimal pTilde =
                BigDecimal.valueOf(threshold).divide(BigDecimal.valueOf(TWO_53)); // exact: dyadic
        return contains
                ? pTilde.divide(new BigDecimal(binomial(domainSize - 1, subsetSize - 1)), precision)
                : BigDecimal.ONE
                        .subtract(pTilde)
                        .divide(new BigDecimal(binomial(domainSize - 1, subsetSize)), precision);
    }

    /**
     * The worst-case ratio Pr[Z | x] / Pr[Z | x'] over all outputs and inputs: T(d − ω)/((2^53 −
     * T)ω), attained by any Z with x ∈ Z and x' ∉ Z; at most e^ε.
     */
    public BigDecimal worstCaseRatio(MathContext precision) {
        return BigDecimal.valueOf(threshold)
                .multiply(BigDecimal.valueOf((long) domainSize - subsetSize))
                .divide(
                        BigDecimal.valueOf(TWO_53 - threshold)
                                .multiply(BigDecimal.valueOf(subsetSize)),
                        precision);
    }

    static BigInteger binomial(int n, int k) {
        BigInteger result = BigInteger.ONE;
        for (int i = 0; i < k; i++) {
            result = result.multiply(BigInteger.valueOf(n - i)).divide(BigInteger.valueOf(i + 1));
        }
        return result;
    }

    /** d = |V|. */
    public int domainSize() {
        return domainSize;
    }

    public double epsilon() {
        return epsilon;
    }

    /** ω: the number of method ids in every report. */
    public int subsetSize() {
        return subsetSize;
    }

    /** T: x is included with probability exactly T/2^53. */
    public long inclusionThreshold() {
        return threshold;
    }

    /** p = Pr[v ∈ Z | x = v] = T/2^53. */
    public double p() {
        return p;
    }

    /** q = Pr[v ∈ Z | x ≠ v] = (ω − p)/(d − 1). */
    public double q() {
        return q;
    }

    /** The standard error of ĝ(v) from n reports for a method of share 0: √(q(1−q)/n)/(p−q). */
    public double standardErrorAtZero(long n) {
        return standardError(0, n);
    }

    /**
     * The standard error of ĝ(v) from n reports for a method of share g: √(μ(1−μ)/n)/(p−q) with μ =
     * q + (p−q)·g, exact when every device's share of v is g and an upper bound otherwise (the
     * devices' Σ μ_i(1−μ_i) is at most n·μ(1−μ) at their mean μ).
     *
     * @param share g in [0, 1]
     * @param n reports, > 0 (a predicted count need not be whole)
     */
    public double standardError(double share, double n) {
        double mu = q + (p - q) * share;
        return Math.sqrt(mu * (1 - mu) / n) / (p - q);
    }

    @Override
    public String toString() {
        return "SubsetSelection(d="
                + domainSize
                + ", epsilon="
                + epsilon
                + ", omega="
                + subsetSize
                + ")";
    }
}
