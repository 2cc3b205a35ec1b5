package dev.fieldprof.analysis.soot;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import soot.SootClass;
import soot.SootMethod;

/**
 * Which methods an application method overrides or implements: those of application types feed rule
 * 2's unknown callers through the overridden method, one of a library or unloadable type gives the
 * method callers the jar does not show. Supertypes are listed once per class.
 */
final class OverriddenMethods {

    private final Set<String> applicationClasses;
    private final Map<SootClass, List<SootClass>> supertypes = new HashMap<>();

    OverriddenMethods(Set<String> applicationClasses) {
        this.applicationClasses = applicationClasses;
    }

    /**
     * Collects the application methods {@code method} overrides, and returns whether it overrides a
     * method of a non-application or unloadable type.
     */
    boolean overrides(SootMethod method, List<String> applicationOverridden) {
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
                if (applicationClasses.contains(type.getName())) {
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
}
