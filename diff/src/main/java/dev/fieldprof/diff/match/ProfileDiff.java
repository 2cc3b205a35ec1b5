package dev.fieldprof.diff.match;

import dev.fieldprof.diff.cct.CallingContextTree;
import java.util.List;

/**
 * The task-level difference of two profiles A and B (DiffProf §4, docs/references.md): matched
 * tasks sorted by the absolute difference of their inclusive costs, and the tasks of each side that
 * found no match, sorted by cost. Immutable.
 *
 * @param alpha the relaxed path condition's bound used
 * @param a the preprocessed tree of A
 * @param b the preprocessed tree of B
 * @param matching the node matching
 * @param matched matched tasks, largest |cost(B) − cost(A)| first
 * @param onlyInA tasks of A without a match, costliest first
 * @param onlyInB tasks of B without a match, costliest first
 */
public record ProfileDiff(
        int alpha,
        CallingContextTree a,
        CallingContextTree b,
        NodeMatching matching,
        List<TaskMatch> matched,
        List<Task> onlyInA,
        List<Task> onlyInB) {

    /**
     * A task of A matched to one of B.
     *
     * @param exact whether the F-methods have equivalent names (else they were aligned by their
     *     paths and subtrees, e.g. two alternative APIs for the same task)
     */
    public record TaskMatch(Task a, Task b, boolean exact) {
        /** cost(B) − cost(A). */
        public long difference() {
            return b.cost() - a.cost();
        }
    }

    public ProfileDiff {
        matched = List.copyOf(matched);
        onlyInA = List.copyOf(onlyInA);
        onlyInB = List.copyOf(onlyInB);
    }
}
