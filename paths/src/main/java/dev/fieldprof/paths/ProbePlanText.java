package dev.fieldprof.paths;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The part of a probe plan a device and the paths job need (docs/architecture.md, "Probe plans"):
 * the salt of the device-to-variant hash and, per variant, the methods it path-traces. The
 * instrumenter writes it into the instrumented jar as {@link #RESOURCE}; the paths job derives it
 * from the program model's plan. Text form, one variant a line:
 *
 * <pre>
 * fieldprof-plan 1
 * salt -4321
 * methods 872
 * variants 2
 * 0 1,4,9
 * 1 2,3
 * </pre>
 *
 * Immutable and thread-safe.
 */
public final class ProbePlanText {
    /** Where the instrumenter puts the plan in the jar. */
    public static final String RESOURCE = "META-INF/fieldprof/plan.txt";

    private static final String HEADER = "fieldprof-plan 1";

    private final long salt;
    private final int methodCount;
    private final int[][] variants;

    /**
     * @param salt the plan's salt
     * @param methodCount |V|, > every method id
     * @param variants per variant the method ids it traces, each in [0, methodCount)
     * @throws IllegalArgumentException if there is no variant or an id is out of range
     */
    public ProbePlanText(long salt, int methodCount, int[][] variants) {
        if (variants.length < 1) {
            throw new IllegalArgumentException("a probe plan needs at least one variant");
        }
        for (int v = 0; v < variants.length; v++) {
            for (int id : variants[v]) {
                if (id < 0 || id >= methodCount) {
                    throw new IllegalArgumentException(
                            "variant "
                                    + v
                                    + " names method "
                                    + id
                                    + ", outside [0, "
                                    + methodCount
                                    + ")");
                }
            }
        }
        this.salt = salt;
        this.methodCount = methodCount;
        this.variants = new int[variants.length][];
        for (int v = 0; v < variants.length; v++) {
            this.variants[v] = variants[v].clone();
            Arrays.sort(this.variants[v]);
        }
    }

    public long salt() {
        return salt;
    }

    public int methodCount() {
        return methodCount;
    }

    public int variantCount() {
        return variants.length;
    }

    /** The variant of a device, by {@link VariantAssignment}. */
    public int variantOf(String deviceId) {
        return new VariantAssignment(salt, variants.length).variantOf(deviceId);
    }

    /** Which methods {@code variant} traces, indexed by method id (a fresh array). */
    public boolean[] traced(int variant) {
        boolean[] traced = new boolean[methodCount];
        for (int id : variants[variant]) {
            traced[id] = true;
        }
        return traced;
    }

    public String toText() {
        StringBuilder out = new StringBuilder(HEADER).append('\n');
        out.append("salt ").append(salt).append('\n');
        out.append("methods ").append(methodCount).append('\n');
        out.append("variants ").append(variants.length).append('\n');
        for (int v = 0; v < variants.length; v++) {
            out.append(v).append(' ');
            for (int i = 0; i < variants[v].length; i++) {
                out.append(i == 0 ? "" : ",").append(variants[v][i]);
            }
            out.append('\n');
        }
        return out.toString();
    }

    /**
     * @throws IllegalArgumentException naming the line that is not of the form above
     */
    public static ProbePlanText parse(String text) {
        String[] lines = text.split("\n");
        try {
            if (!lines[0].strip().equals(HEADER)) {
                throw new IllegalArgumentException("first line must be '" + HEADER + "'");
            }
            long salt = Long.parseLong(value(lines[1], "salt"));
            int methods = Integer.parseInt(value(lines[2], "methods"));
            int n = Integer.parseInt(value(lines[3], "variants"));
            List<int[]> variants = new ArrayList<>();
            for (int v = 0; v < n; v++) {
                String line = lines[4 + v];
                String[] parts = line.split(" ", 2);
                if (Integer.parseInt(parts[0]) != v) {
                    throw new IllegalArgumentException("line of variant " + v + ": '" + line + "'");
                }
                String ids = parts.length < 2 ? "" : parts[1].strip();
                variants.add(
                        ids.isEmpty()
                                ? new int[0]
                                : Arrays.stream(ids.split(","))
                                        .mapToInt(Integer::parseInt)
                                        .toArray());
            }
            return new ProbePlanText(salt, methods, variants.toArray(new int[0][]));
        } catch (ArrayIndexOutOfBoundsException | NumberFormatException e) {
            throw new IllegalArgumentException(
                    "not a probe plan (" + HEADER + "): " + e.getMessage());
        }
    }

    private static String value(String line, String key) {
        if (!line.startsWith(key + " ")) {
            throw new IllegalArgumentException("expected '" + key + " ...', got '" + line + "'");
        }
        return line.substring(key.length() + 1).strip();
    }

    /** The plan of a program model, or null if it has none. */
    public static ProbePlanText of(dev.fieldprof.schemas.ProgramModel model) {
        dev.fieldprof.schemas.ProbePlan plan = model.getProbePlan();
        if (plan == null) {
            return null;
        }
        int[][] variants = new int[plan.getVariants().size()][];
        for (int v = 0; v < variants.length; v++) {
            variants[v] = plan.getVariants().get(v).stream().mapToInt(Integer::intValue).toArray();
        }
        return new ProbePlanText(plan.getSalt(), model.getMethods().size(), variants);
    }

    /** The plan in {@code loader}'s {@link #RESOURCE}, or null if there is none. */
    public static ProbePlanText fromClasspath(ClassLoader loader) {
        try (InputStream in = loader.getResourceAsStream(RESOURCE)) {
            return in == null ? null : parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + RESOURCE + ": " + e.getMessage(), e);
        }
    }
}
