package dev.fieldprof.diff.match;

import dev.fieldprof.diff.cct.CallingContextTree;
import dev.fieldprof.diff.cct.CctNode;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * Finds the EFLASKs of a preprocessed tree: every framework method whose caller is an application
 * method (after merging, a callback). Tasks nest when a task's subtree calls back into the
 * application. Stateless.
 */
public final class TaskExtractor {
    private final Predicate<String> isApplication;

    /**
     * @param isApplication whether a (preprocessed) frame is application code
     */
    public TaskExtractor(Predicate<String> isApplication) {
        this.isApplication = java.util.Objects.requireNonNull(isApplication, "isApplication");
    }

    /** The tasks, parents before children. */
    public List<Task> tasks(CallingContextTree tree) {
        List<Task> tasks = new ArrayList<>();
        tree.forEachPreorder(
                node -> {
                    if (isTask(node)) {
                        tasks.add(new Task(node));
                    }
                });
        return tasks;
    }

    /** Whether the node is the F-method of an EFLASK. */
    public boolean isTask(CctNode node) {
        CctNode parent = node.parent();
        return parent != null
                && parent.parent() != null
                && isApplication.test(parent.name())
                && !isApplication.test(node.name());
    }
}
