package dev.fieldprof.estimation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.fieldprof.ldp.PrivacyParameters;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProjectionTrialTest {
    @TempDir Path dir;

    @Test
    void readsSignaturePairsInOrderOfFirstAppearance() throws Exception {
        Path file = dir.resolve("app.csv");
        Files.writeString(
                file,
                "a: void f()\tb: int g(int)\n\n"
                        + "b: int g(int)\tc: void h()\n"
                        + "a: void f()\tb: int g(int)\n");
        SignaturePairs pairs = SignaturePairs.read(file);
        assertThat(pairs.signatures())
                .containsExactly("a: void f()", "b: int g(int)", "c: void h()");
        assertThat(pairs.left()).containsExactly(0, 1, 0);
        assertThat(pairs.right()).containsExactly(1, 2, 1);
        assertThat(pairs.graph(5).methods()).isEqualTo(5);
        assertThatThrownBy(() -> pairs.graph(2)).hasMessageContaining("below the 3 methods");
    }

    @Test
    void rejectsALineWithoutTab() throws Exception {
        Path file = dir.resolve("bad.csv");
        Files.writeString(file, "a\tb\nno tab here\n");
        assertThatThrownBy(() -> SignaturePairs.read(file))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("bad.csv:2");
    }

    @Test
    void generatesATruthThatSatisfiesEveryPair() {
        long seed = 3L;
        ConstraintGraph graph = RandomInstances.graph(2000, 2500, new SplittableRandom(seed));
        double[] truth = ProjectionTrial.truth(graph, new SplittableRandom(seed));
        assertThat(ConstraintProjection.maxViolation(graph, truth)).as("seed " + seed).isZero();
        assertThat(Arrays.stream(truth).sum()).isCloseTo(1, within(1e-12));
        assertThat(Arrays.stream(truth).min().getAsDouble()).isPositive();
    }

    @Test
    void runsTheTrialWithCertificateAndAdmmSideBySide() {
        ConstraintGraph graph = RandomInstances.graph(150, 150, new SplittableRandom(5));
        ProjectionTrial.Result r =
                ProjectionTrial.run(
                        new ProjectionTrial.Options(
                                graph,
                                5,
                                3,
                                new PrivacyParameters(Math.log(9), 1, 750),
                                200,
                                true));
        assertThat(r.kktResidual()).isLessThan(1e-12);
        assertThat(r.maxViolation()).isZero();
        assertThat(r.relativeErrorAfter()).isLessThan(r.relativeErrorBefore());
        assertThat(r.admm()).isNotNull();
        assertThat(r.admm().objective()).isCloseTo(r.objective(), within(1e-6));
        assertThat(ProjectionTrial.row("random", r)).startsWith("random");
    }
}
