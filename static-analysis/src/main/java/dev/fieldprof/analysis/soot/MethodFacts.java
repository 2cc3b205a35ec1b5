package dev.fieldprof.analysis.soot;

import java.util.List;

/**
 * What Soot knows about one application method with a body: its modifiers, which methods it
 * overrides, its call sites and its statement graph.
 *
 * @param signature Soot signature
 * @param access JVM access flags (public, static, final, ...)
 * @param overridesNonApplication overrides or implements, directly or transitively, a method of a
 *     class outside the application (library or JDK), or of a class that could not be loaded
 * @param overriddenApplicationMethods application methods it overrides or implements
 * @param statements number of Jimple statements
 * @param callSites the body's call sites in statement order
 * @param code the statements, for the exception flow, dominance and loop checks
 */
public record MethodFacts(
        String signature,
        int access,
        boolean overridesNonApplication,
        List<String> overriddenApplicationMethods,
        int statements,
        List<CallSiteFacts> callSites,
        StatementFacts code) {

    public MethodFacts {
        overriddenApplicationMethods = List.copyOf(overriddenApplicationMethods);
        callSites = List.copyOf(callSites);
    }
}
