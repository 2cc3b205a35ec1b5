package dev.fieldprof.analysis.soot;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BiFunction;
import soot.FastHierarchy;
import soot.SootClass;
import soot.SootMethod;
import soot.SootMethodRef;

/**
 * What the calls of one kind through one method reference may reach, through the class hierarchy
 * fixed after the bodies are built (per reference, not cg.cha, which walks the whole JDK). Many
 * call sites share a reference, so each distinct one is resolved once and its sites share the
 * result.
 */
final class CallResolution {

    private final FastHierarchy hierarchy;
    private final DispatchClosure closure;
    private final MethodRefTable<CallTarget> callTargets = new MethodRefTable<>();
    // One instance for every lookup: a method reference made at each call was not optimized away.
    private final BiFunction<CallKind, SootMethodRef, CallTarget> resolution = this::resolve;

    CallResolution(FastHierarchy hierarchy, DispatchClosure closure) {
        this.hierarchy = hierarchy;
        this.closure = closure;
    }

    /** The resolution of a call of {@code kind} through {@code ref}, computed on first need. */
    CallTarget of(CallKind kind, SootMethodRef ref) {
        return callTargets.computeIfAbsent(kind, ref, resolution);
    }

    /**
     * What every call of one kind through one method reference resolves to. It depends only on the
     * reference (declaring class, name, parameter and return types, static or not: what Soot's
     * references compare) and the fixed hierarchy, so it is computed once per distinct reference
     * instead of at each of its sites, and the sites share its immutable target list.
     */
    private CallTarget resolve(CallKind kind, SootMethodRef ref) {
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
    record CallTarget(String declared, List<String> targets, boolean complete) {}

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
        complete &= closure.isClosed(declaring, ref.getSubSignature());
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
}
