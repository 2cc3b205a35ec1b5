package dev.fieldprof.diff.match;

import dev.fieldprof.diff.normalize.ClassHierarchy;
import dev.fieldprof.diff.normalize.FrameNames;

/**
 * The relabeling cost γ of DiffProf (docs/references.md, §3.4.3) with unit costs: γ(a, b) = 0 when
 * the labels are equivalent, else 1. Equivalent labels must share a {@link #bucket}, so that the
 * matcher finds them without comparing every pair of labels.
 */
public interface LabelEquivalence {

    /** Whether γ(a, b) = 0. Must be reflexive and symmetric. */
    boolean equivalent(String a, String b);

    /** A key that equivalent labels share. */
    String bucket(String label);

    /** Equal names only: DiffProf's unit cost distance. */
    static LabelEquivalence exactNames() {
        return new LabelEquivalence() {
            @Override
            public boolean equivalent(String a, String b) {
                return a.equals(b);
            }

            @Override
            public String bucket(String label) {
                return label;
            }
        };
    }

    /**
     * Equal names, or the same method in a class and its superclass, γ(S.m, T.m) = 0 (§3.5, class
     * hierarchy problem); sibling classes stay at distance 1.
     */
    static LabelEquivalence overriding(ClassHierarchy hierarchy) {
        if (hierarchy.isEmpty()) {
            return exactNames();
        }
        return new LabelEquivalence() {
            @Override
            public boolean equivalent(String a, String b) {
                return a.equals(b) || hierarchy.overrides(a, b);
            }

            @Override
            public String bucket(String label) {
                return FrameNames.methodName(label);
            }
        };
    }
}
