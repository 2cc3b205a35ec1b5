package dev.fieldprof.diff.match;

import dev.fieldprof.diff.cct.CallingContextTree;
import dev.fieldprof.diff.cct.CctNode;
import dev.fieldprof.diff.normalize.Preprocessor;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Differential profiling of two calling-context trees (DiffProf §3–§4, docs/references.md;
 * docs/diff.md): preprocess both, match them with {@link EflaskMatcher}, extract the EFLASK tasks
 * of each and pair the tasks whose F-method nodes were matched. Stateless; thread-safe.
 *
 * <pre>{@code
 * ProfileDiff diff = new ProfileDiffer(new Preprocessor(PreprocessingOptions.defaults()), 2)
 *         .diff(before, after);
 * }</pre>
 */
public final class ProfileDiffer {
    private static final Comparator<Task> BY_COST =
            Comparator.comparingLong(Task::cost).reversed().thenComparing(t -> t.path().toString());

    private final Preprocessor preprocessor;
    private final int alpha;

    /**
     * @param preprocessor the preprocessing of both trees
     * @param alpha the relaxed path condition's bound, 0 <= α <= 100
     */
    public ProfileDiffer(Preprocessor preprocessor, int alpha) {
        this.preprocessor = java.util.Objects.requireNonNull(preprocessor, "preprocessor");
        this.alpha = alpha;
        new EflaskMatcher(alpha, LabelEquivalence.exactNames()); // checks α
    }

    /** The difference from A to B (costs are B minus A). */
    public ProfileDiff diff(CallingContextTree rawA, CallingContextTree rawB) {
        CallingContextTree a = preprocessor.apply(rawA);
        CallingContextTree b = preprocessor.apply(rawB);
        EflaskMatcher matcher =
                new EflaskMatcher(
                        alpha, LabelEquivalence.overriding(preprocessor.options().hierarchy()));
        NodeMatching matching = matcher.match(a, b);
        TaskExtractor extractor = new TaskExtractor(preprocessor::isApplication);
        List<Task> tasksA = extractor.tasks(a);
        List<Task> tasksB = extractor.tasks(b);
        Map<CctNode, Task> taskOfB = new IdentityHashMap<>();
        for (Task task : tasksB) {
            taskOfB.put(task.entry(), task);
        }
        List<ProfileDiff.TaskMatch> matched = new ArrayList<>();
        List<Task> onlyInA = new ArrayList<>();
        Map<CctNode, Boolean> usedB = new IdentityHashMap<>();
        for (Task task : tasksA) {
            NodeMatching.Pair pair = matching.ofA(task.entry());
            Task partner = pair == null ? null : taskOfB.get(pair.b());
            if (partner == null) {
                onlyInA.add(task);
            } else {
                matched.add(new ProfileDiff.TaskMatch(task, partner, pair.exact()));
                usedB.put(partner.entry(), true);
            }
        }
        List<Task> onlyInB = new ArrayList<>();
        for (Task task : tasksB) {
            if (!usedB.containsKey(task.entry())) {
                onlyInB.add(task);
            }
        }
        matched.sort(
                Comparator.comparingLong((ProfileDiff.TaskMatch m) -> Math.abs(m.difference()))
                        .reversed()
                        .thenComparing(m -> m.a().path().toString()));
        onlyInA.sort(BY_COST);
        onlyInB.sort(BY_COST);
        return new ProfileDiff(alpha, a, b, matching, matched, onlyInA, onlyInB);
    }
}
