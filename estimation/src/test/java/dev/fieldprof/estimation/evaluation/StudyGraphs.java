package dev.fieldprof.estimation.evaluation;

import dev.fieldprof.estimation.ConstraintGraph;

/** Constraint graphs the study and planner tests share. */
public final class StudyGraphs {
    private StudyGraphs() {}

    /** 80 methods: a chain 0 <= 1 <= ... <= 59, a diamond 60 <= {61, 62} <= 63, 16 free. */
    public static ConstraintGraph chainDiamondAndFree() {
        int[] left = new int[63];
        int[] right = new int[63];
        for (int i = 0; i < 59; i++) {
            left[i] = i;
            right[i] = i + 1;
        }
        int[][] diamond = {{60, 61}, {60, 62}, {61, 63}, {62, 63}};
        for (int i = 0; i < 4; i++) {
            left[59 + i] = diamond[i][0];
            right[59 + i] = diamond[i][1];
        }
        return new ConstraintGraph(80, left, right);
    }
}
