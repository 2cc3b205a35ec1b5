package dev.fieldprof.estimation;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Order pairs between method signatures as released with frequency profiling (docs/references.md;
 * one {@code left<TAB>right} line per pair, meaning F(left) <= F(right)); methods get ids in order
 * of first appearance.
 *
 * @param signatures the distinct methods named, by id
 * @param left the left method id of every pair
 * @param right the right method id of every pair
 */
public record SignaturePairs(List<String> signatures, int[] left, int[] right) {

    /**
     * Reads a pairs file; blank lines are skipped.
     *
     * @throws IllegalArgumentException naming the line when a line is not two tab-separated names
     */
    public static SignaturePairs read(Path file) throws IOException {
        Map<String, Integer> ids = new LinkedHashMap<>();
        List<int[]> pairs = new ArrayList<>();
        int lineNumber = 0;
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            lineNumber++;
            if (line.isBlank()) {
                continue;
            }
            String[] parts = line.split("\t", -1);
            if (parts.length != 2 || parts[0].isBlank() || parts[1].isBlank()) {
                throw new IllegalArgumentException(
                        file
                                + ":"
                                + lineNumber
                                + ": expected 'left<TAB>right', got '"
                                + line
                                + "'");
            }
            int u = ids.computeIfAbsent(parts[0].strip(), s -> ids.size());
            int w = ids.computeIfAbsent(parts[1].strip(), s -> ids.size());
            pairs.add(new int[] {u, w});
        }
        return new SignaturePairs(
                List.copyOf(ids.keySet()),
                pairs.stream().mapToInt(p -> p[0]).toArray(),
                pairs.stream().mapToInt(p -> p[1]).toArray());
    }

    /**
     * The constraint graph over {@code size >= signatures().size()} methods; the methods beyond
     * those named are unconstrained.
     */
    public ConstraintGraph graph(int size) {
        if (size < signatures.size()) {
            throw new IllegalArgumentException(
                    "size " + size + " is below the " + signatures.size() + " methods named");
        }
        return new ConstraintGraph(size, left, right);
    }
}
