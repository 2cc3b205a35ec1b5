package dev.fieldprof.diff.estimates;

/**
 * The standard normal distribution's two-sided tail, for p-values of z-tests. Stateless.
 *
 * <p>Pr[|Z| ≥ z] = erfc(z / √2). erfc is computed from two textbook expansions: for x < 2 the
 * Maclaurin series erf(x) = (2/√π) Σ (−1)ⁿ x^(2n+1) / (n! (2n+1)), whose terms stay below 3 there
 * (little is lost to cancellation); for x ≥ 2 the Laplace continued fraction erfc(x) = (e^(−x²)/√π)
 * · 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + 2/(x + …))))), evaluated backwards from a fixed depth of
 * 80, which agrees with a depth of 200 to double precision for x ≥ 1.5.
 */
public final class NormalDistribution {
    /** z with Pr[|Z| ≤ z] = 0.95. */
    public static final double Z_95 = 1.959963984540054;

    private static final double SQRT_PI = Math.sqrt(Math.PI);

    private NormalDistribution() {}

    /** Pr[|Z| ≥ |z|] for a standard normal Z; 1 at z = 0, 0 for infinite z. */
    public static double twoSidedTail(double z) {
        if (Double.isNaN(z)) {
            throw new IllegalArgumentException("z must not be NaN");
        }
        return erfc(Math.abs(z) / Math.sqrt(2));
    }

    /** The complementary error function, for x >= 0. */
    static double erfc(double x) {
        if (x < 0) {
            throw new IllegalArgumentException("x must be >= 0, was " + x);
        }
        if (x < 2) {
            double term = x;
            double sum = x;
            double x2 = x * x;
            for (int n = 1; n < 200; n++) {
                term *= -x2 / n;
                double add = term / (2 * n + 1);
                sum += add;
                if (Math.abs(add) < 1e-17 * Math.abs(sum)) {
                    break;
                }
            }
            return 1 - 2 / SQRT_PI * sum;
        }
        if (x > 27) {
            return 0; // below the smallest double
        }
        double fraction = x;
        for (int n = 80; n >= 1; n--) {
            fraction = x + (n / 2.0) / fraction;
        }
        return Math.exp(-x * x) / SQRT_PI / fraction;
    }
}
