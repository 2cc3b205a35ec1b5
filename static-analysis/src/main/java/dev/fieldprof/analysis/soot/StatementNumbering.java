package dev.fieldprof.analysis.soot;

import java.util.Arrays;
import soot.Body;
import soot.Unit;

/**
 * A body's statements numbered in chain order: the numbering of every per-statement array of {@link
 * StatementFacts}. One instance serves body after body, so that the facts of a large program do not
 * allocate a table per body.
 */
final class StatementNumbering {

    /** An empty list of statement numbers, shared by every statement without any. */
    static final int[] NO_STATEMENTS = new int[0];

    private final IdentityNumbers numbers = new IdentityNumbers();
    private Unit[] units = new Unit[64];
    private int size;

    /** Numbers the statements of {@code body}, forgetting the previous body's. */
    void number(Body body) {
        int n = body.getUnits().size();
        if (units.length < n) {
            units = new Unit[Math.max(n, 2 * units.length)];
        }
        numbers.reset(n);
        int count = 0;
        for (Unit unit : body.getUnits()) {
            numbers.put(unit, count);
            units[count++] = unit;
        }
        size = n;
    }

    int size() {
        return size;
    }

    Unit unit(int number) {
        return units[number];
    }

    /** The number of {@code unit} among its body's statements, which must hold it. */
    int numberOf(Unit unit) {
        int number = numbers.get(unit);
        if (number < 0) {
            throw new IllegalStateException("statement outside its body: " + unit);
        }
        return number;
    }

    /** Drops the body's statements: the buffer outlives the body and must not keep it reachable. */
    void release() {
        Arrays.fill(units, 0, size, null);
    }
}
