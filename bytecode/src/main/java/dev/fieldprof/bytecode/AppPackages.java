package dev.fieldprof.bytecode;

import java.util.List;

/**
 * Which classes of a jar are application classes: those whose name starts with one of the given
 * package prefixes, or every class of the jar when no prefix is given.
 */
public record AppPackages(List<String> prefixes) {

    public AppPackages {
        prefixes = List.copyOf(prefixes);
    }

    /** Every class in the jar is an application class. */
    public static AppPackages all() {
        return new AppPackages(List.of());
    }

    /** Parses {@code "p,q"}; blank parts are ignored. */
    public static AppPackages parse(String commaSeparated) {
        if (commaSeparated == null || commaSeparated.isBlank()) {
            return all();
        }
        return new AppPackages(
                java.util.Arrays.stream(commaSeparated.split(","))
                        .map(String::trim)
                        .filter(s -> !s.isEmpty())
                        .toList());
    }

    /** True if the class (dotted or internal name) is in one of the packages. */
    public boolean includes(String className) {
        if (prefixes.isEmpty()) {
            return true;
        }
        String dotted = className.replace('/', '.');
        for (String prefix : prefixes) {
            String p = prefix.endsWith(".") ? prefix.substring(0, prefix.length() - 1) : prefix;
            if (dotted.equals(p) || dotted.startsWith(p + ".") || dotted.startsWith(p + "$")) {
                return true;
            }
        }
        return false;
    }
}
