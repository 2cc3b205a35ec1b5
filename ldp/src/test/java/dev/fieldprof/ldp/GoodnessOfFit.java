package dev.fieldprof.ldp;

import java.util.function.LongToDoubleFunction;

/**
 * Pearson's chi-square goodness-of-fit test against an exact pmf, for the statistical tests of the
 * samplers.
 *
 * <p>Cells are pooled left to right until each holds an expected count of at least {@value
 * #MIN_EXPECTED}; a remainder below that at the right end joins its left neighbour. The first and
 * last histogram cells are the tails: they count every draw at or beyond them and expect the whole
 * tail mass, so nothing lies outside the test. With c cells after pooling the statistic is compared
 * with the chi-square(c − 1) quantile at the test's significance, computed from the regularized
 * incomplete gamma function below (tested against closed forms in {@code GoodnessOfFitTest}).
 *
 * <p>What the stated false-failure probability means: Pearson's statistic of a multinomial with
 * every expectation at least 5 follows chi-square(c − 1) up to the asymptotic approximation (the
 * classical rule for it); the critical value is that law's exact quantile, not a table value or a
 * df guessed before pooling.
 */
final class GoodnessOfFit {
    static final double MIN_EXPECTED = 5;

    private GoodnessOfFit() {}

    /** The pooled test's numbers, for assertions and failure messages. */
    record Result(double statistic, int degrees, double critical, double pValue) {
        boolean accepts() {
            return statistic <= critical;
        }

        @Override
        public String toString() {
            return String.format(
                    "chi2=%.3f df=%d critical=%.3f p=%.3g", statistic, degrees, critical, pValue);
        }
    }

    /**
     * Tests a histogram against a pmf. {@code observed[i]} counts the draws equal to low + i,
     * except that {@code observed[0]} counts every draw <= low and the last cell every draw >= low
     * + length − 1 (callers clamp). The pmf must be unimodal with its mode inside the window, so
     * that the tail sums below converge.
     */
    static Result test(long[] observed, long low, LongToDoubleFunction pmf, double significance) {
        int cells = observed.length;
        long total = 0;
        for (long o : observed) {
            total += o;
        }
        double[] probability = new double[cells];
        double inside = 0;
        for (int i = 0; i < cells; i++) {
            probability[i] = pmf.applyAsDouble(low + i);
            inside += probability[i];
        }
        double lowerTail = tailBeyond(pmf, low, -1);
        double upperTail = tailBeyond(pmf, low + cells - 1, +1);
        probability[0] += lowerTail;
        probability[cells - 1] += upperTail;
        return pooled(observed, probability, total, significance);
    }

    /** The same test for a pmf given as the probabilities of each cell (summing to 1). */
    static Result test(long[] observed, double[] probability, double significance) {
        long total = 0;
        for (long o : observed) {
            total += o;
        }
        return pooled(observed, probability.clone(), total, significance);
    }

    private static Result pooled(
            long[] observed, double[] probability, long total, double significance) {
        int n = observed.length;
        double[] expected = new double[n];
        long[] counts = new long[n];
        int cells = 0;
        double poolE = 0;
        long poolO = 0;
        for (int i = 0; i < n; i++) {
            poolE += probability[i] * total;
            poolO += observed[i];
            if (poolE >= MIN_EXPECTED) {
                expected[cells] = poolE;
                counts[cells] = poolO;
                cells++;
                poolE = 0;
                poolO = 0;
            }
        }
        if (cells == 0) {
            throw new IllegalArgumentException("fewer than " + MIN_EXPECTED + " expected draws");
        }
        // The right-hand remainder (expectation below 5) joins its neighbour.
        expected[cells - 1] += poolE;
        counts[cells - 1] += poolO;
        if (cells < 2) {
            throw new IllegalArgumentException("one cell after pooling: no degree of freedom");
        }
        double statistic = 0;
        for (int c = 0; c < cells; c++) {
            double d = counts[c] - expected[c];
            statistic += d * d / expected[c];
        }
        int degrees = cells - 1;
        return new Result(
                statistic, degrees, quantile(significance, degrees), upperTail(statistic, degrees));
    }

    /** Sum of pmf(x) for x beyond {@code from} in direction {@code step}, down to 1e-30 terms. */
    private static double tailBeyond(LongToDoubleFunction pmf, long from, int step) {
        double sum = 0;
        double previous = Double.POSITIVE_INFINITY;
        for (long x = from + step; ; x += step) {
            double term = pmf.applyAsDouble(x);
            sum += term;
            // Past the mode a unimodal pmf decreases; stop when the terms no longer matter.
            if (term <= previous && term < 1e-30) {
                return sum;
            }
            previous = term;
        }
    }

    /** The upper quantile: the x with Pr[chi2(df) >= x] = alpha, to 1e-12 relative precision. */
    static double quantile(double alpha, int degrees) {
        if (!(alpha > 0 && alpha < 1)) {
            throw new IllegalArgumentException("alpha must be in (0, 1), got " + alpha);
        }
        double lo = 0;
        double hi = Math.max(1, degrees);
        while (upperTail(hi, degrees) > alpha) {
            lo = hi;
            hi *= 2;
        }
        for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
            double mid = 0.5 * (lo + hi);
            if (upperTail(mid, degrees) > alpha) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return hi;
    }

    /** Pr[chi2(df) >= x] = Q(df/2, x/2), the regularized upper incomplete gamma function. */
    static double upperTail(double x, int degrees) {
        double a = degrees / 2.0;
        double z = x / 2.0;
        if (z <= 0) {
            return 1;
        }
        if (z < a + 1) {
            return 1 - lowerSeries(a, z);
        }
        return upperContinuedFraction(a, z);
    }

    private static double lowerSeries(double a, double z) {
        double term = 1 / a;
        double sum = term;
        for (int n = 1; n < 10_000; n++) {
            term *= z / (a + n);
            sum += term;
            if (Math.abs(term) < Math.abs(sum) * 1e-16) {
                break;
            }
        }
        return sum * Math.exp(-z + a * Math.log(z) - logGamma(a));
    }

    private static double upperContinuedFraction(double a, double z) {
        // Modified Lentz evaluation of the continued fraction for Q(a, z).
        double tiny = 1e-300;
        double b = z + 1 - a;
        double c = 1 / tiny;
        double d = 1 / b;
        double h = d;
        for (int i = 1; i < 10_000; i++) {
            double an = -i * (i - a);
            b += 2;
            d = an * d + b;
            if (Math.abs(d) < tiny) {
                d = tiny;
            }
            c = b + an / c;
            if (Math.abs(c) < tiny) {
                c = tiny;
            }
            d = 1 / d;
            double delta = d * c;
            h *= delta;
            if (Math.abs(delta - 1) < 1e-16) {
                break;
            }
        }
        return Math.exp(-z + a * Math.log(z) - logGamma(a)) * h;
    }

    /** ln Gamma(a) for a = n/2: exact recursion from Gamma(1) and Gamma(1/2). */
    static double logGamma(double a) {
        double result = 0;
        double x = a;
        while (x > 1) {
            x -= 1;
            result += Math.log(x);
        }
        return result + (x == 1 ? 0 : 0.5 * Math.log(Math.PI));
    }
}
