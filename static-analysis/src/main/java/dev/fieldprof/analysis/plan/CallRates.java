package dev.fieldprof.analysis.plan;

/**
 * How often each method runs relative to the average method (1 = as often as the mean of the priced
 * shares), the factor {@link MethodCosts#timesCallRates} weighs static costs by. Made from
 * estimated shares of all method entries (the frequency job's ĝ) or from exact entry counts of a
 * recorded run.
 *
 * <p>ĝ is unbiased, so a rarely run method's estimate is often zero or negative and a small
 * positive one is as much noise as signal. Every share below {@code floorShare} is raised to it
 * (the CLI's default floor is the estimate's standard error: a method whose share cannot be told
 * from 0 is priced as if it ran that often), and {@link #clamped} says how many were.
 */
public final class CallRates {

    private final double[] rates;
    private final int clamped;
    private final double floorShare;

    private CallRates(double[] rates, int clamped, double floorShare) {
        this.rates = rates;
        this.clamped = clamped;
        this.floorShare = floorShare;
    }

    /**
     * @param shares estimated share of all method entries per method id (may be negative or above
     *     1; must be finite), at least one method
     * @param floorShare the least share a method is priced at, finite and {@code >= 0}
     * @throws IllegalArgumentException naming the first bad value
     */
    public static CallRates fromShares(double[] shares, double floorShare) {
        if (shares.length == 0) {
            throw new IllegalArgumentException("need the share of at least one method");
        }
        if (!(floorShare >= 0) || Double.isInfinite(floorShare)) {
            throw new IllegalArgumentException(
                    "call-rate floor must be a finite share >= 0, was " + floorShare);
        }
        double[] floored = new double[shares.length];
        int clamped = 0;
        double sum = 0;
        for (int m = 0; m < shares.length; m++) {
            double share = shares[m];
            if (!Double.isFinite(share)) {
                throw new IllegalArgumentException(
                        "estimated share of method " + m + " is not a number: " + share);
            }
            if (share <= floorShare) {
                share = floorShare;
                clamped++;
            }
            floored[m] = share;
            sum += share;
        }
        if (!(sum > 0)) {
            throw new IllegalArgumentException(
                    "no method has a positive share, and the call-rate floor is 0");
        }
        // Relative to the mean of the priced shares, not to 1/|V|: raising shares to the floor
        // adds to their sum, and an estimate from few reports (a floor near or above 1/|V|) would
        // otherwise price every method far above the mean, so that none fits an h-bound chosen
        // in the static unit. Uninformative estimates thus leave the static costs as they were.
        double mean = sum / shares.length;
        double[] rates = new double[shares.length];
        for (int m = 0; m < shares.length; m++) {
            rates[m] = floored[m] / mean;
        }
        return new CallRates(rates, clamped, floorShare);
    }

    /**
     * Exact entry counts of a recorded run; a method never entered has rate 0 (and so costs the
     * least unit, 1, after {@link MethodCosts#timesCallRates}).
     *
     * @param counts entries per method id, each {@code >= 0}, not all 0
     */
    public static CallRates fromCounts(long[] counts) {
        long total = 0;
        for (int m = 0; m < counts.length; m++) {
            if (counts[m] < 0) {
                throw new IllegalArgumentException(
                        "entry count of method " + m + " must be >= 0, was " + counts[m]);
            }
            total += counts[m];
        }
        if (total == 0) {
            throw new IllegalArgumentException("the recorded run entered no method");
        }
        double[] shares = new double[counts.length];
        for (int m = 0; m < counts.length; m++) {
            shares[m] = (double) counts[m] / total;
        }
        return fromShares(shares, 0);
    }

    /** The relative call rate of each method id (a copy). */
    public double[] rates() {
        return rates.clone();
    }

    /** How many methods' shares were at or below the floor and were priced at it. */
    public int clamped() {
        return clamped;
    }

    public double floorShare() {
        return floorShare;
    }

    public int size() {
        return rates.length;
    }
}
