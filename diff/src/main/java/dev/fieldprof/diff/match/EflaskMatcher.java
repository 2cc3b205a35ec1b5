package dev.fieldprof.diff.match;

import dev.fieldprof.diff.cct.CallingContextTree;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The EFLASK matching algorithm of DiffProf (docs/references.md, §3.4.3; docs/diff.md): a maximal
 * one-to-one matching of two calling-context trees under the ancestor and structure respecting
 * conditions and the relaxed path condition — a node v of T1 may only match a node w of T2 whose
 * root path s(w) is within path edit distance α of s(v) (unit costs, γ from a {@link
 * LabelEquivalence}).
 *
 * <p>Three passes, as in DiffProf:
 *
 * <ol>
 *   <li>top-down, the candidate sets Cα(v) = {w : ρ(s(v), s(w)) ≤ α}, each derived from the
 *       parent's with the string edit distance recurrence and pruned as soon as a distance exceeds
 *       α;
 *   <li>bottom-up, the subtree match function of Lemma 3.1: µα(v, w) = 0 for w ∉ Cα(v), else the
 *       largest of µα(v, wj) over children wj of w, µα(vi, w) over children vi of v, and the best
 *       restricted matching RM(v, w) of child subtrees plus 1 − γ(v, w);
 *   <li>backtracking from the roots to recover the pairs.
 * </ol>
 *
 * With α = 0 only nodes with identical root paths are candidates, which is exact path matching.
 * Deterministic; an instance is immutable and thread-safe (each call has its own state).
 */
public final class EflaskMatcher {
    private final int alpha;
    private final LabelEquivalence gamma;

    /**
     * @param alpha the relaxed path condition's bound, 0 <= α <= 100
     * @param gamma which labels relabel at no cost
     */
    public EflaskMatcher(int alpha, LabelEquivalence gamma) {
        if (alpha < 0 || alpha > 100) {
            throw new IllegalArgumentException("alpha must be in [0, 100], was " + alpha);
        }
        this.alpha = alpha;
        this.gamma = java.util.Objects.requireNonNull(gamma, "gamma");
    }

    public int alpha() {
        return alpha;
    }

    /** Matches the two trees. */
    public NodeMatching match(CallingContextTree first, CallingContextTree second) {
        return new Run(first, second).run();
    }

    /** The state of one matching. */
    private final class Run {
        private final IndexedTree t1;
        private final IndexedTree t2;
        private final List<String> labelNames = new ArrayList<>();

        /** For each label of T1, the labels of T2 equivalent to it (sorted). */
        private final int[][] equivalentLabels;

        /** Cα(v): T2 node ids in ascending (post-)order. */
        private final int[][] candidates;

        private final byte[][] distances;
        private final int[][] mu;
        private final RestrictedMatching restricted = new RestrictedMatching();

        Run(CallingContextTree first, CallingContextTree second) {
            Map<String, Integer> labels = new HashMap<>();
            t1 = new IndexedTree(first, labels);
            int firstLabels = labels.size();
            t2 = new IndexedTree(second, labels);
            String[] names = new String[labels.size()];
            labels.forEach((name, id) -> names[id] = name);
            labelNames.addAll(Arrays.asList(names));
            // Equivalent labels share a bucket; compare only within buckets.
            Map<String, List<Integer>> secondByBucket = new HashMap<>();
            boolean[] inSecond = new boolean[names.length];
            for (int id : t2.label) {
                inSecond[id] = true;
            }
            for (int id = 0; id < names.length; id++) {
                if (inSecond[id]) {
                    secondByBucket
                            .computeIfAbsent(gamma.bucket(names[id]), k -> new ArrayList<>())
                            .add(id);
                }
            }
            equivalentLabels = new int[Math.max(firstLabels, names.length)][];
            for (int id = 0; id < equivalentLabels.length; id++) {
                List<Integer> same =
                        secondByBucket.getOrDefault(gamma.bucket(names[id]), List.of());
                int[] eq = new int[same.size()];
                int k = 0;
                for (int other : same) {
                    if (gamma.equivalent(names[id], names[other])) {
                        eq[k++] = other;
                    }
                }
                eq = Arrays.copyOf(eq, k);
                Arrays.sort(eq);
                equivalentLabels[id] = eq;
            }
            candidates = new int[t1.size()][];
            distances = new byte[t1.size()][];
            mu = new int[t1.size()][];
        }

        NodeMatching run() {
            computeCandidates();
            long candidatePairs = 0;
            for (int[] c : candidates) {
                candidatePairs += c.length;
            }
            computeSubtreeMatches();
            return backtrack(candidatePairs);
        }

        private boolean equivalent(int v, int w) {
            return Arrays.binarySearch(equivalentLabels[t1.label[v]], t2.label[w]) >= 0;
        }

        // ---- Pass 1: candidate sets, top-down --------------------------------------------

        private void computeCandidates() {
            int n2 = t2.size();
            int[] best = new int[n2];
            Arrays.fill(best, Integer.MAX_VALUE);
            IntList touched = new IntList();
            IntList[] buckets = new IntList[alpha + 1];
            for (int d = 0; d <= alpha; d++) {
                buckets[d] = new IntList();
            }
            // Reverse post-order visits every parent before its children.
            for (int v = t1.size() - 1; v >= 0; v--) {
                for (IntList bucket : buckets) {
                    bucket.clear();
                }
                touched.clear();
                int p = t1.parent[v];
                // The empty path of T2 against s(p) costs |s(p)| (delete everything); the
                // virtual parent of both roots is the empty path.
                int parentToEmpty = p < 0 ? 0 : t1.pathLength[p];
                if (parentToEmpty <= alpha) {
                    int w = t2.root;
                    int d = parentToEmpty + (equivalent(v, w) ? 0 : 1);
                    relax(best, touched, buckets, w, d);
                }
                if (p >= 0) {
                    int[] pc = candidates[p];
                    byte[] pd = distances[p];
                    int[] eq = equivalentLabels[t1.label[v]];
                    for (int k = 0; k < pc.length; k++) {
                        int w = pc[k];
                        int d = pd[k];
                        // Delete v: s(v) against s(w) costs ρ(s(p), s(w)) + 1.
                        relax(best, touched, buckets, w, d + 1);
                        // Match or relabel v with a child of w.
                        if (d + 1 <= alpha) {
                            for (int wc : t2.children[w]) {
                                int cost = d + (equivalent(v, wc) ? 0 : 1);
                                relax(best, touched, buckets, wc, cost);
                            }
                        } else {
                            // Pruned: only a free relabeling keeps the distance within α.
                            for (int l : eq) {
                                int wc = t2.childWithLabel(w, l);
                                if (wc >= 0) {
                                    relax(best, touched, buckets, wc, d);
                                }
                            }
                        }
                    }
                }
                // Insert nodes of T2: a child of a candidate at distance d is at most d + 1.
                for (int d = 0; d < alpha; d++) {
                    IntList bucket = buckets[d];
                    for (int i = 0; i < bucket.size; i++) {
                        int w = bucket.values[i];
                        if (best[w] != d) {
                            continue;
                        }
                        for (int wc : t2.children[w]) {
                            relax(best, touched, buckets, wc, d + 1);
                        }
                    }
                }
                int[] ws = touched.toArray();
                Arrays.sort(ws);
                byte[] ds = new byte[ws.length];
                for (int k = 0; k < ws.length; k++) {
                    ds[k] = (byte) best[ws[k]];
                    best[ws[k]] = Integer.MAX_VALUE;
                }
                candidates[v] = ws;
                distances[v] = ds;
            }
        }

        /** Lowers the distance of (v, w) to d if d is smaller and within α. */
        private void relax(int[] best, IntList touched, IntList[] buckets, int w, int d) {
            if (d > alpha || d >= best[w]) {
                return;
            }
            if (best[w] == Integer.MAX_VALUE) {
                touched.add(w);
            }
            best[w] = d;
            buckets[d].add(w);
        }

        // ---- Pass 2: subtree match function µα, bottom-up (Lemma 3.1) ---------------------

        private void computeSubtreeMatches() {
            IntList edgeRow = new IntList();
            IntList edgeCol = new IntList();
            IntList edgeWeight = new IntList();
            IntList edgeGroup = new IntList();
            for (int v = 0; v < t1.size(); v++) {
                int[] c = candidates[v];
                int[] m = new int[c.length];
                int[] bestBelowV = new int[c.length];
                int[] bestBelowW = new int[c.length];
                edgeRow.clear();
                edgeCol.clear();
                edgeWeight.clear();
                edgeGroup.clear();
                for (int vi : t1.children[v]) {
                    int[] ci = candidates[vi];
                    int[] mi = mu[vi];
                    for (int j = 0; j < ci.length; j++) {
                        if (mi[j] == 0) {
                            continue;
                        }
                        int wj = ci[j];
                        int k = Arrays.binarySearch(c, wj);
                        if (k >= 0 && mi[j] > bestBelowV[k]) {
                            bestBelowV[k] = mi[j];
                        }
                        int pw = t2.parent[wj];
                        if (pw >= 0) {
                            int g = Arrays.binarySearch(c, pw);
                            if (g >= 0) {
                                edgeGroup.add(g);
                                edgeRow.add(vi);
                                edgeCol.add(wj);
                                edgeWeight.add(mi[j]);
                            }
                        }
                    }
                }
                // Group the restricted-matching edges by w (counting sort, stable).
                int[] start = new int[c.length + 1];
                for (int e = 0; e < edgeGroup.size; e++) {
                    start[edgeGroup.values[e] + 1]++;
                }
                for (int k = 0; k < c.length; k++) {
                    start[k + 1] += start[k];
                }
                int edges = edgeGroup.size;
                int[] rows = new int[edges];
                int[] cols = new int[edges];
                int[] weights = new int[edges];
                int[] fill = Arrays.copyOf(start, c.length);
                for (int e = 0; e < edges; e++) {
                    int at = fill[edgeGroup.values[e]]++;
                    rows[at] = edgeRow.values[e];
                    cols[at] = edgeCol.values[e];
                    weights[at] = edgeWeight.values[e];
                }
                for (int k = 0; k < c.length; k++) {
                    int w = c[k];
                    long rm = restricted.solve(rows, cols, weights, start[k], start[k + 1], false);
                    long value = rm + (equivalent(v, w) ? 1 : 0);
                    value = Math.max(value, Math.max(bestBelowV[k], bestBelowW[k]));
                    m[k] = (int) value;
                    int pw = t2.parent[w];
                    if (pw >= 0) {
                        int g = Arrays.binarySearch(c, pw);
                        if (g >= 0 && m[k] > bestBelowW[g]) {
                            bestBelowW[g] = m[k];
                        }
                    }
                }
                mu[v] = m;
            }
        }

        private int muOf(int v, int w) {
            int k = Arrays.binarySearch(candidates[v], w);
            return k < 0 ? 0 : mu[v][k];
        }

        // ---- Pass 3: backtracking ----------------------------------------------------------

        private NodeMatching backtrack(long candidatePairs) {
            List<NodeMatching.Pair> pairs = new ArrayList<>();
            int size = muOf(t1.root, t2.root);
            IntList stackV = new IntList();
            IntList stackW = new IntList();
            stackV.add(t1.root);
            stackW.add(t2.root);
            IntList rows = new IntList();
            IntList cols = new IntList();
            IntList weights = new IntList();
            while (stackV.size > 0) {
                int v = stackV.pop();
                int w = stackW.pop();
                int value = muOf(v, w);
                if (value == 0) {
                    continue;
                }
                boolean eq = equivalent(v, w);
                rows.clear();
                cols.clear();
                weights.clear();
                for (int vi : t1.children[v]) {
                    int[] ci = candidates[vi];
                    for (int j = 0; j < ci.length; j++) {
                        if (mu[vi][j] > 0 && t2.parent[ci[j]] == w) {
                            rows.add(vi);
                            cols.add(ci[j]);
                            weights.add(mu[vi][j]);
                        }
                    }
                }
                int[] r = rows.toArray();
                int[] c = cols.toArray();
                int[] wt = weights.toArray();
                long rm = restricted.solve(r, c, wt, 0, r.length, true);
                if (rm + (eq ? 1 : 0) == value) {
                    pairs.add(new NodeMatching.Pair(t1.nodes[v], t2.nodes[w], eq));
                    int[] chosen = restricted.chosen();
                    // Push in reverse so that the first child is expanded first.
                    for (int i = chosen.length - 1; i >= 0; i--) {
                        stackV.add(r[chosen[i]]);
                        stackW.add(c[chosen[i]]);
                    }
                    continue;
                }
                boolean found = false;
                for (int wj : t2.children[w]) {
                    if (muOf(v, wj) == value) {
                        stackV.add(v);
                        stackW.add(wj);
                        found = true;
                        break;
                    }
                }
                if (!found) {
                    for (int vi : t1.children[v]) {
                        if (muOf(vi, w) == value) {
                            stackV.add(vi);
                            stackW.add(w);
                            found = true;
                            break;
                        }
                    }
                }
                if (!found) {
                    throw new IllegalStateException(
                            "backtracking lost the optimum at " + v + "," + w);
                }
            }
            return new NodeMatching(pairs, size, candidatePairs);
        }
    }

    /** A growable int array. */
    static final class IntList {
        int[] values = new int[16];
        int size;

        void add(int value) {
            if (size == values.length) {
                values = Arrays.copyOf(values, size * 2);
            }
            values[size++] = value;
        }

        int pop() {
            return values[--size];
        }

        void clear() {
            size = 0;
        }

        int[] toArray() {
            return Arrays.copyOf(values, size);
        }
    }
}
