package dev.fieldprof.ldp;

import java.util.OptionalDouble;

/**
 * The central (ε, δ) guarantee the analyst holds for a shuffled batch of n reports when each report
 * is ε₀-LDP, by the "clone" reduction of privacy amplification by shuffling: an upper bound
 * computed numerically, and the closed form where it applies. Immutable and thread-safe; the
 * binomial weights of the batch are computed once per instance.
 *
 * <p><b>The reduction.</b> Take two batches that differ in one device's input, x⁰ or x¹. Any other
 * device's report distribution R(x) satisfies R(x) ≥ e^−ε₀·R(x⁰) and R(x) ≥ e^−ε₀·R(x¹), so it is a
 * mixture: with probability e^−ε₀/2 a report of x⁰ (a clone), with e^−ε₀/2 a report of x¹, and
 * otherwise something else. After shuffling, the analyst's view is a post-processing of how many
 * reports look like x⁰ and how many like x¹. With C ~ Bin(n − 1, e^−ε₀) clones among the other n −
 * 1 reports, A ~ Bin(C, 1/2) of them clones of x⁰, and the differing report itself (x⁰'s report
 * lands on the x⁰ side with probability α = e^ε₀/(e^ε₀ + 1)), the two batches are post-processings
 * of P = (A + Δ, C − A + 1 − Δ) and Q = (A + 1 − Δ, C − A + Δ) with Δ ~ Bern(α). So the batch is
 * (ε, δ)-DP for every δ ≥ D_{e^ε}(P‖Q) = Σ max(0, P(x) − e^ε·Q(x)), the hockey-stick divergence
 * (the same in both directions: Q is P with its coordinates swapped).
 *
 * <p><b>The computation.</b> Given C = c, P(a)/Q(a) = (a·e^ε₀ + c + 1 − a)/(a + (c + 1 − a)·e^ε₀)
 * grows with a, so the positive part is the sum over a &gt; (c + 1)·(e^(ε+ε₀) − 1)/((e^ε₀ − 1)(e^ε
 * + 1)), computed term by term from the Bin(c, 1/2) probabilities. The divergence given c, d(c),
 * does not grow with c (c + 1 clones are c clones plus an independent fair coin, a
 * post-processing), so the batch's C-values are grouped into at most {@value #MAX_BLOCKS}
 * consecutive blocks and each block is charged d of its smallest c: δ(ε) ≤ Σ Pr[C ∈ block]·d(first
 * c of block). Values of C and of A whose probability is below 10^−30 are charged in full (d ≤ 1,
 * and a term is at most its probability), bounded by their count times that probability (the
 * binomials are unimodal). Every approximation errs towards a larger δ; floating-point rounding
 * aside (relative 10^−11 or less against an exact summation), the figure is an upper bound. The
 * cost grows with √(n·e^−ε₀): a fraction of a second at n = 10^5, seconds at 10^6 to 10^7, about a
 * minute at 10^8 with ε₀ ≤ 1.
 *
 * <p>The central ε is the smallest ε with δ(ε) ≤ δ, found by bisection on [0, ε₀] (δ(ε₀) = 0: no
 * report can be more distinguishable than ε₀) to within {@value #EPSILON_TOLERANCE}, and the upper
 * end of the final interval is returned, so the figure stays an upper bound.
 *
 * <p>The guarantee is per report: it protects a device with one report in the batch. A device with
 * m reports in one batch is protected at the group level only (at most m times ε, with δ growing
 * accordingly); one report per device per batch keeps the figure per device. It assumes the
 * shuffler does not collude with the analyst: an analyst who sees who sent which report holds ε₀
 * per report, nothing more.
 */
public final class ShuffleAmplification {
    /** Largest number of d(c) evaluations per δ: blocks of consecutive C-values beyond it. */
    static final int MAX_BLOCKS = 1000;

    /** Absolute bisection tolerance on the central ε. */
    static final double EPSILON_TOLERANCE = 1e-7;

    /** Binomial probabilities below this are not summed but charged in full. */
    private static final double NEGLIGIBLE = 1e-30;

    private static final double LN2 = Math.log(2);

    /**
     * The largest ε₀ accepted: beyond it a batch of 10^9 expects fewer than 10^−12 clones, so
     * nothing is amplified, and e^ε₀ stays far from overflow.
     */
    public static final double MAX_EPSILON0 = 50;

    private final long reports;
    private final double epsilon0;
    private final double alpha;
    private final double oneMinusAlpha; // 1/(1 + e^ε₀), not 1 − α: exact for a large ε₀
    private final long[] blockStart;
    private final double[] blockWeight;
    private final double outsideWeight;

    /**
     * @param reports n, the batch size, in [1, 10^9]
     * @param epsilon0 the local ε₀ of each report, in (0, {@value #MAX_EPSILON0}]
     */
    public ShuffleAmplification(long reports, double epsilon0) {
        if (reports < 1 || reports > 1_000_000_000L) {
            throw new IllegalArgumentException(
                    "the batch size must be in [1, 10^9], got " + reports);
        }
        if (!(epsilon0 > 0 && epsilon0 <= MAX_EPSILON0)) {
            throw new IllegalArgumentException(
                    "epsilon0 must be in (0, " + MAX_EPSILON0 + "], got " + epsilon0);
        }
        this.reports = reports;
        this.epsilon0 = epsilon0;
        this.alpha = 1 / (1 + Math.exp(-epsilon0));
        this.oneMinusAlpha = 1 / (1 + Math.exp(epsilon0));
        CloneCounts counts = new CloneCounts(reports - 1, epsilon0);
        this.blockStart = counts.blockStart;
        this.blockWeight = counts.blockWeight;
        this.outsideWeight = counts.outsideWeight;
    }

    public long reports() {
        return reports;
    }

    public double epsilon0() {
        return epsilon0;
    }

    /**
     * An upper bound on the smallest δ for which the shuffled batch is (ε, δ)-DP.
     *
     * @param epsilon the central ε, >= 0
     */
    public double delta(double epsilon) {
        if (!(epsilon >= 0)) {
            throw new IllegalArgumentException("epsilon must be >= 0, got " + epsilon);
        }
        if (epsilon >= epsilon0) {
            return 0;
        }
        double expEpsilon = Math.exp(epsilon);
        // The positive part of P − e^ε·Q is where c + 1 − a < (c + 1)·β, with β = (e^ε₀ −
        // e^ε)/((e^ε₀ − 1)(e^ε + 1)) in (0, 1/2], written so that it keeps its precision when
        // it is tiny (1 − β rounds to 1 for ε near a large ε₀, and would lose the top terms).
        double beta =
                expEpsilon
                        * Math.expm1(epsilon0 - epsilon)
                        / (Math.expm1(epsilon0) * (expEpsilon + 1));
        double total = outsideWeight;
        for (int i = 0; i < blockStart.length; i++) {
            total += blockWeight[i] * cloneDivergence(blockStart[i], beta, expEpsilon);
        }
        return Math.min(1, total);
    }

    /**
     * The central ε of the batch at δ: an upper bound, within {@value #EPSILON_TOLERANCE} of the
     * smallest ε the reduction proves.
     *
     * @param delta in (0, 1)
     */
    public double centralEpsilon(double delta) {
        checkDelta(delta);
        double lo = 0;
        double hi = epsilon0;
        // The closed form, where it applies, is a proven bound: a shorter start when this
        // computation confirms it.
        OptionalDouble closed = closedForm(delta);
        if (closed.isPresent()
                && closed.getAsDouble() < hi
                && delta(closed.getAsDouble()) <= delta) {
            hi = closed.getAsDouble();
        }
        if (delta(0) <= delta) {
            return 0;
        }
        while (hi - lo > EPSILON_TOLERANCE) {
            double mid = (lo + hi) / 2;
            if (delta(mid) <= delta) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        return hi;
    }

    /** The closed form at δ for this batch, where it applies (see {@link #closedForm}). */
    public OptionalDouble closedForm(double delta) {
        return closedForm(reports, epsilon0, delta);
    }

    /**
     * The closed-form bound on the central ε of n shuffled ε₀-LDP reports: ε ≤ ln(1 + (e^ε₀ −
     * 1)/(e^ε₀ + 1)·(8·√(e^ε₀·ln(4/δ))/√n + 8·e^ε₀/n)), proved for ε₀ ≤ ln(n/(16·ln(2/δ))) and
     * empty beyond. Looser than {@link #centralEpsilon} (by about 3× at n = 10^5, ε₀ = 4) but
     * immediate.
     */
    public static OptionalDouble closedForm(long reports, double epsilon0, double delta) {
        checkDelta(delta);
        if (reports < 1 || !(epsilon0 > 0) || Double.isInfinite(epsilon0)) {
            throw new IllegalArgumentException(
                    "need n >= 1 and a finite epsilon0 > 0, got " + reports + ", " + epsilon0);
        }
        if (epsilon0 > closedFormLimit(reports, delta)) {
            return OptionalDouble.empty();
        }
        double e = Math.exp(epsilon0);
        double n = reports;
        double x = 8 * Math.sqrt(e * Math.log(4 / delta)) / Math.sqrt(n) + 8 * e / n;
        return OptionalDouble.of(Math.log1p(Math.tanh(epsilon0 / 2) * x));
    }

    /** ln(n/(16·ln(2/δ))): the largest ε₀ the closed form holds for (negative for small n). */
    public static double closedFormLimit(long reports, double delta) {
        checkDelta(delta);
        return Math.log(reports / (16 * Math.log(2 / delta)));
    }

    private static void checkDelta(double delta) {
        if (!(delta > 0 && delta < 1)) {
            throw new IllegalArgumentException("delta must be in (0, 1), got " + delta);
        }
    }

    /**
     * d(c) = Σ_a max(0, P(a) − e^ε·Q(a)) given c clones, where P(a) = α·b(a − 1) + (1 − α)·b(a),
     * Q(a) = (1 − α)·b(a − 1) + α·b(a) and b is the Bin(c, 1/2) probability. Terms are positive
     * only for c + 1 − a < (c + 1)·β with β ≤ 1/2: from about the mode of b on, where b falls.
     */
    private double cloneDivergence(long c, double beta, double expEpsilon) {
        // One a below the first positive term too: its term is clamped at 0, and a threshold
        // rounded the wrong way loses nothing.
        long first = Math.max(0, c + 1 - (long) Math.ceil((c + 1) * beta));
        double previous = halfBinomial(c, first - 1); // b(first − 1)
        double sum = 0;
        for (long a = first; a <= c + 1; a++) {
            if (previous < NEGLIGIBLE && 2 * (a - 1) >= c) {
                // Past the mode of b, every remaining term is at most its b(a − 1), and b falls
                // from here at least
                // geometrically by (c − a + 1)/a: charge the remaining tail of b in full.
                double remaining = (c + 2 - a) * previous;
                if (2 * a > c + 1) {
                    remaining = Math.min(remaining, previous * a / (2 * a - c - 1));
                }
                return Math.min(1, sum + remaining);
            }
            double current = a == 0 ? halfBinomial(c, 0) : a <= c ? previous * (c - a + 1) / a : 0;
            double p = alpha * previous + oneMinusAlpha * current;
            double q = oneMinusAlpha * previous + alpha * current;
            sum += Math.max(0, p - expEpsilon * q);
            previous = current;
        }
        return Math.min(1, sum);
    }

    /** Pr[Bin(c, 1/2) = a] for 0 ≤ a ≤ c (0 for a = −1). */
    private static double halfBinomial(long c, long a) {
        if (a < 0 || a > c) {
            return 0;
        }
        double logChoose = LogFactorial.ratio(c, a) - LogFactorial.of(c - a);
        return Math.exp(logChoose - c * LN2);
    }

    /**
     * The distribution of C ~ Bin(m, p) grouped into at most {@link #MAX_BLOCKS} blocks of
     * consecutive values, with the mass of the values left out (each below {@link #NEGLIGIBLE}).
     */
    private static final class CloneCounts {
        final long[] blockStart;
        final double[] blockWeight;
        final double outsideWeight;

        /** C ~ Bin(m, e^−ε₀). */
        CloneCounts(long m, double epsilon0) {
            double p = Math.exp(-epsilon0);
            double oneMinusP = -Math.expm1(-epsilon0);
            long mode = Math.min(m, (long) Math.floor((m + 1) * p));
            double logAtMode =
                    LogFactorial.ratio(m, mode)
                            - LogFactorial.of(m - mode)
                            - mode * epsilon0 // ln p, exactly
                            + (m - mode) * Math.log(oneMinusP);
            double atMode = Math.exp(logAtMode);
            double odds = p / oneMinusP;
            long lo = mode;
            double atLo = atMode;
            while (lo > 0 && atLo >= NEGLIGIBLE) {
                atLo = atLo * lo / ((m - lo + 1) * odds); // Pr[C = lo − 1]
                lo--;
            }
            long hi = mode;
            double atHi = atMode;
            while (hi < m && atHi >= NEGLIGIBLE) {
                atHi = atHi * (m - hi) * odds / (hi + 1); // Pr[C = hi + 1]
                hi++;
            }
            // [lo, hi] holds every value of probability ≥ NEGLIGIBLE; the rest, fewer than m + 1
            // values each below it by unimodality, is charged d = 1.
            long width = hi - lo + 1;
            long size = Math.max(1, (width + MAX_BLOCKS - 1) / MAX_BLOCKS);
            int blocks = (int) ((width + size - 1) / size);
            blockStart = new long[blocks];
            blockWeight = new double[blocks];
            // Walk up from lo again with the same ratios, so the weights are consistent.
            double current = atLo;
            for (long c = lo; c <= hi; c++) {
                int block = (int) ((c - lo) / size);
                if ((c - lo) % size == 0) {
                    blockStart[block] = c;
                }
                blockWeight[block] += current;
                if (c < hi) {
                    current = current * (m - c) * odds / (c + 1);
                }
            }
            outsideWeight = Math.min(1, (m + 1 - width) * NEGLIGIBLE);
        }
    }
}
