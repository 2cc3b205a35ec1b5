package dev.fieldprof.diff.normalize;

import java.util.Objects;

/**
 * What {@link Preprocessor} does to a tree before matching (DiffProf §3.3, §3.5;
 * docs/references.md). Immutable; start from {@link #defaults()} and change one setting at a time.
 *
 * @param applicationPackages which frames are application methods
 * @param hierarchy known superclasses, for merging overriding calls; may be empty
 * @param mergeApplicationInternal merge application methods called by application methods into
 *     their callback (the application method a framework method called)
 * @param dropCallbackClass name callbacks by method only ({@code [app].run}), so that callbacks of
 *     differently named application classes can match
 * @param foldRecursion merge recursive calls into their non-recursive ancestor
 */
public record PreprocessingOptions(
        ApplicationPackages applicationPackages,
        ClassHierarchy hierarchy,
        boolean mergeApplicationInternal,
        boolean dropCallbackClass,
        boolean foldRecursion) {

    public PreprocessingOptions {
        Objects.requireNonNull(applicationPackages, "applicationPackages");
        Objects.requireNonNull(hierarchy, "hierarchy");
    }

    /** Application = outside the JDK; every step on; no hierarchy. */
    public static PreprocessingOptions defaults() {
        return new PreprocessingOptions(
                ApplicationPackages.outsideJdk(), ClassHierarchy.none(), true, true, true);
    }

    /** Only name normalization, no merging or folding: trees keep their full paths. */
    public static PreprocessingOptions namesOnly() {
        return new PreprocessingOptions(
                ApplicationPackages.outsideJdk(), ClassHierarchy.none(), false, false, false);
    }

    public PreprocessingOptions withApplicationPackages(ApplicationPackages packages) {
        return new PreprocessingOptions(
                packages, hierarchy, mergeApplicationInternal, dropCallbackClass, foldRecursion);
    }

    public PreprocessingOptions withHierarchy(ClassHierarchy classHierarchy) {
        return new PreprocessingOptions(
                applicationPackages,
                classHierarchy,
                mergeApplicationInternal,
                dropCallbackClass,
                foldRecursion);
    }

    public PreprocessingOptions withMergeApplicationInternal(boolean merge) {
        return new PreprocessingOptions(
                applicationPackages, hierarchy, merge, dropCallbackClass, foldRecursion);
    }

    public PreprocessingOptions withDropCallbackClass(boolean drop) {
        return new PreprocessingOptions(
                applicationPackages, hierarchy, mergeApplicationInternal, drop, foldRecursion);
    }

    public PreprocessingOptions withFoldRecursion(boolean fold) {
        return new PreprocessingOptions(
                applicationPackages, hierarchy, mergeApplicationInternal, dropCallbackClass, fold);
    }
}
