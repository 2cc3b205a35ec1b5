package dev.fieldprof.analysis.soot;

/** How a call site invokes its target, as the JVM instruction (Jimple invoke expression) says. */
public enum CallKind {
    STATIC,
    SPECIAL,
    VIRTUAL,
    INTERFACE,
    DYNAMIC
}
