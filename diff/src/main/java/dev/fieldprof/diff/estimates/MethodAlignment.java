package dev.fieldprof.diff.estimates;

import dev.fieldprof.diff.cct.CallingContextTree;
import dev.fieldprof.diff.cct.CctNode;
import dev.fieldprof.diff.match.EflaskMatcher;
import dev.fieldprof.diff.match.LabelEquivalence;
import dev.fieldprof.diff.match.NodeMatching;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Pairs the methods of two releases: first by equal signature; then, when both call graphs are
 * given, the remaining methods of V1 with the remaining ones of V2 that the EFLASK matching
 * (DiffProf §3.4.3, docs/references.md; {@link EflaskMatcher}) of the unfolded call graphs ({@link
 * CallGraph#unfold()}) pairs. Two choices adapt the matching to renames and moves: labels are
 * equivalent when they name the same method and parameters in any class (a moved class keeps its
 * methods' names), and below two paired callers the one unpaired callee left on each side is paired
 * too (a renamed method sits at the same call site, but the matcher pairs differently named nodes
 * only when something below them matched). A method of V1 whose nodes were aligned with several
 * methods of V2 goes to the one aligned most often (ties by signature), each method at most once.
 * Stateless.
 */
public final class MethodAlignment {
    /** How a pair was found. */
    public enum Source {
        /** Equal signatures. */
        SIGNATURE,
        /** Aligned by the EFLASK matching of the two call graphs. */
        CALL_GRAPH
    }

    /** Method {@code first} of V1 paired with method {@code second} of V2. */
    public record Pair(int first, int second, Source source) {}

    /**
     * The pairs and the methods left over on each side.
     *
     * @param pairs pairs by V1 method id
     * @param gone methods of V1 without a partner, by id
     * @param added methods of V2 without a partner, by id
     */
    public record Result(List<Pair> pairs, List<Integer> gone, List<Integer> added) {
        public Result {
            pairs = List.copyOf(pairs);
            gone = List.copyOf(gone);
            added = List.copyOf(added);
        }
    }

    private MethodAlignment() {}

    /**
     * Aligns the methods of V1 and V2.
     *
     * @param graphs the two call graphs (their signatures those of the estimates), or {@code null}
     *     to pair by signature only
     * @param alpha the relaxed path condition of the call graph matching, 0 <= α <= 100
     */
    public static Result align(
            List<String> first, List<String> second, CallGraph[] graphs, int alpha) {
        Map<String, Integer> idOfSecond = new HashMap<>();
        for (int w = 0; w < second.size(); w++) {
            idOfSecond.put(second.get(w), w);
        }
        Integer[] partner = new Integer[first.size()];
        Source[] source = new Source[first.size()];
        boolean[] taken = new boolean[second.size()];
        for (int v = 0; v < first.size(); v++) {
            Integer w = idOfSecond.get(first.get(v));
            if (w != null) {
                partner[v] = w;
                source[v] = Source.SIGNATURE;
                taken[w] = true;
            }
        }
        if (graphs != null) {
            if (graphs.length != 2
                    || !graphs[0].signatures().equals(first)
                    || !graphs[1].signatures().equals(second)) {
                throw new IllegalArgumentException(
                        "the call graphs must be those of the two estimates' releases");
            }
            alignByCallGraph(first, second, graphs, alpha, idOfSecond, partner, source, taken);
        }
        List<Pair> pairs = new ArrayList<>();
        List<Integer> gone = new ArrayList<>();
        List<Integer> added = new ArrayList<>();
        for (int v = 0; v < first.size(); v++) {
            if (partner[v] == null) {
                gone.add(v);
            } else {
                pairs.add(new Pair(v, partner[v], source[v]));
            }
        }
        for (int w = 0; w < second.size(); w++) {
            if (!taken[w]) {
                added.add(w);
            }
        }
        return new Result(pairs, gone, added);
    }

    /**
     * γ = 0 for the same method name and parameters in any class ({@code <a.B: void m(int)>} and
     * {@code <c.B: void m(int)>}): a moved class keeps its methods' names, so the matcher can pair
     * them and everything below.
     */
    private static final LabelEquivalence SAME_METHOD_IN_ANY_CLASS =
            new LabelEquivalence() {
                @Override
                public boolean equivalent(String a, String b) {
                    return bucket(a).equals(bucket(b));
                }

                @Override
                public String bucket(String label) {
                    int colon = label.indexOf(": ");
                    return label.startsWith("<") && colon > 0 ? label.substring(colon + 2) : label;
                }
            };

    /** The one child of {@code node} that is unpaired and still needs a partner, or null. */
    private static CctNode onlyUnpairedChild(
            CctNode node, Set<CctNode> paired, Map<String, Integer> unmatched) {
        CctNode only = null;
        for (CctNode child : node.children()) {
            if (!paired.contains(child)) {
                if (only != null) {
                    return null;
                }
                only = child;
            }
        }
        return only != null && unmatched.containsKey(only.name()) ? only : null;
    }

    private static void alignByCallGraph(
            List<String> first,
            List<String> second,
            CallGraph[] graphs,
            int alpha,
            Map<String, Integer> idOfSecond,
            Integer[] partner,
            Source[] source,
            boolean[] taken) {
        Map<String, Integer> idOfFirst = new HashMap<>();
        for (int v = 0; v < first.size(); v++) {
            if (partner[v] == null) {
                idOfFirst.put(first.get(v), v);
            }
        }
        if (idOfFirst.isEmpty()) {
            return;
        }
        CallingContextTree a = graphs[0].unfold();
        CallingContextTree b = graphs[1].unfold();
        NodeMatching matching = new EflaskMatcher(alpha, SAME_METHOD_IN_ANY_CLASS).match(a, b);
        // Votes for (v, w): how many nodes of v were paired with nodes of w.
        Map<Long, Integer> votes = new HashMap<>();
        Set<CctNode> pairedA = Collections.newSetFromMap(new IdentityHashMap<>());
        Set<CctNode> pairedB = Collections.newSetFromMap(new IdentityHashMap<>());
        Deque<NodeMatching.Pair> queue = new ArrayDeque<>(matching.pairs());
        for (NodeMatching.Pair pair : matching.pairs()) {
            pairedA.add(pair.a());
            pairedB.add(pair.b());
        }
        while (!queue.isEmpty()) {
            NodeMatching.Pair pair = queue.poll();
            Integer v = idOfFirst.get(pair.a().name());
            Integer w = idOfSecond.get(pair.b().name());
            if (v != null && w != null && !taken[w]) {
                votes.merge(((long) v << 32) | w, 1, Integer::sum);
            }
            // A renamed leaf (or a renamed method whose callees were renamed too) has no equally
            // named descendant, so the matcher leaves it out. Below a paired caller, the one
            // unpaired callee left on each side is the same call site: pair them.
            CctNode onlyA = onlyUnpairedChild(pair.a(), pairedA, idOfFirst);
            CctNode onlyB = onlyUnpairedChild(pair.b(), pairedB, idOfSecond);
            if (onlyA != null && onlyB != null) {
                pairedA.add(onlyA);
                pairedB.add(onlyB);
                queue.add(new NodeMatching.Pair(onlyA, onlyB, false));
            }
        }
        List<Map.Entry<Long, Integer>> ranked = new ArrayList<>(votes.entrySet());
        ranked.sort(
                Comparator.comparing((Map.Entry<Long, Integer> e) -> -e.getValue())
                        .thenComparing(e -> first.get((int) (e.getKey() >>> 32)))
                        .thenComparing(e -> second.get((int) (long) e.getKey())));
        Set<Integer> used = new HashSet<>();
        for (Map.Entry<Long, Integer> e : ranked) {
            int v = (int) (e.getKey() >>> 32);
            int w = (int) (long) e.getKey();
            if (partner[v] == null && !taken[w] && used.add(w)) {
                partner[v] = w;
                source[v] = Source.CALL_GRAPH;
                taken[w] = true;
            }
        }
    }
}
