package dev.fieldprof.analysis.soot;

import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import soot.Body;
import soot.Local;
import soot.Unit;
import soot.Value;
import soot.ValueBox;
import soot.jimple.DefinitionStmt;
import soot.toolkits.graph.BriefUnitGraph;
import soot.toolkits.scalar.SimpleLocalDefs;

/**
 * One body's receiver and, built on first need, its reaching definitions. Which values at which
 * statements are the receiver {@code this}: the Local of {@code @this} where nothing else assigns
 * it, else only where every definition reaching the use is {@code @this}. With type assignment off,
 * Soot's Jimple keeps other values in the Local of @this once this is dead ({@code this = this.<f>;
 * this = virtualinvoke this.<m>()}), and bytecode may store into slot 0: where that Local is
 * redefined, only the reaching definitions say whether it holds the receiver.
 */
final class ReachingDefinitions {
    private Body body;
    private StatementNumbering statements;
    private int[][] successors;
    private final int size;
    private final Local thisLocal;
    private final boolean thisRedefined;
    private Map<Local, Reaching> reaching;
    private Boolean everyStatementReached;
    private SimpleLocalDefs sootDefinitions;

    ReachingDefinitions(
            Body body,
            StatementNumbering statements,
            int[][] successors,
            Local thisLocal,
            boolean thisRedefined) {
        this.body = body;
        this.statements = statements;
        this.successors = successors;
        this.size = successors.length;
        this.thisLocal = thisLocal;
        this.thisRedefined = thisRedefined;
    }

    /** Drops the body: the scan is asked nothing once the method's facts are built. */
    void release() {
        body = null;
        statements = null;
        successors = null;
        reaching = null;
        sootDefinitions = null;
    }

    boolean isThis(Value value, Unit at) {
        if (thisLocal == null || value != thisLocal) {
            return false;
        }
        return !thisRedefined || onlyReaching(thisLocal, at, NonNullDefinitions::isIdentityThis);
    }

    /**
     * Whether some definition of {@code local} reaches {@code at} and every one that does is {@code
     * wanted}: Soot's reaching definitions on the normal-flow graph ({@code SimpleLocalDefs} on a
     * {@code BriefUnitGraph}), computed here for the one Local only.
     */
    boolean onlyReaching(Local local, Unit at, Predicate<Unit> wanted) {
        Reaching flow = reaching(local);
        if (flow == null) {
            List<Unit> definitions = sootDefinitions().getDefsOfAt(local, at);
            if (definitions.isEmpty()) {
                return false;
            }
            for (Unit definition : definitions) {
                if (!wanted.test(definition)) {
                    return false;
                }
            }
            return true;
        }
        long before = flow.before()[statements.numberOf(at)];
        if (before == 0) {
            return false;
        }
        for (long rest = before; rest != 0; rest &= rest - 1) {
            if (!wanted.test(
                    statements.unit(flow.definitions()[Long.numberOfTrailingZeros(rest)]))) {
                return false;
            }
        }
        return true;
    }

    /**
     * The definitions of {@code local} reaching each statement, as bits over its definitions, or
     * null where Soot's own analysis must answer: more than 64 definitions, or a statement no head
     * of the graph reaches (whose flow Soot's solver need not compute as a fixpoint over the whole
     * graph would). Elsewhere both compute the least fixpoint of the same equations (a definition
     * kills the Local's others; merges are unions; heads, the first statement and those without
     * predecessors, start empty), so they agree.
     */
    private Reaching reaching(Local local) {
        if (reaching == null) {
            // Few Locals per body need their reaching definitions: the default table (64 slots) was
            // the largest allocation of the facts on the Kotlin compiler.
            reaching = new IdentityHashMap<>(4);
        }
        if (reaching.containsKey(local)) {
            return reaching.get(local);
        }
        Reaching flow = everyStatementReached() ? solve(local) : null;
        reaching.put(local, flow);
        return flow;
    }

    private Reaching solve(Local local) {
        int[] bitOf = new int[size];
        int[] definitions = new int[8];
        int count = 0;
        for (int i = 0; i < size; i++) {
            bitOf[i] = -1;
            if (defines(statements.unit(i), local)) {
                if (count == 64) {
                    return null;
                }
                if (count == definitions.length) {
                    definitions = Arrays.copyOf(definitions, 2 * count);
                }
                bitOf[i] = count;
                definitions[count++] = i;
            }
        }
        long[] before = new long[size];
        boolean changed = true;
        while (changed) {
            changed = false;
            for (int i = 0; i < size; i++) {
                long after = bitOf[i] >= 0 ? 1L << bitOf[i] : before[i];
                for (int next : successors[i]) {
                    if ((before[next] | after) != before[next]) {
                        before[next] |= after;
                        changed = true;
                    }
                }
            }
        }
        return new Reaching(Arrays.copyOf(definitions, count), before);
    }

    private static boolean defines(Unit unit, Local local) {
        if (unit instanceof DefinitionStmt definition) {
            return definition.getLeftOp() == local;
        }
        for (ValueBox box : unit.getDefBoxes()) {
            if (box.getValue() == local) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether a depth-first walk from the heads of the normal-flow graph reaches every statement.
     */
    private boolean everyStatementReached() {
        if (everyStatementReached == null) {
            boolean[] hasPredecessor = new boolean[size];
            for (int[] next : successors) {
                for (int j : next) {
                    hasPredecessor[j] = true;
                }
            }
            boolean[] seen = new boolean[size];
            int[] stack = new int[size];
            int top = 0;
            int reached = 0;
            for (int head = 0; head < size; head++) {
                if ((head == 0 || !hasPredecessor[head]) && !seen[head]) {
                    seen[head] = true;
                    stack[top++] = head;
                    reached++;
                }
                while (top > 0) {
                    for (int j : successors[stack[--top]]) {
                        if (!seen[j]) {
                            seen[j] = true;
                            stack[top++] = j;
                            reached++;
                        }
                    }
                }
            }
            everyStatementReached = reached == size;
        }
        return everyStatementReached;
    }

    private SimpleLocalDefs sootDefinitions() {
        if (sootDefinitions == null) {
            sootDefinitions = new SimpleLocalDefs(new BriefUnitGraph(body));
        }
        return sootDefinitions;
    }

    /** Indices of a Local's definitions, and per statement the bits of those reaching it. */
    private record Reaching(int[] definitions, long[] before) {}
}
