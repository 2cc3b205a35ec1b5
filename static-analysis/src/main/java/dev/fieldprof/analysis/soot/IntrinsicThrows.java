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

    // Which of the Jimple interfaces below a class implements, decided once per class: the
    // statements and values of a body are of a few dozen classes, and testing each of up to twenty
    // interfaces with instanceof at every value was most of may-throw's time (a failed interface
    // test scans the class's list of supertypes). Each bit is exactly one instanceof of the tests
    // as written before, so the answers are the same.
    private static final int THROW_OR_MONITOR = 1;
    private static final int DEFINITION = 1 << 1;
    private static final int INVOKE_STMT = 1 << 2;
    private static final int IF = 1 << 3;
    private static final int SWITCH = 1 << 4;
    private static final int RETURN = 1 << 5;
    private static final int NO_VALUES = 1 << 6;
    private static final int LOCAL_OR_CONSTANT = 1 << 7;
    private static final int CAST = 1 << 8;
    private static final int ARRAY_ACCESS_OR_ALLOCATION = 1 << 9;
    private static final int INSTANCE_FIELD = 1 << 10;
    private static final int DIVISION = 1 << 11;
    private static final int BINOP = 1 << 12;
    private static final int UNOP = 1 << 13;
    private static final int INSTANCE_OF = 1 << 14;
    private static final int NO_VALUES_INSIDE = 1 << 15;
    private static final int STATIC_OR_INSTANCE_INVOKE = 1 << 16;
    private static final int INSTANCE_INVOKE = 1 << 17;

    private static final ClassValue<Shape> SHAPES =
            new ClassValue<>() {
                @Override
                protected Shape computeValue(Class<?> type) {
                    return new Shape(bits(type));
                }
            };

    /** The bits of one class. */
    private record Shape(int bits) {}

    private IntrinsicThrows() {}

    private static int bits(Class<?> type) {
        int bits = 0;
        if (is(type, ThrowStmt.class, EnterMonitorStmt.class, ExitMonitorStmt.class)) {
            bits |= THROW_OR_MONITOR;
        }
        bits |= is(type, DefinitionStmt.class) ? DEFINITION : 0;
        bits |= is(type, InvokeStmt.class) ? INVOKE_STMT : 0;
        bits |= is(type, IfStmt.class) ? IF : 0;
        bits |= is(type, SwitchStmt.class) ? SWITCH : 0;
        bits |= is(type, ReturnStmt.class) ? RETURN : 0;
        if (is(type, GotoStmt.class, NopStmt.class, ReturnVoidStmt.class, BreakpointStmt.class)) {
            bits |= NO_VALUES;
        }
        bits |= is(type, Local.class, Constant.class) ? LOCAL_OR_CONSTANT : 0;
        bits |= is(type, CastExpr.class) ? CAST : 0;
        if (is(
                type,
                ArrayRef.class,
                LengthExpr.class,
                NewArrayExpr.class,
                NewMultiArrayExpr.class)) {
            bits |= ARRAY_ACCESS_OR_ALLOCATION;
        }
        bits |= is(type, InstanceFieldRef.class) ? INSTANCE_FIELD : 0;
        bits |= is(type, DivExpr.class, RemExpr.class) ? DIVISION : 0;
        bits |= is(type, BinopExpr.class) ? BINOP : 0;
        bits |= is(type, UnopExpr.class) ? UNOP : 0;
        bits |= is(type, InstanceOfExpr.class) ? INSTANCE_OF : 0;
        if (is(type, NewExpr.class, StaticFieldRef.class, IdentityRef.class)) {
            bits |= NO_VALUES_INSIDE;
        }
        if (is(type, InvokeExpr.class) && !is(type, DynamicInvokeExpr.class)) {
            bits |= STATIC_OR_INSTANCE_INVOKE;
        }
        bits |= is(type, InstanceInvokeExpr.class) ? INSTANCE_INVOKE : 0;
        return bits;
    }

    private static boolean is(Class<?> type, Class<?>... anyOf) {
        for (Class<?> supertype : anyOf) {
            if (supertype.isAssignableFrom(type)) {
                return true;
            }
        }
        return false;
    }

    /** The bits of the object's class; none for null, which no instanceof test holds for. */
    private static int shape(Object unitOrValue) {
        return unitOrValue == null ? 0 : SHAPES.get(unitOrValue.getClass()).bits();
    }

    /**
     * Whether a statement may raise an exception by itself (what a called method throws is the
     * exception flow's business). VM errors and class initialization or linkage errors are assumed
     * away, as for any profiler: so {@code new} cannot throw, array allocation can. The values
     * looked at are those of Soot's use and definition boxes, reached through the statement's
     * operands instead of building the box lists.
     */
    static boolean mayThrowByItself(Unit unit, ReachingDefinitions reaching) {
        int shape = shape(unit);
        if ((shape & THROW_OR_MONITOR) != 0) {
            return true;
        }
        if ((shape & DEFINITION) != 0) {
            DefinitionStmt definition = (DefinitionStmt) unit;
            return mayThrow(definition.getLeftOp(), unit, reaching)
                    || mayThrow(definition.getRightOp(), unit, reaching);
        }
        if ((shape & INVOKE_STMT) != 0) {
            return mayThrow(((InvokeStmt) unit).getInvokeExpr(), unit, reaching);
        }
        if ((shape & IF) != 0) {
            return mayThrow(((IfStmt) unit).getCondition(), unit, reaching);
        }
        if ((shape & SWITCH) != 0) {
            return mayThrow(((SwitchStmt) unit).getKey(), unit, reaching);
        }
        if ((shape & RETURN) != 0) {
            return mayThrow(((ReturnStmt) unit).getOp(), unit, reaching);
        }
        if ((shape & NO_VALUES) != 0) {
            return false;
        }
        for (ValueBox box : unit.getUseAndDefBoxes()) {
            if (throwsByItself(box.getValue(), shape(box.getValue()), unit, reaching)) {
                return true;
            }
        }
        return false;
    }

    /** Whether {@code value} or a value inside it may throw by itself. */
    private static boolean mayThrow(Value value, Unit at, ReachingDefinitions reaching) {
        int shape = shape(value);
        if ((shape & LOCAL_OR_CONSTANT) != 0) {
            return false;
        }
        if (throwsByItself(value, shape, at, reaching)) {
            return true;
        }
        if ((shape & BINOP) != 0) {
            BinopExpr binop = (BinopExpr) value;
            return mayThrow(binop.getOp1(), at, reaching) || mayThrow(binop.getOp2(), at, reaching);
        }
        if ((shape & UNOP) != 0) {
            return mayThrow(((UnopExpr) value).getOp(), at, reaching);
        }
        if ((shape & CAST) != 0) {
            return mayThrow(((CastExpr) value).getOp(), at, reaching);
        }
        if ((shape & INSTANCE_OF) != 0) {
            return mayThrow(((InstanceOfExpr) value).getOp(), at, reaching);
        }
        if ((shape & INSTANCE_FIELD) != 0) {
            return mayThrow(((InstanceFieldRef) value).getBase(), at, reaching);
        }
        if ((shape & NO_VALUES_INSIDE) != 0) {
            return false;
        }
        if ((shape & STATIC_OR_INSTANCE_INVOKE) != 0) {
            InvokeExpr invoke = (InvokeExpr) value;
            if ((shape & INSTANCE_INVOKE) != 0
                    && mayThrow(((InstanceInvokeExpr) invoke).getBase(), at, reaching)) {
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
            if (throwsByItself(box.getValue(), shape(box.getValue()), at, reaching)) {
                return true;
            }
        }
        return false;
    }

    /** Whether {@code value} itself, not counting the values inside it, may throw. */
    private static boolean throwsByItself(
            Value value, int shape, Unit at, ReachingDefinitions reaching) {
        if ((shape & CAST) != 0
                && ((CastExpr) value).getCastType() instanceof soot.RefLikeType
                && !(((CastExpr) value).getOp() instanceof soot.jimple.NullConstant)) {
            // Only a reference cast of a non-null value can fail; numeric conversions cannot.
            return true;
        }
        if ((shape & ARRAY_ACCESS_OR_ALLOCATION) != 0) {
            return true;
        }
        if ((shape & INSTANCE_FIELD) != 0
                && !reaching.isThis(((InstanceFieldRef) value).getBase(), at)) {
            return true;
        }
        // Integer division by zero throws; only a known floating-point type cannot.
        return (shape & DIVISION) != 0
                && !(((BinopExpr) value).getType() instanceof soot.FloatType)
                && !(((BinopExpr) value).getType() instanceof soot.DoubleType);
    }
}
