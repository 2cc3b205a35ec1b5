package dev.fieldprof.analysis.soot;

import dev.fieldprof.analysis.phases.PhaseMeter;
import java.io.File;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
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
import soot.Value;
import soot.ValueBox;
import soot.jimple.ArrayRef;
import soot.jimple.AssignStmt;
import soot.jimple.BinopExpr;
import soot.jimple.CastExpr;
import soot.jimple.DivExpr;
import soot.jimple.DynamicInvokeExpr;
import soot.jimple.EnterMonitorStmt;
import soot.jimple.ExitMonitorStmt;
import soot.jimple.IdentityStmt;
import soot.jimple.InstanceFieldRef;
import soot.jimple.InstanceInvokeExpr;
import soot.jimple.InterfaceInvokeExpr;
import soot.jimple.InvokeExpr;
import soot.jimple.LengthExpr;
import soot.jimple.NewArrayExpr;
import soot.jimple.NewExpr;
import soot.jimple.NewMultiArrayExpr;
import soot.jimple.RemExpr;
import soot.jimple.ReturnStmt;
import soot.jimple.ReturnVoidStmt;
import soot.jimple.SpecialInvokeExpr;
import soot.jimple.StaticInvokeExpr;
import soot.jimple.Stmt;
import soot.jimple.ThisRef;
import soot.jimple.ThrowStmt;
import soot.options.Options;
import soot.toolkits.graph.BriefUnitGraph;
import soot.toolkits.scalar.SimpleLocalDefs;

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
    private final Map<String, Boolean> overridableFromOutside = new HashMap<>();
    private final Map<String, Dispatch> dispatches = new HashMap<>();
    private final Map<SootClass, List<SootClass>> supertypes = new HashMap<>();
    private FastHierarchy hierarchy;

    private SootProgramLoader(Request request) {
        this.request = request;
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
        List<Unit> units = new ArrayList<>(body.getUnits());
        Map<Unit, Integer> index = new IdentityHashMap<>();
        for (int i = 0; i < units.size(); i++) {
            index.put(units.get(i), i);
        }
        BriefUnitGraph normal = new BriefUnitGraph(body);
        Local thisLocal = method.isStatic() ? null : body.getThisLocal();
        // With type assignment off, Soot's Jimple keeps other values in the Local of @this once
        // this is dead (`this = this.<f>; this = virtualinvoke this.<m>()`), and bytecode may
        // store into slot 0: where that Local is redefined, only the reaching definitions say
        // whether it holds the receiver.
        SimpleLocalDefs defs =
                thisLocal != null && redefined(thisLocal, body)
                        ? new SimpleLocalDefs(normal)
                        : null;
        ReceiverIdentity receiver = new ReceiverIdentity(thisLocal, defs);

        // Which traps cover each statement, and whether a catch-all covers it.
        List<List<Integer>> handlers = new ArrayList<>();
        boolean[] caughtForSure = new boolean[units.size()];
        for (int i = 0; i < units.size(); i++) {
            handlers.add(new ArrayList<>());
        }
        for (Trap trap : body.getTraps()) {
            int from = index.get(trap.getBeginUnit());
            int to = index.get(trap.getEndUnit());
            int handler = index.get(trap.getHandlerUnit());
            boolean catchAll = trap.getException().getName().equals("java.lang.Throwable");
            for (int i = from; i < to; i++) {
                handlers.get(i).add(handler);
                caughtForSure[i] |= catchAll;
            }
        }

        int n = units.size();
        int[][] successors = new int[n][];
        int[][] handlerArrays = new int[n][];
        boolean[] intrinsic = new boolean[n];
        boolean[] returns = new boolean[n];
        boolean[] explicitExits = new boolean[n];
        int[] callSiteOf = new int[n];
        List<CallSiteFacts> callSites = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Unit unit = units.get(i);
            List<Unit> next = normal.getSuccsOf(unit);
            successors[i] = new int[next.size()];
            for (int k = 0; k < next.size(); k++) {
                successors[i][k] = index.get(next.get(k));
            }
            handlerArrays[i] = handlers.get(i).stream().mapToInt(Integer::intValue).toArray();
            intrinsic[i] = mayThrowByItself(unit, receiver);
            returns[i] = unit instanceof ReturnStmt || unit instanceof ReturnVoidStmt;
            explicitExits[i] =
                    returns[i]
                            || (unit instanceof ThrowStmt && handlers.get(i).isEmpty())
                            || next.isEmpty();
            callSiteOf[i] = -1;
            if (unit instanceof Stmt stmt && stmt.containsInvokeExpr()) {
                if (defs == null) {
                    defs = new SimpleLocalDefs(normal);
                }
                callSiteOf[i] = callSites.size();
                callSites.add(callSite(i, stmt, receiver, defs));
            }
        }
        List<String> overridden = new ArrayList<>();
        boolean overridesOutside = overrides(method, overridden);
        return new MethodFacts(
                method.getSignature(),
                method.getModifiers(),
                overridesOutside,
                overridden,
                units.size(),
                callSites,
                new StatementFacts(
                        successors,
                        handlerArrays,
                        caughtForSure,
                        intrinsic,
                        returns,
                        explicitExits,
                        callSiteOf));
    }

    /**
     * Whether a statement may raise an exception by itself (what a called method throws is the
     * exception flow's business). VM errors and class initialization or linkage errors are assumed
     * away, as for any profiler: so {@code new} cannot throw, array allocation can.
     */
    private static boolean mayThrowByItself(Unit unit, ReceiverIdentity receiver) {
        if (unit instanceof ThrowStmt
                || unit instanceof EnterMonitorStmt
                || unit instanceof ExitMonitorStmt) {
            return true;
        }
        for (ValueBox box : unit.getUseAndDefBoxes()) {
            Value value = box.getValue();
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
            if (value instanceof InstanceFieldRef field
                    && !receiver.isThis(field.getBase(), unit)) {
                return true;
            }
            // Integer division by zero throws; only a known floating-point type cannot.
            if ((value instanceof DivExpr || value instanceof RemExpr)
                    && !(((BinopExpr) value).getType() instanceof soot.FloatType)
                    && !(((BinopExpr) value).getType() instanceof soot.DoubleType)) {
                return true;
            }
        }
        return false;
    }

    private CallSiteFacts callSite(
            int statement, Stmt stmt, ReceiverIdentity receiver, SimpleLocalDefs defs) {
        InvokeExpr invoke = stmt.getInvokeExpr();
        SootMethodRef ref = invoke.getMethodRef();
        String declared = ref.getSignature();
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
            guaranteesEntry = receiver.isThis(base, stmt) || neverNull(base, stmt, defs);
        }
        Set<String> targets = new TreeSet<>();
        // Sites of one dispatch share its immutable target list, so the pairs' algorithm can
        // count them per list instead of walking the same thousands of targets at every site.
        List<String> shared = null;
        boolean complete;
        if (kind == CallKind.DYNAMIC) {
            complete = false;
        } else {
            SootClass declaring = ref.declaringClass();
            SootMethod resolved = tryResolve(ref);
            if (resolved == null || declaring.isPhantom()) {
                complete = false;
            } else if (kind == CallKind.STATIC || kind == CallKind.SPECIAL) {
                targets.add(resolved.getSignature());
                complete = !resolved.getDeclaringClass().isPhantom();
            } else if (resolved.isPrivate()
                    || resolved.isFinal()
                    || resolved.isStatic()
                    || (declaring.isFinal() && !declaring.isInterface())) {
                // No override can exist: the resolved method is the only possible target.
                targets.add(resolved.getSignature());
                complete = !resolved.isAbstract();
            } else {
                Dispatch dispatch =
                        dispatches.computeIfAbsent(
                                kind + " " + declared, k -> dispatch(declaring, ref));
                shared = dispatch.targets();
                complete = dispatch.complete();
            }
        }
        return new CallSiteFacts(
                statement,
                kind,
                declared,
                shared != null ? shared : new ArrayList<>(targets),
                complete,
                guaranteesEntry);
    }

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
        complete &= dispatchIsClosed(declaring, ref.getSubSignature().getString());
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
     * call cannot NPE.
     */
    private static boolean neverNull(Local base, Stmt at, SimpleLocalDefs defs) {
        List<Unit> definitions = defs.getDefsOfAt(base, at);
        if (definitions.isEmpty()) {
            return false;
        }
        for (Unit definition : definitions) {
            if (definition instanceof IdentityStmt identity
                    && identity.getRightOp() instanceof ThisRef) {
                continue;
            }
            if (definition instanceof AssignStmt assign
                    && (assign.getRightOp() instanceof NewExpr
                            || assign.getRightOp() instanceof NewArrayExpr
                            || assign.getRightOp() instanceof NewMultiArrayExpr)) {
                continue;
            }
            return false;
        }
        return true;
    }

    /** Whether the Local of {@code @this} is assigned anywhere but by its identity statement. */
    private static boolean redefined(Local thisLocal, Body body) {
        for (Unit unit : body.getUnits()) {
            if (unit instanceof IdentityStmt identity && identity.getRightOp() instanceof ThisRef) {
                continue;
            }
            for (ValueBox box : unit.getDefBoxes()) {
                if (box.getValue() == thisLocal) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Which values at which statements are the receiver {@code this}: the Local of {@code @this}
     * where nothing else assigns it, else only where every definition reaching the use is {@code
     * @this}.
     */
    private record ReceiverIdentity(Local thisLocal, SimpleLocalDefs defs) {
        boolean isThis(Value value, Unit at) {
            if (thisLocal == null || value != thisLocal) {
                return false;
            }
            if (defs == null) {
                return true;
            }
            List<Unit> definitions = defs.getDefsOfAt(thisLocal, at);
            if (definitions.isEmpty()) {
                return false;
            }
            for (Unit definition : definitions) {
                if (!(definition instanceof IdentityStmt identity
                        && identity.getRightOp() instanceof ThisRef)) {
                    return false;
                }
            }
            return true;
        }
    }

    /**
     * True if every class the receiver can have at run time is a loaded application class that no
     * unknown code can subclass in a way that changes the dispatch.
     */
    private boolean dispatchIsClosed(SootClass declared, String subSignature) {
        Set<SootClass> types = subtypesAndSelf(declared);
        for (SootClass type : types) {
            if (type.isPhantom()
                    || !request.applicationClasses().contains(type.getName())
                    || request.openTypes().contains(type.getName())
                    || (request.proxies() && type.isInterface())) {
                // A library type, a type lambdas or proxies implement, or an unloaded one: the
                // receiver may be an object of a class we do not see.
                return false;
            }
            if (request.library() && extensibleFromOutside(type, subSignature)) {
                return false;
            }
        }
        return true;
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
     * constructor (or implement a public interface) and override the method.
     */
    private boolean extensibleFromOutside(SootClass type, String subSignature) {
        String key = type.getName() + "#" + subSignature;
        Boolean cached = overridableFromOutside.get(key);
        if (cached != null) {
            return cached;
        }
        boolean extensible =
                type.isPublic()
                        && !type.isFinal()
                        && !request.sealedTypes().contains(type.getName())
                        && (type.isInterface() || hasAccessibleConstructor(type));
        if (extensible) {
            SootMethod declared = type.getMethodUnsafe(subSignature);
            if (declared != null && (declared.isFinal() || declared.isPrivate())) {
                extensible = false;
            }
        }
        overridableFromOutside.put(key, extensible);
        return extensible;
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
