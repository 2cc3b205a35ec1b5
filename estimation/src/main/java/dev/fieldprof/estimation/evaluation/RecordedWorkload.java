package dev.fieldprof.estimation.evaluation;

import dev.fieldprof.estimation.ConstraintGraph;
import dev.fieldprof.ldp.RandomSource;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Epochs recorded from real runs of an instrumented program (for example by the demo's device
 * runtimes): device i replays run {@code i mod runs}, repeated whole until it holds enough events.
 */
public final class RecordedWorkload implements DeviceWorkload {
    private final String name;
    private final ConstraintGraph graph;
    private final List<long[]> runs;

    /**
     * @param runs exact method-entry counts of recorded runs, each of length |V| with a positive
     *     total
     */
    public RecordedWorkload(String name, ConstraintGraph graph, List<long[]> runs) {
        if (runs.isEmpty()) {
            throw new IllegalArgumentException("need at least one recorded run");
        }
        for (long[] run : runs) {
            if (run.length != graph.methods()) {
                throw new IllegalArgumentException(
                        "a run has " + run.length + " counts but |V| = " + graph.methods());
            }
            long total = 0;
            for (long count : run) {
                if (count < 0) {
                    throw new IllegalArgumentException("a run holds a negative count " + count);
                }
                total += count;
            }
            if (total == 0) {
                throw new IllegalArgumentException("a run holds no events");
            }
        }
        this.name = name;
        this.graph = graph;
        this.runs = List.copyOf(runs);
    }

    /**
     * Reads recorded runs: one run per line, |V| comma-separated method-entry counts in method-id
     * order; blank lines and lines starting with '#' are skipped.
     *
     * @throws IllegalArgumentException naming the line when a line is not |V| non-negative counts
     */
    public static List<long[]> readRuns(Path file, int methods) throws IOException {
        List<long[]> runs = new ArrayList<>();
        int lineNumber = 0;
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            lineNumber++;
            String trimmed = line.strip();
            if (trimmed.isEmpty() || trimmed.startsWith("#")) {
                continue;
            }
            String[] fields = trimmed.split(",");
            if (fields.length != methods) {
                throw new IllegalArgumentException(
                        file
                                + ":"
                                + lineNumber
                                + ": "
                                + fields.length
                                + " counts, expected |V| = "
                                + methods);
            }
            long[] run = new long[methods];
            for (int v = 0; v < methods; v++) {
                try {
                    run[v] = Long.parseLong(fields[v].strip());
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException(
                            file
                                    + ":"
                                    + lineNumber
                                    + ": count "
                                    + v
                                    + " is not a number: '"
                                    + fields[v]
                                    + "'");
                }
                if (run[v] < 0) {
                    throw new IllegalArgumentException(
                            file + ":" + lineNumber + ": count " + v + " is negative");
                }
            }
            runs.add(run);
        }
        return runs;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public ConstraintGraph graph() {
        return graph;
    }

    @Override
    public long[] epoch(int device, long minimumEvents, RandomSource random) {
        long[] run = runs.get(device % runs.size());
        long total = 0;
        for (long count : run) {
            total += count;
        }
        // A device that saw fewer than k events keeps its epoch open: the same usage repeats.
        long repeats = (minimumEvents + total - 1) / total;
        long[] epoch = new long[run.length];
        for (int v = 0; v < run.length; v++) {
            epoch[v] = run[v] * Math.max(1, repeats);
        }
        return epoch;
    }
}
