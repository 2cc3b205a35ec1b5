package dev.fieldprof.analysis.soot;

import java.util.List;

/**
 * One call site of an application method, resolved against the class hierarchy.
 *
 * @param statement index of the invoke statement in the caller's Jimple body
 * @param kind invoke kind
 * @param declaredSignature the method reference as written at the call site
 * @param targets every method the call may dispatch to among the loaded classes (application or
 *     not), in signature order; empty when the reference could not be resolved
 * @param targetsComplete true when no other target can exist: no unloaded/phantom class, no lambda
 *     or proxy implementation, and no subclass outside the jar can override the target
 * @param guaranteesEntry true when reaching the statement enters a target: the receiver is never
 *     null (static call, {@code this}, or a freshly allocated object)
 */
public record CallSiteFacts(
        int statement,
        CallKind kind,
        String declaredSignature,
        List<String> targets,
        boolean targetsComplete,
        boolean guaranteesEntry) {

    public CallSiteFacts {
        targets = List.copyOf(targets);
    }
}
