package dev.fieldprof.analysis.soot;

/**
 * A method's Jimple statements as plain arrays, for the exception flow and the order-pair analysis:
 * normal successors, the handlers covering each statement, and what each statement can do on its
 * own. The arrays are shared (a successor list {@code {k}} by every statement that only falls
 * through to k, a handler list by consecutive statements the same traps cover): read them, never
 * write them.
 *
 * @param normalSuccessors successors without exceptions, per statement
 * @param handlers first statements of the handlers whose range covers the statement
 * @param caughtForSure a catch-all ({@code Throwable} or {@code finally}) handler covers it
 * @param intrinsicThrow may raise an exception by itself, not counting what a called method throws:
 *     throw statements, monitors, array access, reference casts, integer division, field access on
 *     another object (VM and class-initialization errors are assumed away)
 * @param returns a return statement
 * @param explicitExits a return, a throw statement no handler covers, or no successor: the exits of
 *     the published order-pair analysis (frequency profiling, docs/references.md)
 * @param callSite index into the method's call sites of the call the statement makes, or -1
 */
public record StatementFacts(
        int[][] normalSuccessors,
        int[][] handlers,
        boolean[] caughtForSure,
        boolean[] intrinsicThrow,
        boolean[] returns,
        boolean[] explicitExits,
        int[] callSite) {

    public int size() {
        return normalSuccessors.length;
    }
}
