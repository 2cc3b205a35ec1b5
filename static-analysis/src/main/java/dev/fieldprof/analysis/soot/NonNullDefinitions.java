package dev.fieldprof.analysis.soot;

import soot.Unit;
import soot.jimple.AssignStmt;
import soot.jimple.IdentityStmt;
import soot.jimple.NewArrayExpr;
import soot.jimple.NewExpr;
import soot.jimple.NewMultiArrayExpr;
import soot.jimple.ThisRef;

/**
 * The definitions after which a Local cannot be null: {@code @this} and allocations. A receiver
 * every reaching definition of which is one of them cannot make its call throw before entry.
 */
final class NonNullDefinitions {

    private NonNullDefinitions() {}

    static boolean thisOrAllocation(Unit definition) {
        return isIdentityThis(definition) || isAllocation(definition);
    }

    static boolean isAllocation(Unit definition) {
        return definition instanceof AssignStmt assign
                && (assign.getRightOp() instanceof NewExpr
                        || assign.getRightOp() instanceof NewArrayExpr
                        || assign.getRightOp() instanceof NewMultiArrayExpr);
    }

    static boolean isIdentityThis(Unit definition) {
        return definition instanceof IdentityStmt identity
                && identity.getRightOp() instanceof ThisRef;
    }
}
