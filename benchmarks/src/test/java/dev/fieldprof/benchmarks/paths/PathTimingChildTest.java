package dev.fieldprof.benchmarks.paths;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fieldprof.paths.EdgeModel;
import dev.fieldprof.paths.PathRecording;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PathTimingChildTest {
    @Test
    void countsBranchesAndCallsAndDropsBranchesInOrder() {
        PathRecording run = new PathRecording();
        run.enter(7);
        run.branch(7, 2, 1);
        run.enter(9);
        run.branch(9, 0, 0);
        run.branch(9, 3, 2);
        run.exit(9, false);
        run.exit(7, true);
        assertThat(PathTimingChild.EventCounts.of(run))
                .isEqualTo(new PathTimingChild.EventCounts(3, 2));
        PathRecording calls = new PathRecording();
        calls.enter(7);
        calls.enter(9);
        calls.exit(9, false);
        calls.exit(7, true);
        assertThat(PathTimingChild.withoutBranches(run)).isEqualTo(calls);
    }

    @Test
    void refusesARunWithOpenFrames() {
        PathRecording run = new PathRecording();
        run.enter(1);
        run.enter(2);
        run.exit(2, false);
        assertThatThrownBy(() -> PathTimingChild.EventCounts.of(run))
                .hasMessage(
                        "recorded run has 2 enters but 1 exits; the replay needs every frame"
                                + " closed");
    }

    /**
     * One round of real child JVMs on gson at a hundredth of the benchmark's scale (1 warm-up and 2
     * measured runs each): every configuration answers with its timing lines, and the events
     * configurations replayed exactly the recorded run.
     */
    @Test
    void childJvmsTimeEveryConfigurationOfARound(@TempDir Path work) throws Exception {
        double scale = 0.01;
        LibraryProgram gson = PathTimingChild.program("gson", scale);
        InstrumentedProgram ip = InstrumentedProgram.of(gson, work);
        PathRecording run = PathBenchmarks.record(ip.instrumentedJar(), gson, 0);
        Path events = work.resolve("gson.events");
        Files.write(events, run.toBytes());
        PathTimingChild.EventCounts counts = PathTimingChild.EventCounts.of(run);
        assertThat(counts.branches()).isPositive();

        EdgeModel learned =
                PathBenchmarks.learnModels(
                        ip.table(), PathBenchmarks.record(ip.instrumentedJar(), gson, 1))[1];
        Path model = work.resolve("gson.model");
        Files.write(model, PathBenchmarks.modelBytes(learned, PathTimingChild.appVersion(gson)));

        List<ChildTiming> timings =
                new AlternatingJvms(scale, 1, 2)
                        .run(
                                List.of("gson"),
                                1,
                                Map.of("gson", new AlternatingJvms.Inputs(events, model)));

        // Nine workloads (the two staged ones also time the process), four replays of two streams.
        assertThat(timings).hasSize(9 + 2 + 4 * 2);
        EnumSet<TimedConfiguration> seen = EnumSet.noneOf(TimedConfiguration.class);
        for (ChildTiming t : timings) {
            seen.add(t.configuration());
            assertThat(t.round()).isZero();
            assertThat(t.program()).isEqualTo("gson");
            assertThat(t.millis()).hasSize(2);
            assertThat(t.medianMillis()).isPositive();
            switch (t.stream()) {
                case WORKLOAD -> {
                    assertThat(t.configuration().workload).isTrue();
                    assertThat(t.branches()).isZero();
                    assertThat(t.calls()).isZero();
                }
                case ALL_EVENTS -> {
                    assertThat(t.branches()).isEqualTo(counts.branches());
                    assertThat(t.calls()).isEqualTo(counts.calls());
                }
                case CALLS_ONLY -> {
                    assertThat(t.branches()).isZero();
                    assertThat(t.calls()).isEqualTo(counts.calls());
                }
                case PROCESS -> {
                    assertThat(t.configuration())
                            .isIn(TimedConfiguration.STAGED, TimedConfiguration.STAGED_INLINE);
                    assertThat(t.branches()).as("segments coded").isPositive();
                }
            }
        }
        assertThat(seen).isEqualTo(EnumSet.allOf(TimedConfiguration.class));
        assertThat(new PathTimings(timings).covers("gson")).isTrue();
    }
}
