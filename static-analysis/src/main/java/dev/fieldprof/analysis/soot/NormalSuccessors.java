package dev.fieldprof.analysis.soot;

import java.util.Arrays;
import java.util.List;
import soot.Unit;
import soot.UnitBox;

/**
 * The normal (exception-free) successors of each statement, as Soot's {@code BriefUnitGraph} orders
 * them, built as int arrays: the graph's maps of lists cost more than the facts need.
 */
final class NormalSuccessors {

    private NormalSuccessors() {}

    /** The successors of every statement of the numbered body. */
    static int[][] of(StatementNumbering statements) {
        int n = statements.size();
        int[][] successors = new int[n][];
        for (int i = 0; i < n; i++) {
            successors[i] = successors(statements, n, i);
        }
        return successors;
    }

    /**
     * The next statement if {@code i} falls through, then each branch target not already listed.
     */
    private static int[] successors(StatementNumbering statements, int n, int i) {
        Unit unit = statements.unit(i);
        boolean fallsThrough = unit.fallsThrough() && i + 1 < n;
        if (!unit.branches()) {
            return fallsThrough ? new int[] {i + 1} : StatementNumbering.NO_STATEMENTS;
        }
        List<UnitBox> targets = unit.getUnitBoxes();
        int[] out = new int[targets.size() + (fallsThrough ? 1 : 0)];
        int size = 0;
        if (fallsThrough) {
            out[size++] = i + 1;
        }
        next:
        for (UnitBox box : targets) {
            Unit target = box.getUnit();
            for (int k = 0; k < size; k++) {
                if (statements.unit(out[k]).equals(target)) {
                    continue next;
                }
            }
            out[size++] = statements.numberOf(target);
        }
        return size == out.length ? out : Arrays.copyOf(out, size);
    }
}
