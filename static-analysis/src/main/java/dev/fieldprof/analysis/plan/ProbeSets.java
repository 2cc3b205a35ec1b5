package dev.fieldprof.analysis.plan;

import java.util.Arrays;
import java.util.List;

/**
 * The units the planner places whole into a variant, each a set of probes (method ids): single
 * probes, events (call chains) or clusters (a root and what it reaches). Section 4.1 of probe
 * distribution (docs/references.md): an event needs all of its probes in one variant to be
 * observed.
 */
public final class ProbeSets {

    private final int methodCount;
    private final int[][] sets;

    /** All sets' members back to back: set i is {@code flat[flatStart[i] .. flatStart[i+1])}. */
    private final int[] flatStart;

    private final int[] flat;

    private ProbeSets(int methodCount, int[][] sets) {
        this.methodCount = methodCount;
        this.sets = sets;
        this.flatStart = new int[sets.length + 1];
        for (int i = 0; i < sets.length; i++) {
            flatStart[i + 1] = flatStart[i] + sets[i].length;
        }
        this.flat = new int[flatStart[sets.length]];
        for (int i = 0; i < sets.length; i++) {
            System.arraycopy(sets[i], 0, flat, flatStart[i], sets[i].length);
        }
    }

    /**
     * @param methodCount |V|; every member must be in {@code [0, methodCount)}
     * @param sets the sets in a fixed order; members are sorted and duplicates dropped, each set
     *     must be non-empty
     */
    public static ProbeSets of(int methodCount, List<int[]> sets) {
        int[][] normalized = new int[sets.size()][];
        for (int i = 0; i < normalized.length; i++) {
            int[] members = Arrays.stream(sets.get(i)).sorted().distinct().toArray();
            if (members.length == 0) {
                throw new IllegalArgumentException("set " + i + " is empty");
            }
            if (members[0] < 0 || members[members.length - 1] >= methodCount) {
                throw new IllegalArgumentException(
                        "set " + i + " names a method outside [0, " + methodCount + ")");
            }
            normalized[i] = members;
        }
        return new ProbeSets(methodCount, normalized);
    }

    /** One set per method: the probe-based strategies' units. */
    public static ProbeSets singletons(int methodCount) {
        int[][] sets = new int[methodCount][];
        for (int m = 0; m < methodCount; m++) {
            sets[m] = new int[] {m};
        }
        return new ProbeSets(methodCount, sets);
    }

    public int methodCount() {
        return methodCount;
    }

    public int size() {
        return sets.length;
    }

    /** The sorted members of set {@code i}. */
    public int[] members(int i) {
        return sets[i].clone();
    }

    /** Without a copy, for the planner's inner loops; callers must not write to it. */
    int[] membersView(int i) {
        return sets[i];
    }

    /**
     * Every set's members in one array, for the planner's inner loops (one memory region instead of
     * an array per set); callers must not write to it.
     */
    int[] flatMembers() {
        return flat;
    }

    /** Where each set starts in {@link #flatMembers()}, and the end as the last entry. */
    int[] flatStarts() {
        return flatStart;
    }

    /** length(e) of Section 4.3 in cost units: the summed cost of the set's probes. */
    public long length(int i, MethodCosts costs) {
        return costs.costOf(sets[i]);
    }
}
