package dev.fieldprof.schemas;

/**
 * The standard error of one method's unbiased estimate ĝ(v) in an {@link EstimateWindow}, the one
 * its 95% interval ĝ(v) ± 1.96·se(v) must use (docs/architecture.md, "The estimator"). Records
 * written since v4 carry one per method ({@code standardErrors}); older ones carry only the common
 * {@code standardError}, which is every method's in ε-t mode and the share-0 one in user-level mode
 * (too small for a method of larger share), so it is the fallback, not the rule. Stateless.
 */
public final class StandardErrors {
    private StandardErrors() {}

    /**
     * se(v) of {@code window}: its per-method standard error when it carries one for every method
     * and that one is a finite number >= 0, otherwise its common standard error.
     *
     * @param v a method id of the window
     */
    public static double of(EstimateWindow window, int v) {
        java.util.List<Double> perMethod = window.getStandardErrors();
        if (perMethod != null
                && perMethod.size() == window.getNormalized().size()
                && v >= 0
                && v < perMethod.size()) {
            Double value = perMethod.get(v);
            if (usable(value)) {
                return value;
            }
        }
        return window.getStandardError();
    }

    /** Whether {@code window} carries a standard error per method (written since v4). */
    public static boolean perMethod(EstimateWindow window) {
        return window.getStandardErrors() != null
                && !window.getStandardErrors().isEmpty()
                && window.getStandardErrors().size() == window.getNormalized().size();
    }

    /** The largest se(v) of {@code window} (its common one for records written before v4). */
    public static double largest(EstimateWindow window) {
        if (!perMethod(window)) {
            return window.getStandardError();
        }
        double largest = 0;
        for (int v = 0; v < window.getStandardErrors().size(); v++) {
            largest = Math.max(largest, of(window, v));
        }
        return largest;
    }

    /** A record from Kafka is hostile: a missing, negative or infinite error is not used. */
    private static boolean usable(Double value) {
        return value != null && value >= 0 && !value.isInfinite();
    }
}
