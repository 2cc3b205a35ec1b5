package dev.fieldprof.jobs.estimation;

import dev.fieldprof.client.privacy.PrivacyParameters;

/**
 * Turns a sum of randomized reports into the unbiased estimates of the profiling paper (Section
 * 4.2, equation 2) as DESIGN.md "Privacy" states them. Immutable and thread-safe.
 */
public final class FrequencyEstimator {
    private final PrivacyParameters parameters;
    private final double a;

    public FrequencyEstimator(PrivacyParameters parameters) {
        this.parameters = parameters;
        this.a = parameters.a();
    }

    public PrivacyParameters parameters() {
        return parameters;
    }

    /**
     * Ĝ, ĝ and the standard error of a sum of {@code n >= 1} reports.
     *
     * @throws IllegalArgumentException when the sum holds no report
     */
    public FrequencyEstimate estimate(PartialSum sum) {
        long n = sum.getReports();
        if (n < 1) {
            throw new IllegalArgumentException("cannot estimate from 0 reports");
        }
        long[] sums = sum.getSums();
        double nk = (double) n * parameters.k();
        double[] unbiased = new double[sums.length];
        double[] normalized = new double[sums.length];
        for (int v = 0; v < sums.length; v++) {
            unbiased[v] = ((a + 1.0) * sums[v] - nk) / (a - 1.0);
            normalized[v] = unbiased[v] / nk;
        }
        return new FrequencyEstimate(n, unbiased, normalized, standardError(n));
    }

    /** √(a/(n·k)) / (a − 1): the standard error of every ĝ(v) from n reports. */
    public double standardError(long n) {
        return Math.sqrt(a / ((double) n * parameters.k())) / (a - 1.0);
    }
}
