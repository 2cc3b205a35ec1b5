package dev.fieldprof.paths;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * Turns the branch description static analysis writes (text form {@code fieldprof-branches 1},
 * resource {@value #RESOURCE} of an instrumented jar) or plain int arrays into a {@link
 * BranchTable}, so that device and server build their coder from the same CFG-derived data without
 * client-sdk depending on static analysis.
 *
 * <pre>
 * fieldprof-branches 1
 * methods 12
 * 3 0:2 7:4        (method 3: block 0 with 2 out-edges, block 7 with 4)
 * </pre>
 */
public final class BranchTableText {
    /** Where the path instrumenter stores the description inside the instrumented jar. */
    public static final String RESOURCE = "META-INF/fieldprof/branches.txt";

    static final String HEADER = "fieldprof-branches 1";

    private BranchTableText() {}

    /**
     * A table from parallel arrays: {@code blocks[m]} the branch blocks of method m (any order),
     * {@code degrees[m]} their out-degrees.
     */
    public static ArrayBranchTable fromArrays(int[][] blocks, int[][] degrees) {
        if (blocks.length != degrees.length) {
            throw new IllegalArgumentException(
                    "blocks and degrees differ in length: "
                            + blocks.length
                            + ", "
                            + degrees.length);
        }
        ArrayBranchTable.Builder b = ArrayBranchTable.builder(blocks.length);
        for (int m = 0; m < blocks.length; m++) {
            if (blocks[m].length != degrees[m].length) {
                throw new IllegalArgumentException("method " + m + ": blocks and degrees differ");
            }
            for (int i = 0; i < blocks[m].length; i++) {
                b.branch(m, blocks[m][i], degrees[m][i]);
            }
        }
        return b.build();
    }

    /**
     * Parses the text form.
     *
     * @throws IllegalArgumentException naming the line if it is malformed
     */
    public static ArrayBranchTable parse(String text) {
        String[] lines = text.split("\n");
        if (lines.length < 2 || !lines[0].strip().equals(HEADER)) {
            throw new IllegalArgumentException(
                    "not a branch description: first line must be '" + HEADER + "'");
        }
        String count = lines[1].strip();
        if (!count.startsWith("methods ")) {
            throw new IllegalArgumentException("line 2 must be 'methods N', got '" + count + "'");
        }
        ArrayBranchTable.Builder b;
        try {
            b = ArrayBranchTable.builder(Integer.parseInt(count.substring(8).strip()));
            for (int l = 2; l < lines.length; l++) {
                String line = lines[l].strip();
                if (line.isEmpty()) {
                    continue;
                }
                String[] parts = line.split(" ");
                int m = Integer.parseInt(parts[0]);
                for (int i = 1; i < parts.length; i++) {
                    int colon = parts[i].indexOf(':');
                    if (colon < 0) {
                        throw new IllegalArgumentException(
                                "line " + (l + 1) + ": expected block:degree, got " + parts[i]);
                    }
                    b.branch(
                            m,
                            Integer.parseInt(parts[i].substring(0, colon)),
                            Integer.parseInt(parts[i].substring(colon + 1)));
                }
            }
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("malformed branch description: " + e.getMessage());
        }
        return b.build();
    }

    /**
     * The text form of {@code table}: the header, {@code methods N}, then one line {@code id
     * block:degree ...} per method with branch nodes, ascending ids (what static analysis writes).
     */
    public static String toText(BranchTable table) {
        StringBuilder out = new StringBuilder(HEADER).append('\n');
        out.append("methods ").append(table.methodCount()).append('\n');
        for (int m = 0; m < table.methodCount(); m++) {
            int[] blocks = table.branchBlocks(m);
            if (blocks.length == 0) {
                continue;
            }
            out.append(m);
            for (int block : blocks) {
                out.append(' ').append(block).append(':').append(table.outDegree(m, block));
            }
            out.append('\n');
        }
        return out.toString();
    }

    /** The table in {@code loader}'s {@link #RESOURCE}, or null if there is none. */
    public static ArrayBranchTable fromClasspath(ClassLoader loader) {
        try (InputStream in = loader.getResourceAsStream(RESOURCE)) {
            return in == null ? null : parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + RESOURCE + ": " + e.getMessage(), e);
        }
    }
}
