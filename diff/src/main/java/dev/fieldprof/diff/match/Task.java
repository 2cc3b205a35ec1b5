package dev.fieldprof.diff.match;

import dev.fieldprof.diff.cct.CctNode;

/**
 * An EFLASK (DiffProf §3.2, docs/references.md): the call path to a framework method (F-method)
 * that an application callback invoked, that F-method, and its subtree. Its cost is the F-method's
 * inclusive cost, as DiffProf assigns a task's energy (§4).
 *
 * @param entry the F-method's node; its path from the root is the task's call path
 */
public record Task(CctNode entry) {

    /** The F-method's frame name. */
    public String method() {
        return entry.name();
    }

    /** Inclusive cost of the F-method. */
    public long cost() {
        return entry.inclusive();
    }

    /** The call path, root first, ending with the F-method. */
    public java.util.List<String> path() {
        return entry.path();
    }
}
