package dev.fieldprof.benchmarks.diff;

import dev.fieldprof.diff.cct.CallingContextTree;
import dev.fieldprof.diff.cct.CctNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Pairs of calling-context trees shaped like real profiles, for {@link DiffMatchingBenchmark}: a
 * tree grown from random stacks (skewed reuse of popular callees, methods reused in many contexts,
 * depths up to 60), and a second version of it in which some methods were renamed, some frames
 * removed or wrapped by a new frame, and some new code paths added. Deterministic for a seed.
 */
final class GeneratedProfiles {
    private GeneratedProfiles() {}

    /** A tree of exactly {@code nodes} nodes (the root included). */
    static CallingContextTree tree(Random random, int nodes) {
        int vocabulary = Math.max(50, nodes / 4);
        CallingContextTree tree = new CallingContextTree();
        List<String> path = new ArrayList<>();
        while (tree.size() < nodes) {
            path.clear();
            CctNode node = tree.root();
            int depth = 1 + random.nextInt(60);
            for (int d = 0; d < depth; d++) {
                List<CctNode> children = new ArrayList<>(node.children());
                String next;
                // Follow an existing callee most of the time, the first ones more often; near
                // the root (thread entry points, dispatch loops) new callees are rare.
                double fresh = d < 3 ? 0.01 : 0.15;
                if (!children.isEmpty() && random.nextDouble() >= fresh) {
                    int pick = (int) (children.size() * Math.pow(random.nextDouble(), 2.5));
                    next = children.get(pick).name();
                } else {
                    next = method(random, vocabulary);
                }
                path.add(next);
                node = node.child(next);
                if (node == null) {
                    // A new call path: it goes on into callees of its own for a while.
                    while (path.size() < depth && random.nextDouble() < 0.8) {
                        path.add(method(random, vocabulary));
                    }
                    break;
                }
            }
            if (tree.find(path) == null && tree.size() + path.size() > nodes) {
                path.subList(Math.max(0, nodes - tree.size()), path.size()).clear();
                if (path.isEmpty()) {
                    break;
                }
            }
            tree.addStack(path, 1 + random.nextInt(20));
        }
        return tree;
    }

    /**
     * A second version: per method a 3% chance of a rename; per node a 2% chance of being removed
     * from the paths through it and 2% of gaining a new wrapper frame; then 5% new nodes.
     */
    static CallingContextTree evolve(Random random, CallingContextTree before) {
        Map<String, String> renamed = new HashMap<>();
        Map<CctNode, Integer> fate = new IdentityHashMap<>();
        CallingContextTree after = new CallingContextTree();
        List<CctNode> nodes = new ArrayList<>();
        before.forEachPreorder(nodes::add);
        for (CctNode node : nodes) {
            double r = random.nextDouble();
            fate.put(node, r < 0.02 ? 1 : r < 0.04 ? 2 : 0);
            renamed.computeIfAbsent(
                    node.name(), n -> random.nextDouble() < 0.03 ? n + "Renamed" : n);
        }
        for (CctNode node : nodes) {
            if (node.parent() == null) {
                continue;
            }
            List<CctNode> chain = new ArrayList<>();
            for (CctNode n = node; n.parent() != null; n = n.parent()) {
                chain.add(0, n);
            }
            List<String> path = new ArrayList<>();
            for (CctNode n : chain) {
                int f = fate.get(n);
                if (f == 1 && n != node) {
                    continue;
                }
                if (f == 2) {
                    path.add(n.name() + "$wrapper");
                }
                path.add(renamed.get(n.name()));
            }
            after.addStack(path, Math.max(1, node.exclusive() + random.nextInt(5) - 2));
        }
        int vocabulary = Math.max(50, before.size() / 4);
        int target = before.size() + before.size() / 20;
        while (after.size() < target) {
            CctNode at = nodes.get(random.nextInt(nodes.size()));
            List<String> path = new ArrayList<>(at.path());
            path.replaceAll(renamed::get);
            path.add(method(random, vocabulary));
            after.addStack(path, 1 + random.nextInt(20));
        }
        return after;
    }

    private static String method(Random random, int vocabulary) {
        // Zipf-like: a few methods are called from many places.
        int id = (int) (vocabulary * Math.pow(random.nextDouble(), 3));
        return "pkg" + (id % 40) + ".Class" + (id / 8) + ".method" + (id % 8);
    }

    /** Depth and fan-out figures of a tree, printed with the benchmark. */
    static String describe(CallingContextTree tree) {
        int[] maxDepth = {0};
        int[] maxFanout = {0};
        long[] depthSum = {0};
        int[] inner = {0};
        long[] fanoutSum = {0};
        tree.forEachPreorder(
                n -> {
                    maxDepth[0] = Math.max(maxDepth[0], n.depth());
                    depthSum[0] += n.depth();
                    int f = n.children().size();
                    maxFanout[0] = Math.max(maxFanout[0], f);
                    if (f > 0) {
                        inner[0]++;
                        fanoutSum[0] += f;
                    }
                });
        return String.format(
                java.util.Locale.ROOT,
                "%d nodes, depth mean %.1f max %d, fan-out of inner nodes mean %.1f max %d",
                tree.size(),
                (double) depthSum[0] / tree.size(),
                maxDepth[0],
                (double) fanoutSum[0] / Math.max(1, inner[0]),
                maxFanout[0]);
    }
}
