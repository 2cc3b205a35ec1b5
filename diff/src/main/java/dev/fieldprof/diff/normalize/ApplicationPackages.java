package dev.fieldprof.diff.normalize;

import java.util.List;

/**
 * Which frames are application methods (A-methods in DiffProf, §3.2; docs/references.md); every
 * other frame is a framework or library method (F-method). Either a list of package prefixes, or,
 * by default, everything outside the JDK, as DiffProf by default marks everything outside the
 * Android framework as application code (§4). Immutable.
 */
public final class ApplicationPackages {
    private static final List<String> JDK =
            List.of(
                    "java.",
                    "javax.",
                    "jdk.",
                    "sun.",
                    "com.sun.",
                    "org.w3c.",
                    "org.xml.",
                    "org.ietf.",
                    "reflect.",
                    "$Proxy");

    private final List<String> prefixes;

    private ApplicationPackages(List<String> prefixes) {
        this.prefixes = prefixes;
    }

    /** Every frame outside the JDK (and outside synthetic frames such as {@code [unknown]}). */
    public static ApplicationPackages outsideJdk() {
        return new ApplicationPackages(null);
    }

    /**
     * Frames in these packages (and their subpackages).
     *
     * @param packages package names such as {@code com.acme}; at least one, none blank
     */
    public static ApplicationPackages of(List<String> packages) {
        if (packages.isEmpty()) {
            throw new IllegalArgumentException("at least one application package is needed");
        }
        return new ApplicationPackages(
                packages.stream()
                        .map(
                                p -> {
                                    if (p.isBlank()) {
                                        throw new IllegalArgumentException(
                                                "application packages must not be blank");
                                    }
                                    String trimmed = p.strip();
                                    return trimmed.endsWith(".") ? trimmed : trimmed + ".";
                                })
                        .toList());
    }

    /** Whether the (normalized) frame is an application method. */
    public boolean isApplication(String frame) {
        if (frame.isEmpty() || frame.startsWith("[") || frame.startsWith("<")) {
            return false;
        }
        if (prefixes == null) {
            for (String jdk : JDK) {
                if (frame.startsWith(jdk)) {
                    return false;
                }
            }
            return frame.indexOf('.') > 0;
        }
        for (String prefix : prefixes) {
            if (frame.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String toString() {
        return prefixes == null ? "outside the JDK" : String.join(",", prefixes);
    }
}
