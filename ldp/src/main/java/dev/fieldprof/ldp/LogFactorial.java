package dev.fieldprof.ldp;

/**
 * Accurate logarithms of factorials and of factorial ratios for the rejection samplers' final
 * acceptance tests. Ratios are computed without forming the two huge logarithms separately, so that
 * ln(x!/y!) keeps full relative precision even for x, y near 10^12.
 */
final class LogFactorial {
    private static final int TABLE_SIZE = 32;
    private static final double HALF_LOG_TWO_PI = 0.5 * Math.log(2 * Math.PI);
    private static final double[] TABLE = new double[TABLE_SIZE];

    static {
        double product = 1;
        for (int i = 0; i < TABLE_SIZE; i++) {
            if (i > 0) {
                product *= i; // 31! < 2^113: exact enough in double, rounding once per step
            }
            TABLE[i] = Math.log(product);
        }
    }

    private LogFactorial() {}

    /** ln(x!) for x >= 0. */
    static double of(double x) {
        if (x < TABLE_SIZE) {
            return TABLE[(int) x];
        }
        double n = x + 1;
        return (x + 0.5) * Math.log(n) - n + HALF_LOG_TWO_PI + stirlingTail(n);
    }

    /**
     * The Stirling series remainder of ln Gamma(n) for n >= 32: error below 1e-17 there (the next
     * term is 1/(1188 n^9)).
     */
    private static double stirlingTail(double n) {
        double r = 1 / n;
        double r2 = r * r;
        return r * (1.0 / 12 - r2 * (1.0 / 360 - r2 * (1.0 / 1260 - r2 * (1.0 / 1680))));
    }

    /** ln(x!) - ln(y!) for integers x, y >= 0 (given as doubles, exact below 2^53). */
    static double ratio(double x, double y) {
        if (x == y) {
            return 0;
        }
        double gap = x - y;
        if (Math.abs(gap) <= 16) {
            // Few factors: one product and one logarithm are both faster and more precise.
            double product = 1;
            double lo = Math.min(x, y);
            double hi = Math.max(x, y);
            for (double i = lo + 1; i <= hi; i++) {
                product *= i;
            }
            return gap > 0 ? Math.log(product) : -Math.log(product);
        }
        if (x < TABLE_SIZE || y < TABLE_SIZE) {
            return of(x) - of(y);
        }
        // (x+1/2)ln(x+1) - (y+1/2)ln(y+1) rewritten so that no term is much larger than the result.
        double leading = gap * Math.log(x + 1) + (y + 0.5) * Math.log1p(gap / (y + 1));
        return leading - gap + stirlingTail(x + 1) - stirlingTail(y + 1);
    }
}
