package dev.fieldprof.analysis.soot;

import dev.fieldprof.analysis.phases.PhaseMeter;
import java.io.File;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Deque;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import soot.Body;
import soot.FastHierarchy;
import soot.G;
import soot.Local;
import soot.RefType;
import soot.Scene;
import soot.SootClass;
import soot.SootMethod;
import soot.SootMethodRef;
import soot.Trap;
import soot.Unit;
import soot.UnitBox;
import soot.Value;
import soot.ValueBox;
import soot.jimple.ArrayRef;
import soot.jimple.AssignStmt;
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
import soot.jimple.IdentityStmt;
import soot.jimple.IfStmt;
import soot.jimple.InstanceFieldRef;
import soot.jimple.InstanceInvokeExpr;
import soot.jimple.InstanceOfExpr;
import soot.jimple.InterfaceInvokeExpr;
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
import soot.jimple.SpecialInvokeExpr;
import soot.jimple.StaticFieldRef;
import soot.jimple.StaticInvokeExpr;
import soot.jimple.Stmt;
import soot.jimple.SwitchStmt;
import soot.jimple.ThisRef;
import soot.jimple.ThrowStmt;
import soot.jimple.UnopExpr;
import soot.options.Options;
import soot.toolkits.graph.BriefUnitGraph;
import soot.toolkits.scalar.SimpleLocalDefs;
import soot.util.NumberedString;

/**
 * The one class that touches Soot's global state ({@code G}, {@code Options}, {@code Scene}): loads
 * the application classes with the classpath and the running JDK, builds Jimple bodies, resolves
 * every call site's targets per site through {@link FastHierarchy} (not cg.cha, which walks the
 * whole JDK), and returns plain {@link ProgramFacts}. Not thread-safe: Soot is a singleton, so
 * calls are serialized on a global lock.
 */
public final class SootProgramLoader {

    private static final Object SOOT_LOCK = new Object();

    private static final List<String> SKIPPED_JB_PHASES =
            List.of(
                    "jb.dtr",
                    "jb.tr",
                    "jb.ule",
                    "jb.ulp",
                    "jb.lns",
                    "jb.dae",
                    "jb.cp-ule",
                    "jb.lp",
                    "jb.ne",
                    "jb.uce",
                    "jb.tt",
                    "jb.cbf",
                    "jb.sils",
                    "jb.ese",
                    "jb.rua",
                    "jb.awa");

    /**
     * What to load and how open the world around the application is.
     *
     * @param classes the jar (or a directory of its readable classes)
     * @param classpath dependencies; the running JDK is added by Soot
     * @param applicationClasses dotted names of the classes whose methods form V
     * @param openTypes types that JVM-generated classes implement (lambda interfaces)
     * @param sealedTypes types with PermittedSubclasses, which users cannot extend
     * @param library whether users outside the jar may subclass its public types
     * @param proxies whether the program creates dynamic proxies (any interface may be proxied)
     */
    public record Request(
            Path classes,
            List<Path> classpath,
            Set<String> applicationClasses,
            Set<String> openTypes,
            Set<String> sealedTypes,
            boolean library,
            boolean proxies) {

        public Request {
            classpath = List.copyOf(classpath);
            applicationClasses = Set.copyOf(applicationClasses);
            openTypes = Set.copyOf(openTypes);
            sealedTypes = Set.copyOf(sealedTypes);
        }
    }

    private final Request request;
    private final Map<String, String> skipped = new TreeMap<>();
    private final Map<SootClass, Boolean> extensibleTypes = new HashMap<>();
    private final Map<SootClass, List<SootClass>> closedSubtypes = new HashMap<>();
    private final Map<CallKind, Map<SootMethodRef, CallTarget>> callTargets =
            new EnumMap<>(CallKind.class);
    private final Map<SootClass, List<SootClass>> supertypes = new HashMap<>();
    private FastHierarchy hierarchy;

    // Per-body scratch state of methodFacts, reused from body to body.
    private static final int[] NONE = new int[0];
    private final IdentityNumbers statementNumbers = new IdentityNumbers();
    private final IdentityNumbers localNumbers = new IdentityNumbers();
    private Unit[] unitBuffer = new Unit[64];
    private int[] definitionCounts = new int[16];
    private int[] sureDefinitionCounts = new int[16];

    private SootProgramLoader(Request request) {
        this.request = request;
        for (CallKind kind : CallKind.values()) {
            callTargets.put(kind, new HashMap<>());
        }
    }

    /** Loads the program and extracts its facts; Soot's state is reset before and after. */
    public static ProgramFacts load(Request request) {
        synchronized (SOOT_LOCK) {
            HierarchyKeepingScene.install();
            try {
                return new SootProgramLoader(request).run();
            } finally {
                G.reset();
            }
        }
    }

    private ProgramFacts run() {
        PhaseMeter meter = new PhaseMeter();
        G.reset();
        Options options = Options.v();
        options.set_prepend_classpath(true);
        options.set_soot_classpath(classpathString());
        options.set_process_dir(List.of(request.classes().toString()));
        options.set_src_prec(Options.src_prec_only_class);
        options.set_allow_phantom_refs(true);
        options.set_whole_program(false);
        options.set_output_format(Options.output_format_none);
        options.set_ignore_resolution_errors(true);
        options.set_ignore_resolving_levels(true);
        options.set_keep_line_number(false);
        options.set_drop_bodies_after_load(false);
        options.setPhaseOption("jb", "use-original-names:false");
        // Jimple as the analysis needs it: local splitting, aggregation and copy propagation
        // stay; type assignment and the clean-up phases are off, which halves body building
        // and changes nothing the order-pair analysis reads (casts and divisions are judged
        // conservatively).
        for (String phase : SKIPPED_JB_PHASES) {
            options.setPhaseOption(phase, "enabled:false");
        }
        for (String phase : System.getProperty("fieldprof.soot.disable", "").split(",")) {
            if (!phase.isBlank()) {
                options.setPhaseOption(phase.trim(), "enabled:false");
            }
        }
        Scene.v().loadNecessaryClasses();
        meter.stop("soot.load");

        List<SootMethod> methods = new ArrayList<>();
        Map<SootMethod, Body> bodies = new IdentityHashMap<>();
        HierarchyKeepingScene scene = HierarchyKeepingScene.current();
        scene.keepHierarchy(true);
        try {
            buildBodies(methods, bodies);
        } finally {
            scene.keepHierarchy(false);
        }
        meter.stop("soot.bodies");

        // Lambda bodies add synthetic classes while bodies are built: the dispatch below needs a
        // hierarchy built after them.
        scene.releaseFastHierarchy();
        hierarchy = scene.getOrMakeFastHierarchy();
        Map<String, MethodFacts> facts = new HashMap<>();
        for (SootMethod method : methods) {
            try {
                facts.put(method.getSignature(), methodFacts(method, bodies.get(method)));
            } catch (RuntimeException e) {
                skipped.put(
                        method.getSignature(),
                        "analysis failed: " + e.getClass().getSimpleName() + ": " + e.getMessage());
            }
        }
        Set<String> serializationConstructors = serializationConstructors();
        Set<String> missing = new TreeSet<>();
        for (SootClass phantom : Scene.v().getPhantomClasses()) {
            // soot.dummy.* are Soot's own placeholders (e.g. for invokedynamic), not classes.
            if (!phantom.getName().startsWith("soot.dummy.")) {
                missing.add(phantom.getName());
            }
        }
        meter.stop("soot.facts");
        return new ProgramFacts(facts, serializationConstructors, skipped, missing, meter.phases());
    }

    /** Builds the Jimple body of every concrete method of the application classes. */
    private void buildBodies(List<SootMethod> methods, Map<SootMethod, Body> bodies) {
        for (String className : new TreeSet<>(request.applicationClasses())) {
            SootClass sootClass = Scene.v().getSootClassUnsafe(className, false);
            if (sootClass == null || sootClass.isPhantom()) {
                skipped.put(className, "class could not be loaded by Soot");
                continue;
            }
            for (SootMethod method : new ArrayList<>(sootClass.getMethods())) {
                if (!method.isConcrete()) {
                    continue;
                }
                try {
                    bodies.put(method, method.retrieveActiveBody());
                    methods.add(method);
                } catch (RuntimeException | LinkageError e) {
                    skipped.put(
                            method.getSignature(),
                            "no Jimple body: "
                                    + e.getClass().getSimpleName()
                                    + ": "
                                    + e.getMessage());
                }
            }
        }
    }

    private String classpathString() {
        StringBuilder out = new StringBuilder(request.classes().toString());
        for (Path entry : request.classpath()) {
            out.append(File.pathSeparator).append(entry);
        }
        return out.toString();
    }

    private MethodFacts methodFacts(SootMethod method, Body body) {
        int n = body.getUnits().size();
        if (unitBuffer.length < n) {
            unitBuffer = new Unit[Math.max(n, 2 * unitBuffer.length)];
        }
        Unit[] units = unitBuffer;
        statementNumbers.reset(n);
        int count = 0;
        for (Unit unit : body.getUnits()) {
            statementNumbers.put(unit, count);
            units[count++] = unit;
        }
        int[][] successors = new int[n][];
        for (int i = 0; i < n; i++) {
            successors[i] = successors(units, n, i);
        }
        Local thisLocal = method.isStatic() ? null : body.getThisLocal();
        MethodScan scan = scanDefinitions(body, units, n, successors, thisLocal);

        // Which traps cover each statement, in trap order, and whether a catch-all covers it.
        boolean[] caughtForSure = new boolean[n];
        int[] handlerCounts = new int[n];
        List<int[]> traps = new ArrayList<>(body.getTraps().size());
        for (Trap trap : body.getTraps()) {
            int from = numberOf(trap.getBeginUnit());
            int to = numberOf(trap.getEndUnit());
            int handler = numberOf(trap.getHandlerUnit());
            boolean catchAll = trap.getException().getName().equals("java.lang.Throwable");
            traps.add(new int[] {from, to, handler});
            for (int i = from; i < to; i++) {
                handlerCounts[i]++;
                caughtForSure[i] |= catchAll;
            }
        }
        int[][] handlers = new int[n][];
        for (int i = 0; i < n; i++) {
            handlers[i] = handlerCounts[i] == 0 ? NONE : new int[handlerCounts[i]];
            handlerCounts[i] = 0;
        }
        for (int[] trap : traps) {
            for (int i = trap[0]; i < trap[1]; i++) {
                handlers[i][handlerCounts[i]++] = trap[2];
            }
        }

        boolean[] intrinsic = new boolean[n];
        boolean[] returns = new boolean[n];
        boolean[] explicitExits = new boolean[n];
        int[] callSiteOf = new int[n];
        List<CallSiteFacts> callSites = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Unit unit = units[i];
            intrinsic[i] = mayThrowByItself(unit, scan);
            returns[i] = unit instanceof ReturnStmt || unit instanceof ReturnVoidStmt;
            explicitExits[i] =
                    returns[i]
                            || (unit instanceof ThrowStmt && handlers[i].length == 0)
                            || successors[i].length == 0;
            callSiteOf[i] = -1;
            if (unit instanceof Stmt stmt && stmt.containsInvokeExpr()) {
                callSiteOf[i] = callSites.size();
                callSites.add(callSite(i, stmt, scan));
            }
        }
        // The buffer outlives the body: drop its statements so they are not kept reachable.
        Arrays.fill(units, 0, n, null);
        scan.release();
        List<String> overridden = new ArrayList<>();
        boolean overridesOutside = overrides(method, overridden);
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
                        caughtForSure,
                        intrinsic,
                        returns,
                        explicitExits,
                        callSiteOf));
    }

    private int numberOf(Unit unit) {
        return statementNumber(statementNumbers, unit);
    }

    /** The number of {@code unit} among its body's statements, which must hold it. */
    private static int statementNumber(IdentityNumbers numbers, Unit unit) {
        int number = numbers.get(unit);
        if (number < 0) {
            throw new IllegalStateException("statement outside its body: " + unit);
        }
        return number;
    }

    /**
     * The normal successors of statement {@code i}, as Soot's {@code BriefUnitGraph} orders them
     * (the next statement if it falls through, then each branch target not already listed), without
     * building the graph's maps of lists.
     */
    private int[] successors(Unit[] units, int n, int i) {
        Unit unit = units[i];
        boolean fallsThrough = unit.fallsThrough() && i + 1 < n;
        if (!unit.branches()) {
            return fallsThrough ? new int[] {i + 1} : NONE;
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
                if (units[out[k]].equals(target)) {
                    continue next;
                }
            }
            out[size++] = numberOf(target);
        }
        return size == out.length ? out : Arrays.copyOf(out, size);
    }

    /**
     * Counts the definitions of each Local (all of them, and those that are {@code @this} or an
     * allocation) in one pass, and whether the Local of {@code @this} is assigned anywhere but by
     * its identity statement.
     */
    private MethodScan scanDefinitions(
            Body body, Unit[] units, int n, int[][] successors, Local thisLocal) {
        localNumbers.reset(body.getLocalCount());
        int locals = 0;
        boolean thisRedefined = false;
        for (int i = 0; i < n; i++) {
            Unit unit = units[i];
            if (unit instanceof DefinitionStmt definition) {
                if (definition.getLeftOp() instanceof Local local) {
                    boolean identityThis = isIdentityThis(definition);
                    locals =
                            countDefinition(
                                    local, identityThis || isAllocation(definition), locals);
                    thisRedefined |= local == thisLocal && !identityThis;
                }
            } else {
                for (ValueBox box : unit.getDefBoxes()) {
                    if (box.getValue() instanceof Local local) {
                        locals = countDefinition(local, false, locals);
                        thisRedefined |= local == thisLocal;
                    }
                }
            }
        }
        return new MethodScan(body, units, statementNumbers, successors, thisLocal, thisRedefined);
    }

    private int countDefinition(Local local, boolean thisOrAllocation, int locals) {
        int number = localNumbers.get(local);
        if (number < 0) {
            number = locals++;
            localNumbers.put(local, number);
            if (definitionCounts.length <= number) {
                definitionCounts = Arrays.copyOf(definitionCounts, 2 * number + 2);
                sureDefinitionCounts = Arrays.copyOf(sureDefinitionCounts, 2 * number + 2);
            }
            definitionCounts[number] = 0;
            sureDefinitionCounts[number] = 0;
        }
        definitionCounts[number]++;
        if (thisOrAllocation) {
            sureDefinitionCounts[number]++;
        }
        return locals;
    }

    /**
     * Whether a statement may raise an exception by itself (what a called method throws is the
     * exception flow's business). VM errors and class initialization or linkage errors are assumed
     * away, as for any profiler: so {@code new} cannot throw, array allocation can. The values
     * looked at are those of Soot's use and definition boxes, reached through the statement's
     * operands instead of building the box lists.
     */
    private static boolean mayThrowByItself(Unit unit, MethodScan scan) {
        if (unit instanceof ThrowStmt
                || unit instanceof EnterMonitorStmt
                || unit instanceof ExitMonitorStmt) {
            return true;
        }
        if (unit instanceof DefinitionStmt definition) {
            return mayThrow(definition.getLeftOp(), unit, scan)
                    || mayThrow(definition.getRightOp(), unit, scan);
        }
        if (unit instanceof InvokeStmt invoke) {
            return mayThrow(invoke.getInvokeExpr(), unit, scan);
        }
        if (unit instanceof IfStmt branch) {
            return mayThrow(branch.getCondition(), unit, scan);
        }
        if (unit instanceof SwitchStmt branch) {
            return mayThrow(branch.getKey(), unit, scan);
        }
        if (unit instanceof ReturnStmt exit) {
            return mayThrow(exit.getOp(), unit, scan);
        }
        if (unit instanceof GotoStmt
                || unit instanceof NopStmt
                || unit instanceof ReturnVoidStmt
                || unit instanceof BreakpointStmt) {
            return false; // no values
        }
        for (ValueBox box : unit.getUseAndDefBoxes()) {
            if (throwsByItself(box.getValue(), unit, scan)) {
                return true;
            }
        }
        return false;
    }

    /** Whether {@code value} or a value inside it may throw by itself. */
    private static boolean mayThrow(Value value, Unit at, MethodScan scan) {
        if (value instanceof Local || value instanceof Constant) {
            return false;
        }
        if (throwsByItself(value, at, scan)) {
            return true;
        }
        if (value instanceof BinopExpr binop) {
            return mayThrow(binop.getOp1(), at, scan) || mayThrow(binop.getOp2(), at, scan);
        }
        if (value instanceof UnopExpr unop) {
            return mayThrow(unop.getOp(), at, scan);
        }
        if (value instanceof CastExpr cast) {
            return mayThrow(cast.getOp(), at, scan);
        }
        if (value instanceof InstanceOfExpr test) {
            return mayThrow(test.getOp(), at, scan);
        }
        if (value instanceof InstanceFieldRef field) {
            return mayThrow(field.getBase(), at, scan);
        }
        if (value instanceof NewExpr
                || value instanceof StaticFieldRef
                || value instanceof IdentityRef) {
            return false; // no values inside
        }
        if (value instanceof InvokeExpr invoke && !(invoke instanceof DynamicInvokeExpr)) {
            if (invoke instanceof InstanceInvokeExpr instance
                    && mayThrow(instance.getBase(), at, scan)) {
                return true;
            }
            for (int i = 0; i < invoke.getArgCount(); i++) {
                if (mayThrow(invoke.getArg(i), at, scan)) {
                    return true;
                }
            }
            return false;
        }
        // Any other value: the values inside it as Soot's boxes list them (all nesting levels).
        for (ValueBox box : value.getUseBoxes()) {
            if (throwsByItself(box.getValue(), at, scan)) {
                return true;
            }
        }
        return false;
    }

    /** Whether {@code value} itself, not counting the values inside it, may throw. */
    private static boolean throwsByItself(Value value, Unit at, MethodScan scan) {
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
        if (value instanceof InstanceFieldRef field && !scan.isThis(field.getBase(), at)) {
            return true;
        }
        // Integer division by zero throws; only a known floating-point type cannot.
        return (value instanceof DivExpr || value instanceof RemExpr)
                && !(((BinopExpr) value).getType() instanceof soot.FloatType)
                && !(((BinopExpr) value).getType() instanceof soot.DoubleType);
    }

    private CallSiteFacts callSite(int statement, Stmt stmt, MethodScan scan) {
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
            guaranteesEntry = scan.isThis(base, stmt) || neverNull(base, stmt, scan);
        }
        CallTarget target =
                callTargets
                        .get(kind)
                        .computeIfAbsent(invoke.getMethodRef(), ref -> callTarget(kind, ref));
        return new CallSiteFacts(
                statement,
                kind,
                target.declared(),
                target.targets(),
                target.complete(),
                guaranteesEntry);
    }

    /**
     * What every call of one kind through one method reference resolves to. It depends only on the
     * reference (declaring class, name, parameter and return types, static or not: what Soot's
     * references compare) and the fixed hierarchy, so it is computed once per distinct reference
     * instead of at each of its sites, and the sites share its immutable target list.
     */
    private CallTarget callTarget(CallKind kind, SootMethodRef ref) {
        String declared = ref.getSignature();
        if (kind == CallKind.DYNAMIC) {
            return new CallTarget(declared, List.of(), false);
        }
        SootClass declaring = ref.getDeclaringClass();
        SootMethod resolved = tryResolve(ref);
        if (resolved == null || declaring.isPhantom()) {
            return new CallTarget(declared, List.of(), false);
        }
        if (kind == CallKind.STATIC || kind == CallKind.SPECIAL) {
            return new CallTarget(
                    declared,
                    List.of(resolved.getSignature()),
                    !resolved.getDeclaringClass().isPhantom());
        }
        if (resolved.isPrivate()
                || resolved.isFinal()
                || resolved.isStatic()
                || (declaring.isFinal() && !declaring.isInterface())) {
            // No override can exist: the resolved method is the only possible target.
            return new CallTarget(
                    declared, List.of(resolved.getSignature()), !resolved.isAbstract());
        }
        // Sites of one dispatch share its immutable target list, so the pairs' algorithm can
        // count them per list instead of walking the same thousands of targets at every site.
        Dispatch dispatch = dispatch(declaring, ref);
        return new CallTarget(declared, dispatch.targets(), dispatch.complete());
    }

    /** A call site's reference as written, its targets (sorted, immutable), whether closed. */
    private record CallTarget(String declared, List<String> targets, boolean complete) {}

    /**
     * The targets of a virtual or interface call through {@code ref} and whether they are closed.
     * It depends only on the reference and the (fixed) hierarchy, so it is computed once per
     * reference: walking an interface's implementers at each of its call sites dominated large
     * programs.
     */
    private Dispatch dispatch(SootClass declaring, SootMethodRef ref) {
        Set<String> targets = new TreeSet<>();
        boolean complete = true;
        try {
            for (SootMethod target : hierarchy.resolveAbstractDispatch(declaring, ref)) {
                targets.add(target.getSignature());
            }
        } catch (RuntimeException e) {
            complete = false;
        }
        complete &= dispatchIsClosed(declaring, ref.getSubSignature());
        return new Dispatch(List.copyOf(targets), complete);
    }

    /**
     * A resolved dynamic dispatch: every target (sorted, immutable, one list shared by every site
     * of the reference), and whether no other can exist.
     */
    private record Dispatch(List<String> targets, boolean complete) {}

    private static SootMethod tryResolve(SootMethodRef ref) {
        try {
            return ref.tryResolve();
        } catch (RuntimeException e) {
            return null;
        }
    }

    /**
     * Every definition of the receiver reaching the call is {@code @this} or an allocation, so the
     * call cannot NPE. Soot's reaching definitions (flow-insensitive for a Local defined once) are
     * needed only for a Local defined several times, some of them by {@code @this} or an
     * allocation: otherwise the counts decide.
     */
    private boolean neverNull(Local base, Stmt at, MethodScan scan) {
        int number = localNumbers.get(base);
        int definitions = number < 0 ? 0 : definitionCounts[number];
        int sure = number < 0 ? 0 : sureDefinitionCounts[number];
        if (definitions <= 1 || sure == 0) {
            // None: no definition reaches. One: it reaches wherever the Local is used. None of
            // several is sure: neither is any that reaches.
            return definitions == 1 && sure == 1;
        }
        return scan.onlyReaching(base, at, SootProgramLoader::thisOrAllocation);
    }

    private static boolean thisOrAllocation(Unit definition) {
        return isIdentityThis(definition) || isAllocation(definition);
    }

    private static boolean isAllocation(Unit definition) {
        return definition instanceof AssignStmt assign
                && (assign.getRightOp() instanceof NewExpr
                        || assign.getRightOp() instanceof NewArrayExpr
                        || assign.getRightOp() instanceof NewMultiArrayExpr);
    }

    private static boolean isIdentityThis(Unit definition) {
        return definition instanceof IdentityStmt identity
                && identity.getRightOp() instanceof ThisRef;
    }

    /**
     * One body's receiver and, built on first need, its reaching definitions. Which values at which
     * statements are the receiver {@code this}: the Local of {@code @this} where nothing else
     * assigns it, else only where every definition reaching the use is {@code @this}. With type
     * assignment off, Soot's Jimple keeps other values in the Local of @this once this is dead
     * ({@code this = this.<f>; this = virtualinvoke this.<m>()}), and bytecode may store into slot
     * 0: where that Local is redefined, only the reaching definitions say whether it holds the
     * receiver.
     */
    private static final class MethodScan {
        private Body body;
        private Unit[] units;
        private IdentityNumbers numbers;
        private int[][] successors;
        private final int size;
        private final Local thisLocal;
        private final boolean thisRedefined;
        private Map<Local, Reaching> reaching;
        private Boolean everyStatementReached;
        private SimpleLocalDefs sootDefinitions;

        MethodScan(
                Body body,
                Unit[] units,
                IdentityNumbers numbers,
                int[][] successors,
                Local thisLocal,
                boolean thisRedefined) {
            this.body = body;
            this.units = units;
            this.numbers = numbers;
            this.successors = successors;
            this.size = successors.length;
            this.thisLocal = thisLocal;
            this.thisRedefined = thisRedefined;
        }

        /** Drops the body: the scan is asked nothing once the method's facts are built. */
        void release() {
            body = null;
            units = null;
            numbers = null;
            successors = null;
            reaching = null;
            sootDefinitions = null;
        }

        boolean isThis(Value value, Unit at) {
            if (thisLocal == null || value != thisLocal) {
                return false;
            }
            return !thisRedefined || onlyReaching(thisLocal, at, SootProgramLoader::isIdentityThis);
        }

        /**
         * Whether some definition of {@code local} reaches {@code at} and every one that does is
         * {@code wanted}: Soot's reaching definitions on the normal-flow graph ({@code
         * SimpleLocalDefs} on a {@code BriefUnitGraph}), computed here for the one Local only.
         */
        boolean onlyReaching(Local local, Unit at, java.util.function.Predicate<Unit> wanted) {
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
            long before = flow.before()[statementNumber(numbers, at)];
            if (before == 0) {
                return false;
            }
            for (long rest = before; rest != 0; rest &= rest - 1) {
                if (!wanted.test(units[flow.definitions()[Long.numberOfTrailingZeros(rest)]])) {
                    return false;
                }
            }
            return true;
        }

        /**
         * The definitions of {@code local} reaching each statement, as bits over its definitions,
         * or null where Soot's own analysis must answer: more than 64 definitions, or a statement
         * no head of the graph reaches (whose flow Soot's solver need not compute as a fixpoint
         * over the whole graph would). Elsewhere both compute the least fixpoint of the same
         * equations (a definition kills the Local's others; merges are unions; heads, the first
         * statement and those without predecessors, start empty), so they agree.
         */
        private Reaching reaching(Local local) {
            if (reaching == null) {
                reaching = new IdentityHashMap<>();
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
                if (defines(units[i], local)) {
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
         * Whether a depth-first walk from the heads of the normal-flow graph reaches every
         * statement.
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

    /**
     * Numbers of objects by identity (a body's statements, its Locals), without boxing; reused from
     * body to body, where a new stamp empties it in constant time.
     */
    private static final class IdentityNumbers {
        private Object[] keys = new Object[64];
        private int[] values = new int[64];
        private int[] stamps = new int[64];
        private int stamp = 1;
        private int size;

        /** Empties the table, sized for about {@code expected} keys. */
        void reset(int expected) {
            size = 0;
            if (2 * expected > keys.length) {
                allocate(Integer.highestOneBit(4 * expected - 1));
            } else if (++stamp == Integer.MAX_VALUE) {
                Arrays.fill(stamps, 0);
                stamp = 1;
            }
        }

        /** The number of {@code key}, or -1. */
        int get(Object key) {
            int mask = keys.length - 1;
            for (int i = slot(key, mask); stamps[i] == stamp; i = (i + 1) & mask) {
                if (keys[i] == key) {
                    return values[i];
                }
            }
            return -1;
        }

        /** Numbers {@code key}, which must not be numbered yet. */
        void put(Object key, int value) {
            if (2 * (size + 1) > keys.length) {
                grow();
            }
            int mask = keys.length - 1;
            int i = slot(key, mask);
            while (stamps[i] == stamp) {
                i = (i + 1) & mask;
            }
            keys[i] = key;
            values[i] = value;
            stamps[i] = stamp;
            size++;
        }

        private void grow() {
            Object[] oldKeys = keys;
            int[] oldValues = values;
            int[] oldStamps = stamps;
            int oldStamp = stamp;
            allocate(2 * keys.length);
            size = 0;
            for (int i = 0; i < oldKeys.length; i++) {
                if (oldStamps[i] == oldStamp) {
                    put(oldKeys[i], oldValues[i]);
                }
            }
        }

        private void allocate(int capacity) {
            keys = new Object[capacity];
            values = new int[capacity];
            stamps = new int[capacity];
            stamp = 1;
        }

        private static int slot(Object key, int mask) {
            int h = System.identityHashCode(key) * 0x9E3779B9;
            return (h ^ (h >>> 16)) & mask;
        }
    }

    /**
     * True if every class the receiver can have at run time is a loaded application class that no
     * unknown code can subclass in a way that changes the dispatch.
     */
    private boolean dispatchIsClosed(SootClass declared, NumberedString subSignature) {
        List<SootClass> types = closedSubtypes.computeIfAbsent(declared, this::closedSubtypesOf);
        if (types.isEmpty()) {
            return false;
        }
        if (request.library()) {
            for (SootClass type : types) {
                if (extensibleFromOutside(type, subSignature)) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * The subtypes of {@code declared} (itself included) if each is a loaded application type that
     * neither lambdas nor proxies implement, else an empty list. It does not depend on the method,
     * so it is computed once per type: the references through one interface with thousands of
     * implementers walked them all again for each of its methods.
     */
    private List<SootClass> closedSubtypesOf(SootClass declared) {
        Set<SootClass> types = subtypesAndSelf(declared);
        for (SootClass type : types) {
            if (type.isPhantom()
                    || !request.applicationClasses().contains(type.getName())
                    || request.openTypes().contains(type.getName())
                    || (request.proxies() && type.isInterface())) {
                // A library type, a type lambdas or proxies implement, or an unloaded one: the
                // receiver may be an object of a class we do not see.
                return List.of();
            }
        }
        return List.copyOf(types);
    }

    private Set<SootClass> subtypesAndSelf(SootClass root) {
        Set<SootClass> seen = new HashSet<>();
        Deque<SootClass> work = new ArrayDeque<>();
        work.add(root);
        while (!work.isEmpty()) {
            SootClass type = work.poll();
            if (!seen.add(type)) {
                continue;
            }
            Collection<SootClass> children;
            if (type.isInterface()) {
                children = new ArrayList<>(hierarchy.getAllImplementersOfInterface(type));
                children.addAll(hierarchy.getAllSubinterfaces(type));
            } else {
                children = hierarchy.getSubclassesOf(type);
            }
            work.addAll(children);
        }
        return seen;
    }

    /**
     * In a library, a user may subclass a public non-final, non-sealed type with an accessible
     * constructor (or implement a public interface) and override the method. The type's part is
     * decided once per type.
     */
    private boolean extensibleFromOutside(SootClass type, NumberedString subSignature) {
        Boolean extensible = extensibleTypes.get(type);
        if (extensible == null) {
            extensible =
                    type.isPublic()
                            && !type.isFinal()
                            && !request.sealedTypes().contains(type.getName())
                            && (type.isInterface() || hasAccessibleConstructor(type));
            extensibleTypes.put(type, extensible);
        }
        if (!extensible) {
            return false;
        }
        SootMethod declared = type.getMethodUnsafe(subSignature);
        return declared == null || !(declared.isFinal() || declared.isPrivate());
    }

    private static boolean hasAccessibleConstructor(SootClass type) {
        for (SootMethod method : type.getMethods()) {
            if (method.isConstructor() && (method.isPublic() || method.isProtected())) {
                return true;
            }
        }
        return false;
    }

    /**
     * Collects the application methods {@code method} overrides, and returns whether it overrides a
     * method of a non-application or unloadable type.
     */
    private boolean overrides(SootMethod method, List<String> applicationOverridden) {
        if (method.isStatic() || method.isPrivate() || method.isConstructor()) {
            return false;
        }
        String subSignature = method.getSubSignature();
        boolean outside = false;
        for (SootClass type :
                supertypes.computeIfAbsent(method.getDeclaringClass(), this::supertypesOf)) {
            if (type.isPhantom()) {
                outside = true;
                continue;
            }
            SootMethod candidate = type.getMethodUnsafe(subSignature);
            if (candidate != null && !candidate.isStatic() && !candidate.isPrivate()) {
                if (request.applicationClasses().contains(type.getName())) {
                    applicationOverridden.add(candidate.getSignature());
                } else {
                    outside = true;
                }
            }
        }
        return outside;
    }

    /**
     * The proper supertypes of {@code owner}, breadth first (superclass before interfaces); the
     * supertypes of a phantom type are unknown and not listed. Computed once per class.
     */
    private List<SootClass> supertypesOf(SootClass owner) {
        List<SootClass> out = new ArrayList<>();
        Set<SootClass> seen = new HashSet<>();
        Deque<SootClass> work = new ArrayDeque<>();
        if (owner.hasSuperclass()) {
            work.add(owner.getSuperclass());
        }
        work.addAll(owner.getInterfaces());
        while (!work.isEmpty()) {
            SootClass type = work.poll();
            if (!seen.add(type)) {
                continue;
            }
            out.add(type);
            if (type.isPhantom()) {
                continue;
            }
            if (type.hasSuperclass()) {
                work.add(type.getSuperclass());
            }
            work.addAll(type.getInterfaces());
        }
        return out;
    }

    /**
     * Deserialization runs the no-argument constructor of the first non-serializable superclass of
     * a serializable class: that constructor has a caller the code does not show.
     */
    private Set<String> serializationConstructors() {
        Set<String> out = new TreeSet<>();
        RefType serializable = RefType.v("java.io.Serializable");
        for (String className : request.applicationClasses()) {
            SootClass type = Scene.v().getSootClassUnsafe(className, false);
            if (type == null || type.isPhantom() || type.isInterface()) {
                continue;
            }
            if (!hierarchy.canStoreType(type.getType(), serializable)) {
                continue;
            }
            SootClass current = type;
            while (current != null
                    && !current.isPhantom()
                    && hierarchy.canStoreType(current.getType(), serializable)) {
                current = current.hasSuperclass() ? current.getSuperclass() : null;
            }
            if (current != null && request.applicationClasses().contains(current.getName())) {
                SootMethod constructor = current.getMethodUnsafe("void <init>()");
                if (constructor != null) {
                    out.add(constructor.getSignature());
                }
            }
        }
        return out;
    }
}
