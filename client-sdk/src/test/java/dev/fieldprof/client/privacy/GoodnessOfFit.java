package dev.fieldprof.client.privacy;

import java.util.function.IntToDoubleFunction;

/**
 * Pearson's chi-square goodness-of-fit test against an exact pmf, for the statistical tests of the
 * samplers. Cells with expected count below 5 are pooled so that the chi-square approximation of
 * the statistic holds.
 */
final class GoodnessOfFit {
    private GoodnessOfFit() {}

    /**
     * Returns the p-value of observing {@code observed} (indexed from {@code low}) under the pmf.
     */
    static double pValue(long[] observed, int low, IntToDoubleFunction pmf) {
        long total = 0;
        for (long o : observed) {
            total += o;
        }
        double statistic = 0;
        int cells = 0;
        double pooledExpected = 0;
        long pooledObserved = 0;
        double covered = 0;
        for (int i = 0; i < observed.length; i++) {
            double probability = pmf.applyAsDouble(low + i);
            covered += probability;
            pooledExpected += probability * total;
            pooledObserved += observed[i];
            if (pooledExpected >= 5) {
                statistic += square(pooledObserved - pooledExpected) / pooledExpected;
                cells++;
                pooledExpected = 0;
                pooledObserved = 0;
            }
        }
        // Mass outside the observed range joins the last cell.
        pooledExpected += Math.max(0, 1 - covered) * total;
        if (pooledExpected > 0 || pooledObserved > 0) {
            statistic += square(pooledObserved - pooledExpected) / Math.max(pooledExpected, 1e-300);
            cells++;
        }
        int degrees = Math.max(1, cells - 1);
        return upperTail(statistic, degrees);
    }

    private static double square(double x) {
        return x * x;
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
