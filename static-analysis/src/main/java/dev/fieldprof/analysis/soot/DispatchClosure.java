package dev.fieldprof.analysis.soot;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import soot.FastHierarchy;
import soot.SootClass;
import soot.SootMethod;
import soot.util.NumberedString;

/**
 * Whether a virtual or interface call's targets among the loaded classes are all it can reach: rule
 * 1 needs a closed target set, and in a library a user's subclass may override. What depends on a
 * type alone is decided once per type.
 */
final class DispatchClosure {

    private final SootProgramLoader.Request request;
    private final FastHierarchy hierarchy;
    private final Map<SootClass, Boolean> extensibleTypes = new HashMap<>();
    private final Map<SootClass, List<SootClass>> closedSubtypes = new HashMap<>();

    DispatchClosure(SootProgramLoader.Request request, FastHierarchy hierarchy) {
        this.request = request;
        this.hierarchy = hierarchy;
    }

    /**
     * True if every class the receiver can have at run time is a loaded application class that no
     * unknown code can subclass in a way that changes the dispatch.
     */
    boolean isClosed(SootClass declared, NumberedString subSignature) {
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
}
