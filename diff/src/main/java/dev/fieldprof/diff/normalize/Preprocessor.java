package dev.fieldprof.diff.normalize;

import dev.fieldprof.diff.cct.CallingContextTree;
import dev.fieldprof.diff.cct.CctNode;
import java.util.ArrayList;
import java.util.List;

/**
 * Rewrites a calling-context tree before matching, all steps in one place and in this order, each
 * applied to every root-first path:
 *
 * <ol>
 *   <li>generated names normalized ({@link FrameNames});
 *   <li>class hierarchy: a frame {@code T.m} called directly by {@code S.m}, S a subclass of T, is
 *       merged into its caller (DiffProf §3.5, "class hierarchy problem"; docs/references.md);
 *   <li>application namespace: an application method called by another application method is merged
 *       into the outermost one, its callback, which is renamed {@code [app].method} (§3.5, "app
 *       namespace problem") — framework methods it calls become the callback's children;
 *   <li>recursion folding: a frame already on the path cuts the path back to that ancestor, as a
 *       CCT merges recursive calls into their non-recursive ancestor (§3.3).
 * </ol>
 *
 * Costs follow the frames: a merged frame's exclusive cost goes to the frame it is merged into.
 * Nodes whose inclusive cost is zero disappear. Stateless; thread-safe.
 */
public final class Preprocessor {
    /** Prefix of callback frames whose application class was dropped. */
    public static final String CALLBACK_PREFIX = "[app].";

    private final PreprocessingOptions options;

    public Preprocessor(PreprocessingOptions options) {
        this.options = java.util.Objects.requireNonNull(options, "options");
    }

    public PreprocessingOptions options() {
        return options;
    }

    /** Whether a frame of a preprocessed tree is application code (a callback, after merging). */
    public boolean isApplication(String frame) {
        return frame.startsWith(CALLBACK_PREFIX)
                || options.applicationPackages().isApplication(frame);
    }

    /** A new, preprocessed tree; the input is not changed. */
    public CallingContextTree apply(CallingContextTree tree) {
        CallingContextTree out = new CallingContextTree();
        // Depth-first over the input with the raw path on an explicit stack (profiles can be
        // thousands of frames deep).
        List<String> raw = new ArrayList<>();
        List<CctNode> stack = new ArrayList<>();
        List<Integer> depths = new ArrayList<>();
        for (CctNode child : tree.root().children()) {
            stack.add(child);
            depths.add(0);
        }
        if (tree.root().exclusive() > 0) {
            out.addStack(List.of(), tree.root().exclusive());
        }
        while (!stack.isEmpty()) {
            CctNode node = stack.remove(stack.size() - 1);
            int depth = depths.remove(depths.size() - 1);
            while (raw.size() > depth) {
                raw.remove(raw.size() - 1);
            }
            raw.add(node.name());
            if (node.exclusive() > 0) {
                out.addStack(transform(raw), node.exclusive());
            }
            for (CctNode child : node.children()) {
                stack.add(child);
                depths.add(depth + 1);
            }
        }
        return out;
    }

    /** The preprocessed form of one root-first path. */
    public List<String> transform(List<String> rootFirst) {
        List<String> names = new ArrayList<>(rootFirst.size());
        for (String frame : rootFirst) {
            names.add(FrameNames.normalize(frame));
        }
        if (!options.hierarchy().isEmpty()) {
            names = mergeOverriding(names);
        }
        if (options.mergeApplicationInternal()) {
            names = mergeApplicationInternal(names);
        }
        if (options.foldRecursion()) {
            names = foldRecursion(names);
        }
        return names;
    }

    private List<String> mergeOverriding(List<String> names) {
        List<String> out = new ArrayList<>(names.size());
        for (String frame : names) {
            if (!out.isEmpty()) {
                String caller = out.get(out.size() - 1);
                if (FrameNames.methodName(caller).equals(FrameNames.methodName(frame))
                        && options.hierarchy()
                                .isSubclass(
                                        FrameNames.className(caller),
                                        FrameNames.className(frame))) {
                    continue; // S.m calling super T.m: one frame, S.m
                }
            }
            out.add(frame);
        }
        return out;
    }

    private List<String> mergeApplicationInternal(List<String> names) {
        ApplicationPackages app = options.applicationPackages();
        List<String> out = new ArrayList<>(names.size());
        boolean callerIsApplication = false;
        for (String frame : names) {
            boolean application = app.isApplication(frame);
            if (application && callerIsApplication) {
                continue; // internal: merged into the callback
            }
            if (application && options.dropCallbackClass()) {
                out.add(CALLBACK_PREFIX + FrameNames.methodName(frame));
            } else {
                out.add(frame);
            }
            callerIsApplication = application;
        }
        return out;
    }

    private static List<String> foldRecursion(List<String> names) {
        List<String> out = new ArrayList<>(names.size());
        java.util.Map<String, Integer> onPath = new java.util.HashMap<>();
        for (String frame : names) {
            Integer earlier = onPath.get(frame);
            if (earlier != null) {
                for (int i = out.size() - 1; i > earlier; i--) {
                    onPath.remove(out.remove(i));
                }
                continue;
            }
            onPath.put(frame, out.size());
            out.add(frame);
        }
        return out;
    }
}
