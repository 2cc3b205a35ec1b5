package dev.fieldprof.analysis.soot;

import java.util.Arrays;
import java.util.List;
import soot.Unit;
import soot.UnitBox;

/**
 * The normal (exception-free) successors of each statement, as Soot's {@code BriefUnitGraph} orders
 * them, built as int arrays: the graph's maps of lists cost more than the facts need. A statement
 * that only falls through to statement k gets the one array {k} every such statement of every body
 * shares: most statements are of that kind, and on the Kotlin compiler an array each was millions
 * of small objects that every young collection during the facts copied.
 */
final class NormalSuccessors {

    private int[][] nextOnly = new int[256][];

    /** The successors of every statement of the numbered body. */
    int[][] of(StatementNumbering statements) {
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
    private int[] successors(StatementNumbering statements, int n, int i) {
        Unit unit = statements.unit(i);
        boolean fallsThrough = unit.fallsThrough() && i + 1 < n;
        if (!unit.branches()) {
            return fallsThrough ? nextOnly(i + 1) : StatementNumbering.NO_STATEMENTS;
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

    /** The shared array {@code {next}}. */
    private int[] nextOnly(int next) {
        if (next >= nextOnly.length) {
            nextOnly = Arrays.copyOf(nextOnly, Math.max(next + 1, 2 * nextOnly.length));
        }
        int[] only = nextOnly[next];
        if (only == null) {
            only = new int[] {next};
            nextOnly[next] = only;
        }
        return only;
    }
}
