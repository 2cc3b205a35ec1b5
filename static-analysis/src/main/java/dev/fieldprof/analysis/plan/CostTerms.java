package dev.fieldprof.analysis.plan;

/**
 * The three terms of the hill climb's cost (Section 4.3 of probe distribution (docs/references.md))
 * for one distribution: BALANCE, PACKING and ALLUSED, in cost units.
 */
public record CostTerms(double balance, double packing, long allUsed) {

    /** α·BALANCE + β·PACKING + γ·ALLUSED. */
    public double cost(CostWeights weights) {
        return weights.alpha() * balance + weights.beta() * packing + weights.gamma() * allUsed;
    }

    /**
     * BALANCE from its scaled integer form. With {@code S = Σ TimesUsed(e)} and {@code |E|} sets,
     * {@code Average(TimesUsed(E)) = S / |E|}, so {@code BALANCE = Σ_e length(e)·|TimesUsed(e)·|E|
     * − S| / |E|}: the numerator is an exact integer, so an incrementally kept BALANCE and one
     * recomputed from scratch are the same double.
     */
    static double balance(long scaledBalance, int setCount) {
        return setCount == 0 ? 0 : (double) scaledBalance / setCount;
    }

    /**
     * PACKING: with {@code ov_i} the overlap of variant {@code i} and {@code max} the largest,
     * {@code pack_i = 0} when {@code ov_i = max}, else {@code 1 / (max − ov_i)}; PACKING is their
     * sum (the published formula writes Max(OV) for the largest ov_i).
     */
    static double packing(long[] overlaps) {
        long max = Long.MIN_VALUE;
        for (long ov : overlaps) {
            max = Math.max(max, ov);
        }
        double packing = 0;
        for (long ov : overlaps) {
            if (ov != max) {
                packing += 1.0 / (max - ov);
            }
        }
        return packing;
    }
}
