package dev.fieldprof.diff.normalize;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A given class-to-superclass mapping, for DiffProf's class hierarchy problem (§3.5;
 * docs/references.md): {@code S.m} calling its overridden {@code T.m} is merged into one frame, and
 * {@code S.m} matches {@code T.m} at no cost. Immutable.
 */
public final class ClassHierarchy {
    private static final ClassHierarchy NONE = new ClassHierarchy(Map.of());

    private final Map<String, String> superclass;

    private ClassHierarchy(Map<String, String> superclass) {
        this.superclass = Map.copyOf(superclass);
    }

    /** No known subclass relations. */
    public static ClassHierarchy none() {
        return NONE;
    }

    /**
     * The given direct superclasses.
     *
     * @param superclass class name to its direct superclass; cycles are rejected
     */
    public static ClassHierarchy of(Map<String, String> superclass) {
        for (String start : superclass.keySet()) {
            Set<String> seen = new HashSet<>();
            for (String c = start; c != null; c = superclass.get(c)) {
                if (!seen.add(c)) {
                    throw new IllegalArgumentException("class hierarchy has a cycle through " + c);
                }
            }
        }
        return new ClassHierarchy(superclass);
    }

    /** Reads lines {@code sub.Class super.Class} (blank lines and {@code #} comments skipped). */
    public static ClassHierarchy read(Path file) throws IOException {
        Map<String, String> map = new HashMap<>();
        List<String> lines = Files.readAllLines(file);
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String[] parts = line.split("\\s+");
            if (parts.length != 2) {
                throw new IOException(
                        file
                                + ":"
                                + (i + 1)
                                + ": expected 'subclass superclass', was '"
                                + line
                                + "'");
            }
            map.put(parts[0], parts[1]);
        }
        try {
            return of(map);
        } catch (IllegalArgumentException e) {
            throw new IOException(file + ": " + e.getMessage(), e);
        }
    }

    /** Whether the mapping is empty. */
    public boolean isEmpty() {
        return superclass.isEmpty();
    }

    /** Whether {@code sub} is a proper subclass of {@code sup}. */
    public boolean isSubclass(String sub, String sup) {
        for (String c = superclass.get(sub); c != null; c = superclass.get(c)) {
            if (c.equals(sup)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether two frames are the same method up to overriding: equal method names and one class a
     * subclass of the other. Sibling classes stay different.
     */
    public boolean overrides(String frameA, String frameB) {
        if (!FrameNames.methodName(frameA).equals(FrameNames.methodName(frameB))) {
            return false;
        }
        String a = FrameNames.className(frameA);
        String b = FrameNames.className(frameB);
        return isSubclass(a, b) || isSubclass(b, a);
    }
}
