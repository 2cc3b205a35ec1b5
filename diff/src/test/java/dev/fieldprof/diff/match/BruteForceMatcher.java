package dev.fieldprof.diff.match;

import dev.fieldprof.diff.cct.CallingContextTree;
import dev.fieldprof.diff.cct.CctNode;
import java.util.ArrayList;
import java.util.List;

/**
 * The reference for {@link EflaskMatcher} on tiny trees: enumerates every set of node pairs with
 * equal labels and returns the size of the largest that is one-to-one and satisfies, literally as
 * DiffProf (docs/references.md) states them, the ancestor condition (2), the structure respecting
 * condition (3) and the relaxed path condition (4).
 */
final class BruteForceMatcher {
    private final int alpha;

    BruteForceMatcher(int alpha) {
        this.alpha = alpha;
    }

    /** The maximum matching size. */
    int maximum(CallingContextTree first, CallingContextTree second) {
        List<CctNode> a = nodes(first);
        List<CctNode> b = nodes(second);
        List<CctNode[]> pairs = new ArrayList<>();
        for (CctNode v : a) {
            for (CctNode w : b) {
                if (v.name().equals(w.name()) && editDistance(labels(v), labels(w)) <= alpha) {
                    pairs.add(new CctNode[] {v, w});
                }
            }
        }
        return search(pairs, 0, new ArrayList<>());
    }

    private int search(List<CctNode[]> pairs, int next, List<CctNode[]> chosen) {
        if (next == pairs.size()) {
            return chosen.size();
        }
        if (chosen.size() + (pairs.size() - next) <= 0) {
            return chosen.size();
        }
        int best = search(pairs, next + 1, chosen);
        CctNode[] pair = pairs.get(next);
        if (consistent(chosen, pair)) {
            chosen.add(pair);
            best = Math.max(best, search(pairs, next + 1, chosen));
            chosen.remove(chosen.size() - 1);
        }
        return best;
    }

    static boolean consistent(List<CctNode[]> chosen, CctNode[] p) {
        for (CctNode[] q : chosen) {
            if (q[0] == p[0] || q[1] == p[1]) {
                return false;
            }
            if (isAncestor(q[0], p[0]) != isAncestor(q[1], p[1])
                    || isAncestor(p[0], q[0]) != isAncestor(p[1], q[1])) {
                return false;
            }
        }
        for (int i = 0; i < chosen.size(); i++) {
            for (int j = i + 1; j < chosen.size(); j++) {
                CctNode[] x = chosen.get(i);
                CctNode[] y = chosen.get(j);
                if (!structureRespecting(p, x, y)
                        || !structureRespecting(x, p, y)
                        || !structureRespecting(y, p, x)) {
                    return false;
                }
            }
        }
        return true;
    }

    /** nca(v1,v2) = nca(v1,v3) iff nca(w1,w2) = nca(w1,w3). */
    private static boolean structureRespecting(CctNode[] p1, CctNode[] p2, CctNode[] p3) {
        boolean first = nca(p1[0], p2[0]) == nca(p1[0], p3[0]);
        boolean second = nca(p1[1], p2[1]) == nca(p1[1], p3[1]);
        return first == second;
    }

    static boolean isAncestor(CctNode x, CctNode y) {
        for (CctNode n = y.parent(); n != null; n = n.parent()) {
            if (n == x) {
                return true;
            }
        }
        return false;
    }

    private static CctNode nca(CctNode x, CctNode y) {
        List<CctNode> up = new ArrayList<>();
        for (CctNode n = x; n != null; n = n.parent()) {
            up.add(n);
        }
        for (CctNode n = y; n != null; n = n.parent()) {
            for (CctNode m : up) {
                if (m == n) {
                    return n;
                }
            }
        }
        throw new IllegalStateException("different trees");
    }

    static List<String> labels(CctNode node) {
        List<String> path = new ArrayList<>(node.path());
        path.add(0, node.parent() == null ? node.name() : CallingContextTree.ROOT_NAME);
        return path;
    }

    static int editDistance(List<String> s, List<String> t) {
        int[][] d = new int[s.size() + 1][t.size() + 1];
        for (int i = 0; i <= s.size(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= t.size(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= s.size(); i++) {
            for (int j = 1; j <= t.size(); j++) {
                int sub = d[i - 1][j - 1] + (s.get(i - 1).equals(t.get(j - 1)) ? 0 : 1);
                d[i][j] = Math.min(sub, Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1));
            }
        }
        return d[s.size()][t.size()];
    }

    private static List<CctNode> nodes(CallingContextTree tree) {
        List<CctNode> nodes = new ArrayList<>();
        tree.forEachPreorder(nodes::add);
        return nodes;
    }
}
