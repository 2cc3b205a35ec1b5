package dev.fieldprof.benchmarks.plan;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/**
 * The a-posteriori optimum of Section 5.3 of probe distribution (docs/references.md): the most
 * distinct exercised chains any distribution of at most {@code h} cost units per variant could have
 * identified, for the recorded traces and the given deal of sites to variants. Finding it is a
 * budgeted maximum coverage problem per variant (NP-hard), coupled across variants by counting each
 * chain once, so the study brackets it:
 *
 * <ul>
 *   <li>{@link #greedy} is a feasible distribution, hence a lower bound: for each variant in turn,
 *       add the uncovered chain (exercised at one of its sites) whose methods not yet probed cost
 *       least while it fits, until none fits; every chain the variant's probes complete counts.
 *       Probe distribution approximates its Opt greedily as well (from the full probe set down).
 *   <li>{@link #upperBound}: the exercised chains whose own cost fits h; each could be identified
 *       by a variant probing only it, no distribution identifies any other.
 * </ul>
 */
public final class OptimumBounds {

    private OptimumBounds() {}

    /** Chains some distribution of the greedy identifies; a lower bound on the optimum. */
    public static int greedy(
            FieldChains field, long[] costs, long h, int[] siteVariant, int variants) {
        BitSet covered = new BitSet();
        for (int v = 0; v < variants; v++) {
            // The chains this variant's sites exercised that no earlier variant covers.
            BitSet available = new BitSet();
            for (int s = 0; s < field.sites(); s++) {
                if (siteVariant[s] == v) {
                    for (int chain : field.chains(s)) {
                        available.set(chain);
                    }
                }
            }
            available.andNot(covered);
            int[] candidates = available.stream().toArray();
            int[][] methods = new int[candidates.length][];
            long[] missing = new long[candidates.length];
            // method -> candidates that contain it, so adding a method lowers their missing cost.
            java.util.Map<Integer, List<Integer>> containing = new java.util.HashMap<>();
            for (int i = 0; i < candidates.length; i++) {
                methods[i] = distinct(field.methods(candidates[i]));
                for (int m : methods[i]) {
                    missing[i] += costs[m];
                    containing.computeIfAbsent(m, k -> new ArrayList<>()).add(i);
                }
            }
            boolean[] probed = new boolean[field.methodCount()];
            boolean[] done = new boolean[candidates.length];
            long used = 0;
            while (true) {
                int best = -1;
                for (int i = 0; i < candidates.length; i++) {
                    if (!done[i]
                            && used + missing[i] <= h
                            && (best < 0 || missing[i] < missing[best])) {
                        best = i;
                    }
                }
                if (best < 0) {
                    break;
                }
                used += missing[best];
                for (int m : methods[best]) {
                    if (!probed[m]) {
                        probed[m] = true;
                        for (int i : containing.get(m)) {
                            missing[i] -= costs[m];
                        }
                    }
                }
                for (int i = 0; i < candidates.length; i++) {
                    if (!done[i] && missing[i] == 0) {
                        done[i] = true;
                        covered.set(candidates[i]);
                    }
                }
            }
        }
        return covered.cardinality();
    }

    /** Exercised chains whose methods cost at most {@code h} together. */
    public static int upperBound(FieldChains field, long[] costs, long h) {
        int fits = 0;
        for (int chain : field.exercised()) {
            long cost = 0;
            for (int m : distinct(field.methods(chain))) {
                cost += costs[m];
            }
            fits += cost <= h ? 1 : 0;
        }
        return fits;
    }

    private static int[] distinct(int[] methods) {
        return java.util.Arrays.stream(methods).distinct().toArray();
    }
}
