package dev.fieldprof.analysis.soot;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import soot.Body;
import soot.Trap;

/**
 * Which traps cover each statement, in trap order, and whether a catch-all covers it: where an
 * exception raised at the statement may go, and whether it may leave the method.
 *
 * @param handlers per statement, the first statements of the covering traps' handlers
 * @param caughtForSure per statement, whether a {@code Throwable} handler covers it
 */
record TrapCoverage(int[][] handlers, boolean[] caughtForSure) {

    static TrapCoverage of(Body body, StatementNumbering statements) {
        int n = statements.size();
        boolean[] caughtForSure = new boolean[n];
        int[] handlerCounts = new int[n];
        List<int[]> traps = new ArrayList<>(body.getTraps().size());
        for (Trap trap : body.getTraps()) {
            int from = statements.numberOf(trap.getBeginUnit());
            int to = statements.numberOf(trap.getEndUnit());
            int handler = statements.numberOf(trap.getHandlerUnit());
            boolean catchAll = trap.getException().getName().equals("java.lang.Throwable");
            traps.add(new int[] {from, to, handler});
            for (int i = from; i < to; i++) {
                handlerCounts[i]++;
                caughtForSure[i] |= catchAll;
            }
        }
        // Counted first, so that each statement's array is allocated at its size.
        int[][] handlers = new int[n][];
        for (int i = 0; i < n; i++) {
            handlers[i] =
                    handlerCounts[i] == 0
                            ? StatementNumbering.NO_STATEMENTS
                            : new int[handlerCounts[i]];
            handlerCounts[i] = 0;
        }
        for (int[] trap : traps) {
            for (int i = trap[0]; i < trap[1]; i++) {
                handlers[i][handlerCounts[i]++] = trap[2];
            }
        }
        // A statement covered by the same handlers as the one before it shares its array: the
        // facts of a whole program are kept, and a try block's statements repeat one list.
        for (int i = 1; i < n; i++) {
            if (handlers[i].length > 0 && Arrays.equals(handlers[i], handlers[i - 1])) {
                handlers[i] = handlers[i - 1];
            }
        }
        return new TrapCoverage(handlers, caughtForSure);
    }
}
