package dev.fieldprof.benchmarks.paths;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Runs every (program, configuration) of the path timings in its own child JVM ({@link
 * PathTimingChild}), round after round, so that the machine's load over the whole run hits every
 * configuration alike and no configuration inherits another's JIT profile (the median of at least 5
 * alternating JVMs per configuration). Round r runs, program by program, the configurations in
 * their order rotated to start at configuration r. A child runs the same {@code java} binary with
 * the same class path and the parent's {@code -X} options (heap, JIT and GC settings), one child at
 * a time; its stdout is read for its {@link ChildTiming} lines and its stderr goes to the parent's.
 */
final class AlternatingJvms {
    /** One child JVM to run: which round, program and configuration. */
    record Slot(int round, String program, TimedConfiguration configuration) {}

    /**
     * A program's files for its children: its recorded path events (PathRecording bytes), which the
     * events configurations replay, and its learned model (an Avro EdgeModel record), which the
     * tracer configurations that need it code with.
     */
    record Inputs(Path recordedEvents, Path learnedModel) {}

    private final double scale;
    private final int warmup;
    private final int measured;

    /**
     * @param scale the workloads' scale (rounds per run, as {@link LibraryProgram#all})
     * @param warmup workload runs (or replays) before the measured ones, in every child
     * @param measured measured runs per child, whose median is the child's figure
     */
    AlternatingJvms(double scale, int warmup, int measured) {
        this.scale = scale;
        this.warmup = warmup;
        this.measured = measured;
    }

    /** The order in which the children run (see the class comment). */
    static List<Slot> schedule(
            List<String> programs, List<TimedConfiguration> configurations, int rounds) {
        if (rounds < 1) {
            throw new IllegalArgumentException("rounds must be >= 1, got " + rounds);
        }
        List<Slot> slots = new ArrayList<>();
        int n = configurations.size();
        for (int r = 0; r < rounds; r++) {
            for (String program : programs) {
                for (int k = 0; k < n; k++) {
                    slots.add(new Slot(r, program, configurations.get((r + k) % n)));
                }
            }
        }
        return slots;
    }

    /**
     * Runs every configuration of every program in {@code rounds} alternating rounds, with each
     * program's {@code inputs}. Progress goes to stderr.
     */
    List<ChildTiming> run(List<String> programs, int rounds, Map<String, Inputs> inputs)
            throws Exception {
        List<Slot> slots = schedule(programs, List.of(TimedConfiguration.values()), rounds);
        List<ChildTiming> timings = new ArrayList<>();
        long start = System.nanoTime();
        for (int i = 0; i < slots.size(); i++) {
            Slot s = slots.get(i);
            List<ChildTiming> got = runChild(s, inputs.get(s.program()));
            timings.addAll(got);
            System.err.printf(
                    Locale.ROOT,
                    "path timings: JVM %d/%d (round %d, %s, %s): median %.2f ms; %.0f s so far%n",
                    i + 1,
                    slots.size(),
                    s.round(),
                    s.program(),
                    s.configuration().id,
                    got.get(0).medianMillis(),
                    (System.nanoTime() - start) / 1e9);
        }
        return timings;
    }

    private List<ChildTiming> runChild(Slot s, Inputs inputs) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (String option : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (option.startsWith("-X")) {
                command.add(option);
            }
        }
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(PathTimingChild.class.getName());
        command.add(s.program());
        command.add(Double.toString(scale));
        command.add(s.configuration().id);
        command.add(Integer.toString(warmup));
        command.add(Integer.toString(measured));
        command.add(Integer.toString(s.round()));
        if (inputs == null) {
            throw new IllegalStateException(s.program() + ": no recorded events and model");
        }
        if (!s.configuration().workload) {
            command.add("--events");
            command.add(inputs.recordedEvents().toString());
        }
        if (s.configuration().learnedModel) {
            command.add("--model");
            command.add(inputs.learnedModel().toString());
        }
        Process child =
                new ProcessBuilder(command)
                        .redirectError(ProcessBuilder.Redirect.INHERIT)
                        .redirectInput(ProcessBuilder.Redirect.PIPE)
                        .start();
        child.getOutputStream().close();
        List<ChildTiming> timings = new ArrayList<>();
        try (BufferedReader out =
                new BufferedReader(
                        new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                if (ChildTiming.isTimingLine(line)) {
                    timings.add(ChildTiming.parse(line));
                } else {
                    System.err.println("(child) " + line);
                }
            }
        }
        int status = child.waitFor();
        int expected = s.configuration().timingLines();
        if (status != 0 || timings.size() != expected) {
            throw new IllegalStateException(
                    String.format(
                            Locale.ROOT,
                            "path timing JVM for %s/%s (round %d) exited with status %d after %d"
                                    + " of %d timing lines (its stderr is above)",
                            s.program(),
                            s.configuration().id,
                            s.round(),
                            status,
                            timings.size(),
                            expected));
        }
        for (ChildTiming t : timings) {
            if (t.round() != s.round()
                    || !t.program().equals(s.program())
                    || t.configuration() != s.configuration()) {
                throw new IllegalStateException(
                        "path timing JVM for "
                                + s
                                + " answered for round "
                                + t.round()
                                + ", "
                                + t.program()
                                + "/"
                                + t.configuration().id);
            }
        }
        return timings;
    }
}
