package dev.fieldprof.diff.report;

import dev.fieldprof.diff.cct.CallingContextTree;
import dev.fieldprof.diff.cct.CctNode;
import dev.fieldprof.diff.match.NodeMatching;
import dev.fieldprof.diff.match.ProfileDiff;
import dev.fieldprof.diff.match.Task;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A {@link ProfileDiff} as one self-contained HTML page (inline CSS and script, nothing fetched,
 * works offline): the task tables and the two trees side by side, matched nodes marked, a click on
 * a task opening its node in both trees. Trees larger than {@link #MAX_TREE_NODES} keep only their
 * costliest nodes (every node above a cost threshold, ancestors included). Stateless.
 */
public final class HtmlReport {
    /** Nodes per tree the page embeds at most. */
    public static final int MAX_TREE_NODES = 20_000;

    private static final String TEMPLATE = "diff-report.html";
    private static final String DATA_MARKER = "/*DIFF-DATA*/null";

    private HtmlReport() {}

    /**
     * Renders the page.
     *
     * @param top rows per task table, >= 1
     */
    public static String render(ProfileDiff diff, String nameA, String nameB, int top) {
        if (top < 1) {
            throw new IllegalArgumentException("top must be >= 1, was " + top);
        }
        Map<CctNode, Integer> idsA = new IdentityHashMap<>();
        Map<CctNode, Integer> idsB = new IdentityHashMap<>();
        StringBuilder json = new StringBuilder(1 << 16);
        json.append("{\"alpha\":").append(diff.alpha());
        json.append(",\"nameA\":").append(string(nameA));
        json.append(",\"nameB\":").append(string(nameB));
        json.append(",\"matchedNodes\":").append(diff.matching().size());
        json.append(",\"treeA\":");
        tree(diff.a(), idsA, json);
        json.append(",\"treeB\":");
        tree(diff.b(), idsB, json);
        // Node pairs as [idA, idB, exact] where both ends were embedded.
        json.append(",\"pairs\":[");
        String sep = "";
        for (NodeMatching.Pair pair : diff.matching().pairs()) {
            Integer a = idsA.get(pair.a());
            Integer b = idsB.get(pair.b());
            if (a != null && b != null) {
                json.append(sep).append('[').append(a).append(',').append(b).append(',');
                json.append(pair.exact() ? 1 : 0).append(']');
                sep = ",";
            }
        }
        json.append("],\"matched\":[");
        sep = "";
        List<ProfileDiff.TaskMatch> matched = diff.matched();
        for (int i = 0; i < Math.min(top, matched.size()); i++) {
            ProfileDiff.TaskMatch m = matched.get(i);
            json.append(sep).append("{\"a\":");
            task(m.a(), idsA, json);
            json.append(",\"b\":");
            task(m.b(), idsB, json);
            json.append(",\"exact\":").append(m.exact()).append('}');
            sep = ",";
        }
        json.append("],\"matchedCount\":").append(matched.size());
        json.append(",\"onlyA\":");
        tasks(diff.onlyInA(), idsA, top, json);
        json.append(",\"onlyACount\":").append(diff.onlyInA().size());
        json.append(",\"onlyB\":");
        tasks(diff.onlyInB(), idsB, top, json);
        json.append(",\"onlyBCount\":").append(diff.onlyInB().size());
        json.append('}');
        return template()
                .replace(
                        "<title>fieldprof diff</title>",
                        "<title>fieldprof diff: " + html(nameA) + " vs " + html(nameB) + "</title>")
                .replace(DATA_MARKER, json.toString());
    }

    private static void tasks(
            List<Task> tasks, Map<CctNode, Integer> ids, int top, StringBuilder json) {
        json.append('[');
        for (int i = 0; i < Math.min(top, tasks.size()); i++) {
            if (i > 0) {
                json.append(',');
            }
            task(tasks.get(i), ids, json);
        }
        json.append(']');
    }

    private static void task(Task task, Map<CctNode, Integer> ids, StringBuilder json) {
        Integer id = ids.get(task.entry());
        json.append("{\"node\":").append(id == null ? -1 : id);
        json.append(",\"method\":").append(string(task.method()));
        json.append(",\"path\":").append(string(String.join(" > ", task.path())));
        json.append(",\"cost\":").append(task.cost()).append('}');
    }

    /**
     * The tree as flat arrays: names, parent ids, inclusive and exclusive costs, in pre-order.
     * Nodes below the cost threshold that keeps at most {@link #MAX_TREE_NODES} nodes are left out.
     */
    private static void tree(
            CallingContextTree tree, Map<CctNode, Integer> ids, StringBuilder json) {
        long threshold = threshold(tree);
        List<CctNode> kept = new ArrayList<>();
        tree.forEachPreorder(
                node -> {
                    if (node.parent() == null
                            || (node.inclusive() >= threshold && ids.containsKey(node.parent()))) {
                        ids.put(node, kept.size());
                        kept.add(node);
                    }
                });
        json.append("{\"total\":")
                .append(tree.totalCost())
                .append(",\"size\":")
                .append(tree.size());
        json.append(",\"name\":[");
        for (int i = 0; i < kept.size(); i++) {
            json.append(i == 0 ? "" : ",").append(string(kept.get(i).name()));
        }
        json.append("],\"parent\":[");
        for (int i = 0; i < kept.size(); i++) {
            CctNode parent = kept.get(i).parent();
            json.append(i == 0 ? "" : ",").append(parent == null ? -1 : ids.get(parent));
        }
        json.append("],\"incl\":[");
        for (int i = 0; i < kept.size(); i++) {
            json.append(i == 0 ? "" : ",").append(kept.get(i).inclusive());
        }
        json.append("],\"excl\":[");
        for (int i = 0; i < kept.size(); i++) {
            json.append(i == 0 ? "" : ",").append(kept.get(i).exclusive());
        }
        json.append("]}");
    }

    /** The smallest inclusive cost that keeps at most MAX_TREE_NODES nodes. */
    private static long threshold(CallingContextTree tree) {
        if (tree.size() <= MAX_TREE_NODES) {
            return Long.MIN_VALUE;
        }
        long[] costs = new long[tree.size()];
        int[] i = {0};
        tree.forEachPreorder(node -> costs[i[0]++] = node.inclusive());
        java.util.Arrays.sort(costs);
        return costs[costs.length - MAX_TREE_NODES] + 1;
    }

    private static String template() {
        try (InputStream in = HtmlReport.class.getResourceAsStream(TEMPLATE)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + TEMPLATE);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** A JSON string literal that is also safe inside a script element. */
    static String string(String value) {
        StringBuilder out = new StringBuilder(value.length() + 2).append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '<' -> out.append("\\u003c");
                case '>' -> out.append("\\u003e");
                case '&' -> out.append("\\u0026");
                default -> {
                    if (c < 0x20 || c == '\u2028' || c == '\u2029') {
                        out.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }

    private static String html(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
