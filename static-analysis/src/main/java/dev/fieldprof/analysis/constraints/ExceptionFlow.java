package dev.fieldprof.analysis.constraints;

import dev.fieldprof.analysis.soot.CallSiteFacts;
import dev.fieldprof.analysis.soot.MethodFacts;
import dev.fieldprof.analysis.soot.ProgramFacts;
import dev.fieldprof.analysis.soot.StatementFacts;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which methods cannot complete by an exception, and the statement graphs that follow from it. A
 * call may throw unless its target set is closed, its receiver is never null and every target
 * cannot throw; a method cannot throw when none of its statements may raise an exception that no
 * catch-all handler catches. This is the greatest fixpoint (recursion alone does not make a method
 * throw; stack overflow is assumed away with the other VM errors). It lets rule 1 of the order-pair
 * analysis look past calls that cannot throw (Section 4.3: the call site must dominate every exit,
 * and a throwing call before it is an exit).
 */
public final class ExceptionFlow {

    private final Set<String> throwFree;
    private final Map<String, BodyGraph> bodies;

    private ExceptionFlow(Set<String> throwFree, Map<String, BodyGraph> bodies) {
        this.throwFree = Set.copyOf(throwFree);
        this.bodies = Map.copyOf(bodies);
    }

    public static ExceptionFlow analyze(ProgramFacts facts) {
        Set<String> throwFree = new HashSet<>(facts.methods().keySet());
        // A method can only start to throw when a method it calls does: after the first pass,
        // re-examine just the callers of the methods found throwing (a worklist instead of passes
        // over every method until nothing changes; the greatest fixpoint is the same).
        Map<String, List<MethodFacts>> callers = new HashMap<>();
        for (MethodFacts method : facts.methods().values()) {
            for (CallSiteFacts site : method.callSites()) {
                if (!dependsOnTargets(site)) {
                    continue; // may throw whatever its targets do
                }
                for (String target : site.targets()) {
                    callers.computeIfAbsent(target, k -> new ArrayList<>()).add(method);
                }
            }
        }
        Deque<MethodFacts> work = new ArrayDeque<>(facts.methods().values());
        while (!work.isEmpty()) {
            MethodFacts method = work.poll();
            if (throwFree.contains(method.signature()) && mayThrow(method, throwFree)) {
                throwFree.remove(method.signature());
                work.addAll(callers.getOrDefault(method.signature(), List.of()));
            }
        }
        Map<String, BodyGraph> bodies = new HashMap<>();
        for (MethodFacts method : facts.methods().values()) {
            bodies.put(method.signature(), graph(method, throwFree));
        }
        return new ExceptionFlow(throwFree, bodies);
    }

    /** Methods that cannot complete abruptly (under the no-VM-error assumption). */
    public Set<String> throwFree() {
        return throwFree;
    }

    /** The statement graph of an analysed method, implicit exception exits included. */
    public BodyGraph body(String signature) {
        return bodies.get(signature);
    }

    private static boolean mayThrow(MethodFacts method, Set<String> throwFree) {
        StatementFacts code = method.code();
        for (int i = 0; i < code.size(); i++) {
            if (!code.caughtForSure()[i] && statementMayThrow(method, i, throwFree)) {
                return true;
            }
        }
        return false;
    }

    private static boolean statementMayThrow(MethodFacts method, int statement, Set<String> free) {
        StatementFacts code = method.code();
        if (code.intrinsicThrow()[statement]) {
            return true;
        }
        int site = code.callSite()[statement];
        return site >= 0 && callMayThrow(method.callSites().get(site), free);
    }

    /** Whether the call's outcome depends on its targets: otherwise it may always throw. */
    private static boolean dependsOnTargets(CallSiteFacts site) {
        return site.targetsComplete() && site.guaranteesEntry() && !site.targets().isEmpty();
    }

    private static boolean callMayThrow(CallSiteFacts site, Set<String> throwFree) {
        return !(site.targetsComplete()
                && site.guaranteesEntry()
                && !site.targets().isEmpty()
                && throwFree.containsAll(site.targets()));
    }

    private static BodyGraph graph(MethodFacts method, Set<String> throwFree) {
        StatementFacts code = method.code();
        int n = code.size();
        int[][] successors = new int[n][];
        boolean[] exits = new boolean[n];
        for (int i = 0; i < n; i++) {
            boolean mayThrow = statementMayThrow(method, i, throwFree);
            int[] normal = code.normalSuccessors()[i];
            int[] handlers = mayThrow ? code.handlers()[i] : new int[0];
            int[] all = new int[normal.length + handlers.length];
            System.arraycopy(normal, 0, all, 0, normal.length);
            System.arraycopy(handlers, 0, all, normal.length, handlers.length);
            successors[i] = all;
            exits[i] =
                    code.returns()[i] || (mayThrow && !code.caughtForSure()[i]) || all.length == 0;
        }
        return new BodyGraph(successors, exits, code.explicitExits());
    }
}
