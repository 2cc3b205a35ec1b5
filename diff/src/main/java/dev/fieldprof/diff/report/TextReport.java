package dev.fieldprof.diff.report;

import dev.fieldprof.diff.match.ProfileDiff;
import dev.fieldprof.diff.match.Task;
import java.util.List;
import java.util.Locale;

/**
 * The terminal table of a {@link ProfileDiff}: matched tasks by |B − A|, then the tasks only A or
 * only B has, by cost; at most {@code top} rows per section. Stateless.
 */
public final class TextReport {
    private static final int PATH_WIDTH = 60;

    private TextReport() {}

    /**
     * Renders the report.
     *
     * @param nameA label of profile A (e.g. its file name)
     * @param nameB label of profile B
     * @param top rows per section, >= 1
     */
    public static String render(ProfileDiff diff, String nameA, String nameB, int top) {
        if (top < 1) {
            throw new IllegalArgumentException("top must be >= 1, was " + top);
        }
        StringBuilder out = new StringBuilder();
        long totalA = diff.a().totalCost();
        long totalB = diff.b().totalCost();
        out.append(
                String.format(
                        Locale.ROOT,
                        "A = %s: total %d, %d nodes, %d tasks covering %.1f%%%n",
                        TerminalText.inert(nameA),
                        totalA,
                        diff.a().size(),
                        diff.matched().size() + diff.onlyInA().size(),
                        percent(covered(diff.a(), tasksOf(diff, true)), totalA)));
        out.append(
                String.format(
                        Locale.ROOT,
                        "B = %s: total %d, %d nodes, %d tasks covering %.1f%%%n",
                        TerminalText.inert(nameB),
                        totalB,
                        diff.b().size(),
                        diff.matched().size() + diff.onlyInB().size(),
                        percent(covered(diff.b(), tasksOf(diff, false)), totalB)));
        out.append(
                String.format(
                        Locale.ROOT,
                        "alpha = %d: %d matched nodes, %d matched tasks (~ = F-methods differ)%n%n",
                        diff.alpha(),
                        diff.matching().size(),
                        diff.matched().size()));
        out.append("Matched tasks by |B - A|\n");
        out.append(
                String.format(
                        Locale.ROOT,
                        "%4s %10s %10s %10s %7s  %s%n",
                        "#",
                        "A",
                        "B",
                        "B - A",
                        "B-A %",
                        "task (call path > F-method)"));
        List<ProfileDiff.TaskMatch> matched = diff.matched();
        for (int i = 0; i < Math.min(top, matched.size()); i++) {
            ProfileDiff.TaskMatch m = matched.get(i);
            String name = m.exact() ? describe(m.a()) : describe(m.a()) + "  ~ " + m.b().method();
            out.append(
                    String.format(
                            Locale.ROOT,
                            "%4d %10d %10d %+10d %+6.1f%%  %s%n",
                            i + 1,
                            m.a().cost(),
                            m.b().cost(),
                            m.difference(),
                            percent(m.difference(), Math.max(totalA, totalB)),
                            TerminalText.inert(name)));
        }
        more(out, matched.size(), top);
        section(out, "Only in A, by cost", diff.onlyInA(), totalA, top);
        section(out, "Only in B, by cost", diff.onlyInB(), totalB, top);
        return out.toString();
    }

    private static void section(
            StringBuilder out, String title, List<Task> tasks, long total, int top) {
        out.append('\n').append(title).append('\n');
        out.append(
                String.format(
                        Locale.ROOT,
                        "%4s %10s %7s  %s%n",
                        "#",
                        "cost",
                        "share",
                        "task (call path > F-method)"));
        for (int i = 0; i < Math.min(top, tasks.size()); i++) {
            Task task = tasks.get(i);
            out.append(
                    String.format(
                            Locale.ROOT,
                            "%4d %10d %6.1f%%  %s%n",
                            i + 1,
                            task.cost(),
                            percent(task.cost(), total),
                            TerminalText.inert(describe(task))));
        }
        more(out, tasks.size(), top);
    }

    private static java.util.Set<dev.fieldprof.diff.cct.CctNode> tasksOf(
            ProfileDiff diff, boolean first) {
        java.util.Set<dev.fieldprof.diff.cct.CctNode> entries =
                java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        for (ProfileDiff.TaskMatch m : diff.matched()) {
            entries.add(first ? m.a().entry() : m.b().entry());
        }
        for (Task task : first ? diff.onlyInA() : diff.onlyInB()) {
            entries.add(task.entry());
        }
        return entries;
    }

    /** Cost under outermost tasks (nested tasks are inside their parent task's cost). */
    private static long covered(
            dev.fieldprof.diff.cct.CallingContextTree tree,
            java.util.Set<dev.fieldprof.diff.cct.CctNode> entries) {
        long sum = 0;
        for (dev.fieldprof.diff.cct.CctNode entry : entries) {
            boolean nested = false;
            for (var n = entry.parent(); n != null && !nested; n = n.parent()) {
                nested = entries.contains(n);
            }
            if (!nested) {
                sum += entry.inclusive();
            }
        }
        return sum;
    }

    private static void more(StringBuilder out, int size, int top) {
        if (size == 0) {
            out.append("     (none)\n");
        } else if (size > top) {
            out.append("     ... ").append(size - top).append(" more\n");
        }
    }

    private static double percent(long part, long total) {
        return total == 0 ? 0 : 100.0 * part / total;
    }

    /** The F-method with the end of its call path, shortened to fit a terminal line. */
    static String describe(Task task) {
        List<String> path = task.path();
        StringBuilder context = new StringBuilder();
        for (int i = path.size() - 2; i >= 0; i--) {
            String frame = shortName(path.get(i));
            if (context.length() + frame.length() > PATH_WIDTH) {
                context.insert(0, "... > ");
                break;
            }
            context.insert(0, frame + " > ");
        }
        return context + task.method();
    }

    /** {@code java.util.HashMap.get} to {@code HashMap.get}. */
    static String shortName(String frame) {
        int method = frame.lastIndexOf('.');
        if (method <= 0) {
            return frame;
        }
        int type = frame.lastIndexOf('.', method - 1);
        return frame.substring(type + 1);
    }
}
