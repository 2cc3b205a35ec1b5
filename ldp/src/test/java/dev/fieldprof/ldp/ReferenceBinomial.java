package dev.fieldprof.ldp;

/**
 * An independent reference for Binomial(n, p) tail probabilities, in log space: the pmf relative to
 * the mode by the exact ratio f(x+1)/f(x) = (n−x)/(x+1)·p/q summed as logarithms (no factorial, no
 * Stirling series, nothing shared with {@link BinomialSampler} or {@link LogFactorial}), then
 * normalized over the window mode ± (40σ + 60). Outside that window a binomial's mass is below
 * e^-200 (its log-pmf falls at least quadratically to beyond 40σ and then faster), far below the
 * double precision of any tail the tests use. Tails are summed from the outside in, so small tails
 * keep their full relative precision.
 */
final class ReferenceBinomial {
    private final long low;
    private final double[] lowerCumulative; // Pr[X <= low + i]
    private final double[] upperCumulative; // Pr[X >= low + i]

    ReferenceBinomial(long n, double p) {
        if (!(p > 0 && p < 1) || n < 1) {
            throw new IllegalArgumentException("need n >= 1 and 0 < p < 1");
        }
        double sd = Math.sqrt(n * p * (1 - p));
        long mode = (long) Math.floor((n + 1) * p);
        mode = Math.min(n, Math.max(0, mode));
        long half = (long) Math.ceil(40 * sd + 60);
        this.low = Math.max(0, mode - half);
        long high = Math.min(n, mode + half);
        int size = (int) (high - low + 1);
        double logOdds = Math.log(p) - Math.log1p(-p);
        double[] log = new double[size];
        int m = (int) (mode - low);
        for (int i = m; i + 1 < size; i++) {
            long x = low + i;
            log[i + 1] = log[i] + Math.log((double) (n - x)) - Math.log(x + 1.0) + logOdds;
        }
        for (int i = m; i > 0; i--) {
            long x = low + i;
            log[i - 1] = log[i] - (Math.log((double) (n - x + 1)) - Math.log((double) x) + logOdds);
        }
        double total = 0;
        for (double l : log) {
            total += Math.exp(l);
        }
        double[] pmf = new double[size];
        for (int i = 0; i < size; i++) {
            pmf[i] = Math.exp(log[i]) / total;
        }
        lowerCumulative = new double[size];
        upperCumulative = new double[size];
        double sum = 0;
        for (int i = 0; i < size; i++) {
            sum += pmf[i];
            lowerCumulative[i] = sum;
        }
        sum = 0;
        for (int i = size - 1; i >= 0; i--) {
            sum += pmf[i];
            upperCumulative[i] = sum;
        }
    }

    /** Pr[X <= x]. */
    double atMost(long x) {
        if (x < low) {
            return 0;
        }
        return x - low >= lowerCumulative.length ? 1 : lowerCumulative[(int) (x - low)];
    }

    /** Pr[X >= x]. */
    double atLeast(long x) {
        if (x - low >= upperCumulative.length) {
            return 0;
        }
        return x <= low ? 1 : upperCumulative[(int) (x - low)];
    }

    /** The largest x with Pr[X <= x] <= level. */
    long lowerCut(double level) {
        long x = low - 1;
        while (atMost(x + 1) <= level) {
            x++;
        }
        return x;
    }

    /** The smallest x with Pr[X >= x] <= level. */
    long upperCut(double level) {
        long x = low + upperCumulative.length;
        while (atLeast(x - 1) <= level) {
            x--;
        }
        return x;
    }

    /**
     * The acceptance interval [lo, hi] of an exact two-sided test at level {@code alpha}: Pr[X <
     * lo] <= alpha/2 and Pr[X > hi] <= alpha/2.
     */
    long[] acceptance(double alpha) {
        return new long[] {lowerCut(alpha / 2) + 1, upperCut(alpha / 2) - 1};
    }

    /** Pr[lo <= X <= hi]. */
    double within(long lo, long hi) {
        return Math.max(0, 1 - atMost(lo - 1) - atLeast(hi + 1));
    }
}
