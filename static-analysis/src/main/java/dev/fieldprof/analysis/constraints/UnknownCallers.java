package dev.fieldprof.analysis.constraints;

import dev.fieldprof.analysis.soot.CallKind;
import dev.fieldprof.analysis.soot.CallSiteFacts;
import dev.fieldprof.analysis.soot.MethodFacts;
import dev.fieldprof.analysis.soot.ProgramFacts;
import dev.fieldprof.bytecode.MethodSignatures;
import dev.fieldprof.bytecode.jar.BytecodeScan;
import java.lang.reflect.Modifier;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The application methods that code outside the application's call sites may invoke, each with the
 * first reason found. Rule 2 of the order-pair analysis (frequency profiling, docs/references.md:
 * Algorithm 1 lines 6-7, Section 4.3) needs every caller of m' to be a known call site; that
 * analysis names overrides of platform methods, and a Java program adds static initializers,
 * lambdas and method handles, reflection, serialization, service loading, main methods, calls from
 * the jar's other classes and, for a library, every method its users can reach.
 */
public final class UnknownCallers {

    private static final Set<String> SERIALIZATION_HOOKS =
            Set.of(
                    "void readObject(java.io.ObjectInputStream)",
                    "void writeObject(java.io.ObjectOutputStream)",
                    "void readObjectNoData()",
                    "java.lang.Object readResolve()",
                    "java.lang.Object writeReplace()");

    private final Map<String, String> reasons;

    private UnknownCallers(Map<String, String> reasons) {
        this.reasons = Collections.unmodifiableMap(reasons);
    }

    /**
     * @param library true when the jar is a library: its users' code calls any public or protected
     *     method and may subclass its public types
     */
    public static UnknownCallers compute(ProgramFacts facts, BytecodeScan scan, boolean library) {
        return compute(facts, scan, library, PairRules.SOUND);
    }

    /**
     * Under {@link PairRules#PAPER} only overrides of library methods count, as in the published
     * analysis.
     */
    public static UnknownCallers compute(
            ProgramFacts facts, BytecodeScan scan, boolean library, PairRules rules) {
        if (rules == PairRules.PAPER) {
            Map<String, String> overrides = new TreeMap<>();
            for (MethodFacts method : facts.methods().values()) {
                if (method.overridesNonApplication()) {
                    overrides.put(method.signature(), "overrides a library or JDK method");
                }
            }
            return new UnknownCallers(overrides);
        }
        // A hash map: a tree map of the long signatures of a library's every API method had 18% of
        // algorithm1's samples on the Kotlin compiler. Each signature's first reason does not
        // depend on the map; its users copy it (the model sorts it).
        Map<String, String> reasons = new HashMap<>();
        Map<String, List<String>> bySubSignature = new HashMap<>();
        Map<String, List<String>> byReferenceKey = new HashMap<>();
        for (String signature : facts.methods().keySet()) {
            bySubSignature
                    .computeIfAbsent(subSignature(signature), k -> new java.util.ArrayList<>())
                    .add(signature);
            String key = scan.referenceKey(signature);
            if (key != null) {
                byReferenceKey
                        .computeIfAbsent(key, k -> new java.util.ArrayList<>())
                        .add(signature);
            }
        }

        for (MethodFacts method : facts.methods().values()) {
            String signature = method.signature();
            String name = MethodSignatures.methodName(signature);
            String owner = MethodSignatures.declaringClass(signature);
            String sub = subSignature(signature);
            int access = method.access();
            String reason = null;
            if (name.equals("<clinit>")) {
                reason = "static initializer (run by the JVM)";
            } else if (method.overridesNonApplication()) {
                reason = "overrides a library or JDK method";
            } else if (scan.handleTargets().contains(signature)) {
                reason = "lambda, method reference or method handle target";
            } else if (Modifier.isStatic(access) && sub.equals("void main(java.lang.String[])")) {
                reason = "main method";
            } else if (SERIALIZATION_HOOKS.contains(sub)) {
                reason = "serialization hook";
            } else if (facts.serializationConstructors().contains(signature)) {
                reason = "constructor run by deserialization";
            } else if (Modifier.isStatic(access)
                    && (sub.equals(owner + "[] values()")
                            || sub.equals(owner + " valueOf(java.lang.String)"))) {
                reason = "enum method called reflectively by java.lang.Enum";
            } else if (library && (Modifier.isPublic(access) || Modifier.isProtected(access))) {
                reason = "library API (callable by the library's users)";
            } else if (name.equals("<init>") && scan.serviceProviders().contains(owner)) {
                reason = "service provider constructor";
            } else if (name.equals("<init>")
                    && scan.usesReflectiveConstruction()
                    && (sub.equals("void <init>()")
                            || scan.classConstants().contains(owner)
                            || scan.stringConstants().contains(owner))) {
                reason = "constructor reachable by reflection";
            } else if (!name.startsWith("<")
                    && scan.usesReflectiveMethodCalls()
                    && (scan.stringConstants().contains(name) || Modifier.isPublic(access))) {
                reason = "method reachable by reflection";
            }
            if (reason != null) {
                reasons.put(signature, reason);
            }
        }

        // Calls the analysis cannot attribute to a known call site: from the jar's other
        // classes, from bodies Soot could not build, and through unresolvable references.
        for (String key : scan.referencedFromOutside()) {
            for (String target : byReferenceKey.getOrDefault(key, List.of())) {
                reasons.putIfAbsent(target, "called from a non-application class of the jar");
            }
        }
        for (String skipped : facts.skipped().keySet()) {
            for (String key : scan.referencesOf(skipped)) {
                for (String target : byReferenceKey.getOrDefault(key, List.of())) {
                    reasons.putIfAbsent(target, "called from a method that could not be analysed");
                }
            }
        }
        Set<String> unresolvedSubSignatures = new HashSet<>();
        for (MethodFacts method : facts.methods().values()) {
            for (CallSiteFacts site : method.callSites()) {
                if (site.targets().isEmpty() && site.kind() != CallKind.DYNAMIC) {
                    unresolvedSubSignatures.add(subSignature(site.declaredSignature()));
                }
            }
        }
        for (String sub : unresolvedSubSignatures) {
            for (String target : bySubSignature.getOrDefault(sub, List.of())) {
                reasons.putIfAbsent(target, "possible target of an unresolved call");
            }
        }

        // Whoever calls a method with unknown callers through dispatch may reach its overrides.
        Map<String, List<String>> overriders = new HashMap<>();
        for (MethodFacts method : facts.methods().values()) {
            for (String overridden : method.overriddenApplicationMethods()) {
                overriders
                        .computeIfAbsent(overridden, k -> new java.util.ArrayList<>())
                        .add(method.signature());
            }
        }
        // In signature order, as before: which overridden method an overrider's reason names
        // depends on the order.
        List<String> withReasons = new ArrayList<>(reasons.keySet());
        Collections.sort(withReasons);
        Deque<String> work = new ArrayDeque<>(withReasons);
        Set<String> done = new HashSet<>();
        while (!work.isEmpty()) {
            String current = work.poll();
            if (!done.add(current)) {
                continue;
            }
            for (String overrider : overriders.getOrDefault(current, List.of())) {
                if (reasons.putIfAbsent(overrider, "overrides " + current) == null) {
                    work.add(overrider);
                }
            }
        }
        return new UnknownCallers(reasons);
    }

    /** Methods with unknown callers → the first reason found, in no particular order. */
    public Map<String, String> reasons() {
        return reasons;
    }

    public boolean contains(String signature) {
        return reasons.containsKey(signature);
    }

    /** {@code <a.B: int f(int)>} → {@code int f(int)}. */
    static String subSignature(String signature) {
        int colon = signature.indexOf(": ");
        return signature.substring(colon + 2, signature.length() - 1);
    }
}
