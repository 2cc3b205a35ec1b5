package dev.fieldprof.estimation.evaluation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fieldprof.estimation.ConstraintGraph;
import dev.fieldprof.estimation.ConstraintProjection;
import dev.fieldprof.ldp.SeededRandomSource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AccuracyStudyTest {
    @TempDir Path dir;

    private static ConstraintGraph graph() {
        return StudyGraphs.chainDiamondAndFree();
    }

    @Test
    void syntheticEpochsSatisfyEveryPairAndHoldEnoughEvents() {
        ConstraintGraph graph = graph();
        SyntheticWorkload workload = new SyntheticWorkload("synthetic", graph, 3);
        SeededRandomSource random = new SeededRandomSource(3);
        for (int device = 0; device < 20; device++) {
            long[] epoch = workload.epoch(device, 400, random);
            assertThat(Arrays.stream(epoch).sum()).isGreaterThanOrEqualTo(400);
            double[] asDouble = Arrays.stream(epoch).asDoubleStream().toArray();
            assertThat(ConstraintProjection.maxViolation(graph, asDouble))
                    .as("seed 3 device %d", device)
                    .isZero();
        }
    }

    @Test
    void recordedEpochsRepeatUntilTheyHoldK() {
        ConstraintGraph graph = new ConstraintGraph(2, new int[0], new int[0]);
        RecordedWorkload workload =
                new RecordedWorkload(
                        "recorded", graph, List.of(new long[] {3, 1}, new long[] {1, 0}));
        assertThat(workload.epoch(0, 10, new SeededRandomSource(1))).containsExactly(9, 3);
        assertThat(workload.epoch(1, 10, new SeededRandomSource(1))).containsExactly(10, 0);
        assertThatThrownBy(() -> new RecordedWorkload("bad", graph, List.of(new long[] {1, 2, 3})))
                .hasMessageContaining("|V| = 2");
    }

    @Test
    void readsRecordedRunsAndNamesABadLine() throws Exception {
        Path runs = dir.resolve("runs.csv");
        Files.writeString(runs, "# id0,id1\n3, 1\n\n0,7\n");
        assertThat(RecordedWorkload.readRuns(runs, 2))
                .containsExactly(new long[] {3, 1}, new long[] {0, 7});
        Files.writeString(runs, "3,1\n1,2,3\n");
        assertThatThrownBy(() -> RecordedWorkload.readRuns(runs, 2))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("runs.csv:2: 3 counts");
    }

    /**
     * The trends of frequency profiling's accuracy study (docs/references.md) on its grid.
     * Deterministic for the fixed seed. The orderings asserted hold by wide margins in expectation
     * (RE grows like √(a)/(a − 1), which at t = k is over 100 times its value at t = 1), so a
     * changed seed would fail them with negligible probability.
     */
    @Test
    void reproducesThePapersTrends() throws Exception {
        AccuracyStudy.Result result =
                AccuracyStudy.run(
                        AccuracyStudy.Options.paperGrid(
                                new SyntheticWorkload("synthetic", graph(), 11), 300, 2, 11));
        assertThat(result.rows()).hasSize(8);
        assertThat(result.k()).isEqualTo(400);
        AccuracyStudy.Row ln9t1 = result.rows().get(0);
        AccuracyStudy.Row ln9tk = result.rows().get(3);
        AccuracyStudy.Row ln49t1 = result.rows().get(4);
        assertThat(ln9t1.epsilonLabel()).isEqualTo("ln 9");
        assertThat(ln9tk.tLabel()).isEqualTo("k");
        assertThat(ln9tk.t()).isEqualTo(400);
        // More privacy (smaller ε, larger t) costs accuracy.
        assertThat(ln49t1.relativeErrorAllRaw()).isLessThan(ln9t1.relativeErrorAllRaw());
        assertThat(ln9t1.relativeErrorAllRaw()).isLessThan(ln9tk.relativeErrorAllRaw());
        // The projection helps overall here. Not a theorem: it shrinks the Euclidean distance to
        // any point of the consistent set, while RE is an L1 distance and the sampled G need not
        // satisfy every pair exactly; it is what this seed shows, by a wide margin.
        for (AccuracyStudy.Row row : result.rows()) {
            assertThat(row.relativeErrorAllQp())
                    .as("seed 11 eps %s t %s", row.epsilonLabel(), row.tLabel())
                    .isLessThanOrEqualTo(row.relativeErrorAllRaw() * 1.0001);
            assertThat(row.relativeErrorAllQp()).isLessThanOrEqualTo(2.0 + 1e-9);
        }
        assertThat(ln9t1.hotCoverageQp()).isEqualTo(1.0);

        String table = AccuracyStudy.table(result);
        assertThat(table).contains("ln 49").contains("RE_all_g*");
        String csv = AccuracyStudy.csv(result);
        assertThat(csv.lines()).hasSize(9);
        assertThat(csv.lines().findFirst().orElseThrow()).startsWith("workload,methods");
        Path png = dir.resolve("accuracy.png");
        AccuracyChart.write(result, png);
        byte[] bytes = Files.readAllBytes(png);
        assertThat(Arrays.copyOf(bytes, 4)).containsExactly(0x89, 'P', 'N', 'G');
    }
}
