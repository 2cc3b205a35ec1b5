package dev.fieldprof.diff.normalize;

import dev.fieldprof.diff.cct.CallingContextTree;
import dev.fieldprof.diff.cct.CctNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The application's packages as one profile shows them, for when the user names none: the package
 * of the class whose {@code main(String[])} the profiled program ran, or the package most of a
 * profile's stacks enter first outside the JDK. A package is cut to its first {@value #SEGMENTS}
 * segments: {@code com.acme.shop.web.Main} gives {@code com.acme.shop}. Three segments name a
 * project ({@code org.apache.flink}, {@code com.acme.shop}), two only its organization ({@code
 * org.apache}, {@code com.google}), whose other libraries the program may well call: those would be
 * taken for application code and their work hidden inside the callbacks that call them. Cutting too
 * little is the safer error: application code outside the packages shows up as more tasks rather
 * than hiding any.
 *
 * @param packages the inferred package names, at least one
 * @param evidence what they were inferred from, as a phrase ({@code the main class
 *     com.acme.shop.web.Main})
 */
public record InferredApplication(List<String> packages, String evidence) {
    /** How many leading segments of the main class's package are kept. */
    public static final int SEGMENTS = 3;

    /** More than this share of the stacks' cost must enter the same package for it to count. */
    public static final double DOMINANT_SHARE = 0.5;

    // package.Class.method: identifiers joined by dots, methods such as <init> included
    private static final Pattern JAVA_FRAME =
            Pattern.compile(
                    "\\p{javaJavaIdentifierStart}\\p{javaJavaIdentifierPart}*"
                        + "(?:\\.[\\p{javaJavaIdentifierStart}<]\\p{javaJavaIdentifierPart}*>?)+");

    public InferredApplication {
        packages = List.copyOf(packages);
        if (packages.isEmpty()) {
            throw new IllegalArgumentException("at least one package is needed");
        }
    }

    /**
     * The application of the class holding the program's {@code main}: its package cut to {@value
     * #SEGMENTS} segments. Empty for a class in the default package (its package names nothing
     * else) or in the JDK.
     */
    public static Optional<InferredApplication> fromMainClass(String className) {
        return leadingPackage(className)
                .map(p -> new InferredApplication(List.of(p), "the main class " + className));
    }

    /**
     * The application of collapsed stacks, which do not say which thread ran {@code main}: per
     * stack, the outermost frame outside the JDK (a thread's {@code main}, a worker's {@code run});
     * the package, cut to {@value #SEGMENTS} segments, that more than half of the cost of such
     * stacks enters first. Stacks wholly inside the JDK or native code (GC, compiler threads) do
     * not count. Empty when no package holds more than half.
     */
    public static Optional<InferredApplication> fromOutermostFrames(CallingContextTree tree) {
        Map<String, Long> costByPackage = new LinkedHashMap<>();
        for (CctNode child : tree.root().children()) {
            addOutermost(child, costByPackage);
        }
        long total = costByPackage.values().stream().mapToLong(Long::longValue).sum();
        for (Map.Entry<String, Long> entry : costByPackage.entrySet()) {
            if (!entry.getKey().isEmpty() && entry.getValue() > DOMINANT_SHARE * total) {
                return Optional.of(
                        new InferredApplication(
                                List.of(entry.getKey()),
                                String.format(
                                        Locale.ROOT,
                                        "the outermost frames outside the JDK, %.0f%% of them"
                                                + " in it",
                                        100.0 * entry.getValue() / total)));
            }
        }
        return Optional.empty();
    }

    /** The cost of the subtree, to the package of its outermost frame outside the JDK. */
    private static void addOutermost(CctNode node, Map<String, Long> costByPackage) {
        String frame = FrameNames.normalize(node.name());
        if (isJavaFrame(frame) && ApplicationPackages.outsideJdk().isApplication(frame)) {
            // the default package counts, as "", so that it can keep another from dominating
            String pkg = leadingPackage(FrameNames.className(frame)).orElse("");
            costByPackage.merge(pkg, node.inclusive(), Long::sum);
            return;
        }
        for (CctNode child : node.children()) {
            addOutermost(child, costByPackage);
        }
    }

    /** A Java frame {@code package.Class.method}, not a native one ({@code libc.so.6}, C++). */
    private static boolean isJavaFrame(String frame) {
        return JAVA_FRAME.matcher(frame).matches();
    }

    /** The class's package cut to {@value #SEGMENTS} segments; empty in the default package. */
    static Optional<String> leadingPackage(String className) {
        int lastDot = className.lastIndexOf('.');
        if (lastDot <= 0 || !ApplicationPackages.outsideJdk().isApplication(className)) {
            return Optional.empty();
        }
        String[] segments = className.substring(0, lastDot).split("\\.");
        return Optional.of(
                String.join(
                        ".", List.of(segments).subList(0, Math.min(SEGMENTS, segments.length))));
    }

    /**
     * The application packages of a diff: the union of what each profile shows (two releases can
     * move their main class), or everything outside the JDK when no profile shows any.
     *
     * @param byProfile per profile name, in order, what it shows
     */
    public static Choice choose(Map<String, Optional<InferredApplication>> byProfile) {
        Set<String> packages = new LinkedHashSet<>();
        Set<String> evidence = new LinkedHashSet<>();
        List<String> silent = new ArrayList<>();
        for (Map.Entry<String, Optional<InferredApplication>> entry : byProfile.entrySet()) {
            if (entry.getValue().isPresent()) {
                packages.addAll(entry.getValue().get().packages());
                evidence.add(entry.getValue().get().evidence());
            } else {
                silent.add(entry.getKey());
            }
        }
        if (packages.isEmpty()) {
            return new Choice(
                    ApplicationPackages.outsideJdk(),
                    "application packages: everything outside the JDK (nothing to infer them from"
                            + " in "
                            + String.join(" or ", silent)
                            + "; --app-packages to name them)");
        }
        return new Choice(
                ApplicationPackages.of(List.copyOf(packages)),
                "application packages: "
                        + String.join(",", packages)
                        + " (inferred from "
                        + String.join(" and ", evidence)
                        + "; --app-packages to change)");
    }

    /**
     * The application packages chosen, and the line that says which and why.
     *
     * @param packages what counts as application code
     * @param summary one line for the user, e.g. {@code application packages: com.acme.shop
     *     (inferred from the main class com.acme.shop.Main; --app-packages to change)}
     */
    public record Choice(ApplicationPackages packages, String summary) {}
}
