package dev.fieldprof.analysis.soot;

import java.util.ArrayList;
import java.util.List;
import soot.Body;
import soot.Local;
import soot.SootMethod;
import soot.Unit;
import soot.jimple.DynamicInvokeExpr;
import soot.jimple.InstanceInvokeExpr;
import soot.jimple.InterfaceInvokeExpr;
import soot.jimple.InvokeExpr;
import soot.jimple.ReturnStmt;
import soot.jimple.ReturnVoidStmt;
import soot.jimple.SpecialInvokeExpr;
import soot.jimple.StaticInvokeExpr;
import soot.jimple.Stmt;
import soot.jimple.ThrowStmt;

/**
 * Builds the plain {@link MethodFacts} of one Jimple body: its statement graph, what each statement
 * may throw, its call sites and what they reach. Its scratch tables serve body after body, so one
 * instance builds the facts of a whole program, one body at a time.
 */
final class MethodFactsBuilder {

    private final StatementNumbering statements = new StatementNumbering();
    private final NormalSuccessors normalSuccessors = new NormalSuccessors();
    private final DefinitionCounts definitionCounts = new DefinitionCounts();
    private final CallResolution calls;
    private final OverriddenMethods overriddenMethods;

    MethodFactsBuilder(CallResolution calls, OverriddenMethods overriddenMethods) {
        this.calls = calls;
        this.overriddenMethods = overriddenMethods;
    }

    MethodFacts build(SootMethod method, Body body) {
        statements.number(body);
        int n = statements.size();
        int[][] successors = normalSuccessors.of(statements);
        Local thisLocal = method.isStatic() ? null : body.getThisLocal();
        boolean thisRedefined = definitionCounts.count(body, statements, thisLocal);
        ReachingDefinitions reaching =
                new ReachingDefinitions(body, statements, successors, thisLocal, thisRedefined);
        TrapCoverage traps = TrapCoverage.of(body, statements);
        int[][] handlers = traps.handlers();

        boolean[] intrinsic = new boolean[n];
        boolean[] returns = new boolean[n];
        boolean[] explicitExits = new boolean[n];
        int[] callSiteOf = new int[n];
        List<CallSiteFacts> callSites = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Unit unit = statements.unit(i);
            intrinsic[i] = IntrinsicThrows.mayThrowByItself(unit, reaching);
            returns[i] = unit instanceof ReturnStmt || unit instanceof ReturnVoidStmt;
            explicitExits[i] =
                    returns[i]
                            || (unit instanceof ThrowStmt && handlers[i].length == 0)
                            || successors[i].length == 0;
            callSiteOf[i] = -1;
            if (unit instanceof Stmt stmt && stmt.containsInvokeExpr()) {
                callSiteOf[i] = callSites.size();
                callSites.add(callSite(i, stmt, reaching));
            }
        }
        statements.release();
        reaching.release();
        List<String> overridden = new ArrayList<>();
        boolean overridesOutside = overriddenMethods.overrides(method, overridden);
        return new MethodFacts(
                method.getSignature(),
                method.getModifiers(),
                overridesOutside,
                overridden,
                n,
                callSites,
                new StatementFacts(
                        successors,
                        handlers,
                        traps.caughtForSure(),
                        intrinsic,
                        returns,
                        explicitExits,
                        callSiteOf));
    }

    private CallSiteFacts callSite(int statement, Stmt stmt, ReachingDefinitions reaching) {
        InvokeExpr invoke = stmt.getInvokeExpr();
        CallKind kind;
        if (invoke instanceof StaticInvokeExpr) {
            kind = CallKind.STATIC;
        } else if (invoke instanceof SpecialInvokeExpr) {
            kind = CallKind.SPECIAL;
        } else if (invoke instanceof InterfaceInvokeExpr) {
            kind = CallKind.INTERFACE;
        } else if (invoke instanceof DynamicInvokeExpr) {
            kind = CallKind.DYNAMIC;
        } else {
            kind = CallKind.VIRTUAL;
        }
        boolean guaranteesEntry = kind == CallKind.STATIC;
        if (invoke instanceof InstanceInvokeExpr instance
                && instance.getBase() instanceof Local base) {
            guaranteesEntry = reaching.isThis(base, stmt) || neverNull(base, stmt, reaching);
        }
        CallResolution.CallTarget target = calls.of(kind, invoke.getMethodRef());
        return new CallSiteFacts(
                statement,
                kind,
                target.declared(),
                target.targets(),
                target.complete(),
                guaranteesEntry);
    }

    /**
     * Every definition of the receiver reaching the call is {@code @this} or an allocation, so the
     * call cannot NPE. Soot's reaching definitions (flow-insensitive for a Local defined once) are
     * needed only for a Local defined several times, some of them by {@code @this} or an
     * allocation: otherwise the counts decide.
     */
    private boolean neverNull(Local base, Stmt at, ReachingDefinitions reaching) {
        int number = definitionCounts.numberOf(base);
        int definitions = definitionCounts.definitions(number);
        int sure = definitionCounts.sureDefinitions(number);
        if (definitions <= 1 || sure == 0) {
            // None: no definition reaches. One: it reaches wherever the Local is used. None of
            // several is sure: neither is any that reaches.
            return definitions == 1 && sure == 1;
        }
        return reaching.onlyReaching(base, at, NonNullDefinitions::thisOrAllocation);
    }
}
