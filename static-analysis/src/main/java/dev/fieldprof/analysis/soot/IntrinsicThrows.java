package dev.fieldprof.analysis.soot;

import soot.Local;
import soot.Unit;
import soot.Value;
import soot.ValueBox;
import soot.jimple.ArrayRef;
import soot.jimple.BinopExpr;
import soot.jimple.BreakpointStmt;
import soot.jimple.CastExpr;
import soot.jimple.Constant;
import soot.jimple.DefinitionStmt;
import soot.jimple.DivExpr;
import soot.jimple.DynamicInvokeExpr;
import soot.jimple.EnterMonitorStmt;
import soot.jimple.ExitMonitorStmt;
import soot.jimple.GotoStmt;
import soot.jimple.IdentityRef;
import soot.jimple.IfStmt;
import soot.jimple.InstanceFieldRef;
import soot.jimple.InstanceInvokeExpr;
import soot.jimple.InstanceOfExpr;
import soot.jimple.InvokeExpr;
import soot.jimple.InvokeStmt;
import soot.jimple.LengthExpr;
import soot.jimple.NewArrayExpr;
import soot.jimple.NewExpr;
import soot.jimple.NewMultiArrayExpr;
import soot.jimple.NopStmt;
import soot.jimple.RemExpr;
import soot.jimple.ReturnStmt;
import soot.jimple.ReturnVoidStmt;
import soot.jimple.StaticFieldRef;
import soot.jimple.SwitchStmt;
import soot.jimple.ThrowStmt;
import soot.jimple.UnopExpr;

/**
 * Which statements may raise an exception by themselves: the exits of rule 1 besides returns and
 * calls, since a statement that throws before the call site keeps the site from being reached.
 */
final class IntrinsicThrows {

    private IntrinsicThrows() {}

    /**
     * Whether a statement may raise an exception by itself (what a called method throws is the
     * exception flow's business). VM errors and class initialization or linkage errors are assumed
     * away, as for any profiler: so {@code new} cannot throw, array allocation can. The values
     * looked at are those of Soot's use and definition boxes, reached through the statement's
     * operands instead of building the box lists.
     */
    static boolean mayThrowByItself(Unit unit, ReachingDefinitions reaching) {
        if (unit instanceof ThrowStmt
                || unit instanceof EnterMonitorStmt
                || unit instanceof ExitMonitorStmt) {
            return true;
        }
        if (unit instanceof DefinitionStmt definition) {
            return mayThrow(definition.getLeftOp(), unit, reaching)
                    || mayThrow(definition.getRightOp(), unit, reaching);
        }
        if (unit instanceof InvokeStmt invoke) {
            return mayThrow(invoke.getInvokeExpr(), unit, reaching);
        }
        if (unit instanceof IfStmt branch) {
            return mayThrow(branch.getCondition(), unit, reaching);
        }
        if (unit instanceof SwitchStmt branch) {
            return mayThrow(branch.getKey(), unit, reaching);
        }
        if (unit instanceof ReturnStmt exit) {
            return mayThrow(exit.getOp(), unit, reaching);
        }
        if (unit instanceof GotoStmt
                || unit instanceof NopStmt
                || unit instanceof ReturnVoidStmt
                || unit instanceof BreakpointStmt) {
            return false; // no values
        }
        for (ValueBox box : unit.getUseAndDefBoxes()) {
            if (throwsByItself(box.getValue(), unit, reaching)) {
                return true;
            }
        }
        return false;
    }

    /** Whether {@code value} or a value inside it may throw by itself. */
    private static boolean mayThrow(Value value, Unit at, ReachingDefinitions reaching) {
        if (value instanceof Local || value instanceof Constant) {
            return false;
        }
        if (throwsByItself(value, at, reaching)) {
            return true;
        }
        if (value instanceof BinopExpr binop) {
            return mayThrow(binop.getOp1(), at, reaching) || mayThrow(binop.getOp2(), at, reaching);
        }
        if (value instanceof UnopExpr unop) {
            return mayThrow(unop.getOp(), at, reaching);
        }
        if (value instanceof CastExpr cast) {
            return mayThrow(cast.getOp(), at, reaching);
        }
        if (value instanceof InstanceOfExpr test) {
            return mayThrow(test.getOp(), at, reaching);
        }
        if (value instanceof InstanceFieldRef field) {
            return mayThrow(field.getBase(), at, reaching);
        }
        if (value instanceof NewExpr
                || value instanceof StaticFieldRef
                || value instanceof IdentityRef) {
            return false; // no values inside
        }
        if (value instanceof InvokeExpr invoke && !(invoke instanceof DynamicInvokeExpr)) {
            if (invoke instanceof InstanceInvokeExpr instance
                    && mayThrow(instance.getBase(), at, reaching)) {
                return true;
            }
            for (int i = 0; i < invoke.getArgCount(); i++) {
                if (mayThrow(invoke.getArg(i), at, reaching)) {
                    return true;
                }
            }
            return false;
        }
        // Any other value: the values inside it as Soot's boxes list them (all nesting levels).
        for (ValueBox box : value.getUseBoxes()) {
            if (throwsByItself(box.getValue(), at, reaching)) {
                return true;
            }
        }
        return false;
    }

    /** Whether {@code value} itself, not counting the values inside it, may throw. */
    private static boolean throwsByItself(Value value, Unit at, ReachingDefinitions reaching) {
        if (value instanceof CastExpr cast
                && cast.getCastType() instanceof soot.RefLikeType
                && !(cast.getOp() instanceof soot.jimple.NullConstant)) {
            // Only a reference cast of a non-null value can fail; numeric conversions cannot.
            return true;
        }
        if (value instanceof ArrayRef
                || value instanceof LengthExpr
                || value instanceof NewArrayExpr
                || value instanceof NewMultiArrayExpr) {
            return true;
        }
        if (value instanceof InstanceFieldRef field && !reaching.isThis(field.getBase(), at)) {
            return true;
        }
        // Integer division by zero throws; only a known floating-point type cannot.
        return (value instanceof DivExpr || value instanceof RemExpr)
                && !(((BinopExpr) value).getType() instanceof soot.FloatType)
                && !(((BinopExpr) value).getType() instanceof soot.DoubleType);
    }
}
