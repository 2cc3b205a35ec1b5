package dev.fieldprof.diff.match;

import dev.fieldprof.diff.cct.CctNode;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The result of {@link EflaskMatcher}: node pairs of the maximal matching, each either exact
 * (equivalent labels, counted in the matching's size) or an alignment of differently named nodes
 * whose subtrees matched (a relabeling in DiffProf's edit operations, §3.4.3; docs/references.md).
 * Immutable.
 */
public final class NodeMatching {
    /** One matched pair. */
    public record Pair(CctNode a, CctNode b, boolean exact) {}

    private final List<Pair> pairs;
    private final Map<CctNode, Pair> byA = new IdentityHashMap<>();
    private final Map<CctNode, Pair> byB = new IdentityHashMap<>();
    private final int size;
    private final long candidatePairs;

    NodeMatching(List<Pair> pairs, int size, long candidatePairs) {
        this.pairs = List.copyOf(pairs);
        for (Pair pair : this.pairs) {
            byA.put(pair.a(), pair);
            byB.put(pair.b(), pair);
        }
        this.size = size;
        this.candidatePairs = candidatePairs;
    }

    /** All pairs, exact and relabeled, in the order backtracking found them (top-down). */
    public List<Pair> pairs() {
        return pairs;
    }

    /** µα(T1, T2): the number of exact pairs. */
    public int size() {
        return size;
    }

    /** Σ |Cα(v)| over v in T1: the work the candidate pass did. */
    public long candidatePairs() {
        return candidatePairs;
    }

    /** The pair of a node of the first tree, or {@code null}. */
    public Pair ofA(CctNode a) {
        return byA.get(a);
    }

    /** The pair of a node of the second tree, or {@code null}. */
    public Pair ofB(CctNode b) {
        return byB.get(b);
    }
}
