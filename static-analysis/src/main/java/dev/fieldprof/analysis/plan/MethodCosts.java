package dev.fieldprof.analysis.plan;

import dev.fieldprof.schemas.MethodCfg;
import dev.fieldprof.schemas.ProgramModel;
import java.util.Arrays;

/**
 * What tracing each method costs a device, in one named unit; {@code h_bound} is counted in the
 * same unit. The published planner (probe distribution, docs/references.md) gives every probe cost
 * 1 ({@link #unit}); a method's path tracing rather costs about one coded choice per branch block
 * it runs, so {@link #branchProbes} weighs it by {@code 1 + its branch blocks} (the entry plus one
 * probe per block with several out-edges), and {@link #timesCallRates} multiplies in how often each
 * method runs where that is known.
 */
public final class MethodCosts {

    /** The published unit: every method's tracing costs 1. */
    public static final String METHODS = "methods";

    /** 1 + the method's branch blocks in its bytecode CFG. */
    public static final String BRANCH_PROBES = "branch-probes";

    private final long[] costs;
    private final String unit;

    private MethodCosts(long[] costs, String unit) {
        for (int m = 0; m < costs.length; m++) {
            if (costs[m] < 1) {
                throw new IllegalArgumentException(
                        "cost of method " + m + " must be >= 1, was " + costs[m]);
            }
        }
        this.costs = costs;
        this.unit = unit;
    }

    /**
     * @param costs cost of each method id, each {@code >= 1}
     * @param unit what the costs count, e.g. {@link #METHODS}
     */
    public static MethodCosts of(long[] costs, String unit) {
        return new MethodCosts(costs.clone(), unit);
    }

    public static MethodCosts unit(int methodCount) {
        long[] costs = new long[methodCount];
        Arrays.fill(costs, 1L);
        return new MethodCosts(costs, METHODS);
    }

    /** 1 + branch blocks per method; a method without a CFG in the model costs 1. */
    public static MethodCosts branchProbes(ProgramModel model) {
        long[] costs = new long[model.getMethods().size()];
        Arrays.fill(costs, 1L);
        for (MethodCfg cfg : model.getCfgs()) {
            int m = cfg.getMethodId();
            if (m >= 0 && m < costs.length) {
                costs[m] = 1L + cfg.getBranchBlocks().size();
            }
        }
        return new MethodCosts(costs, BRANCH_PROBES);
    }

    /**
     * These costs times an estimated relative call rate per method (1 = typical), rounded up so
     * that no method costs less than 1; the unit becomes {@code "<unit> x call rate"}.
     *
     * @param rates one finite rate {@code >= 0} per method id
     */
    public MethodCosts timesCallRates(double[] rates) {
        if (rates.length != costs.length) {
            throw new IllegalArgumentException(
                    "need one call rate per method: " + costs.length + ", got " + rates.length);
        }
        long[] weighted = new long[costs.length];
        for (int m = 0; m < costs.length; m++) {
            if (!(rates[m] >= 0) || Double.isInfinite(rates[m])) {
                throw new IllegalArgumentException(
                        "call rate of method " + m + " must be finite and >= 0, was " + rates[m]);
            }
            weighted[m] = Math.max(1L, (long) Math.ceil(costs[m] * rates[m]));
        }
        return new MethodCosts(weighted, unit + " x call rate");
    }

    public int size() {
        return costs.length;
    }

    public long cost(int method) {
        return costs[method];
    }

    public String unit() {
        return unit;
    }

    /** Sum of the costs of the given methods. */
    public long costOf(int[] methods) {
        long sum = 0;
        for (int m : methods) {
            sum += costs[m];
        }
        return sum;
    }

    public long[] toArray() {
        return costs.clone();
    }
}
