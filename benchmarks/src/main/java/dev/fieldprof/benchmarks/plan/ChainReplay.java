package dev.fieldprof.benchmarks.plan;

/**
 * Which call chains a site reports from its trace when only some methods carry probes: the trace
 * masked to the probed methods, read the way a deployed variant reads its own events.
 *
 * <p>A call chain is, as in Section 5.1 of probe distribution (docs/references.md), a walk of the
 * call graph from a root to a leaf without back edges, and bounded here as the planner's events are
 * ({@code dev.fieldprof.analysis.plan.CallChainEvents}): the reader keeps the chain of open probed
 * frames; a call of a method already on the chain (a back edge: recursion) or beyond {@code
 * maxLength} methods is not added, and neither is anything it calls in turn. When a frame on the
 * chain exits without having added a callee, the chain up to it is reported, at the position of
 * that exit in the trace (its location, which Section 5.3 compares with the full trace's).
 *
 * <p>With all methods probed this yields the site's exercised chains. With some unprobed, an
 * unprobed caller makes its callee look called by the caller's caller, and an unprobed callee makes
 * its caller look like a leaf: the probed subsequence of the real chain is reported, which may be a
 * chain that never occurred there.
 */
public final class ChainReplay {

    /** Receives each report. */
    @FunctionalInterface
    public interface Reports {
        /**
         * @param location index of the leaf's exit event in the trace
         * @param chain the reported chain's {@link ChainTrie} node
         */
        void report(int location, int chain);
    }

    private ChainReplay() {}

    /**
     * @param probed per method id whether the variant probes it; null = every method (Full)
     * @param maxLength most methods in one chain, {@code >= 1}
     */
    public static void replay(
            ChainTrace trace, boolean[] probed, int maxLength, ChainTrie trie, Reports reports) {
        if (maxLength < 1) {
            throw new IllegalArgumentException("maxLength must be >= 1, was " + maxLength);
        }
        int[] events = trace.view();
        int[] path = new int[maxLength];
        int[] node = new int[maxLength];
        boolean[] extended = new boolean[maxLength];
        int depth = 0;
        // Open probed frames below a call that was not added to the chain (and that one itself).
        int ignored = 0;
        for (int t = 0; t < events.length; t++) {
            int e = events[t];
            int m = e >= 0 ? e : ~e;
            if (probed != null && !probed[m]) {
                continue;
            }
            if (e >= 0) {
                if (ignored > 0 || depth == maxLength || onPath(path, depth, m)) {
                    ignored++;
                    continue;
                }
                if (depth > 0) {
                    extended[depth - 1] = true;
                }
                path[depth] = m;
                node[depth] = trie.child(depth == 0 ? ChainTrie.ROOT : node[depth - 1], m);
                extended[depth] = false;
                depth++;
            } else if (ignored > 0) {
                ignored--;
            } else {
                depth--;
                if (!extended[depth]) {
                    reports.report(t, node[depth]);
                }
            }
        }
    }

    private static boolean onPath(int[] path, int depth, int m) {
        for (int i = 0; i < depth; i++) {
            if (path[i] == m) {
                return true;
            }
        }
        return false;
    }
}
