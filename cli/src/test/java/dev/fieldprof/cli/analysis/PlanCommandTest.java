package dev.fieldprof.cli.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.analysis.plan.Strategy;
import dev.fieldprof.bytecode.model.ProgramModels;
import dev.fieldprof.cli.CliCapture;
import dev.fieldprof.schemas.CallEdges;
import dev.fieldprof.schemas.ProbePlan;
import dev.fieldprof.schemas.ProgramModel;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PlanCommandTest {

    @TempDir Path work;

    private final CliCapture cli = new CliCapture();

    /** main -> a, b; a -> c; b -> c: events [main, a, c] and [main, b, c], one cluster. */
    private Path model() {
        ProgramModel model =
                ProgramModels.build(
                        "tiny:1",
                        Instant.ofEpochMilli(0),
                        List.of(
                                "<t: void a()>",
                                "<t: void b()>",
                                "<t: void c()>",
                                "<t: void main()>"),
                        List.of(),
                        ProgramModels.privacyConfig("default", 1.0, 1, 20, 4),
                        Map.of());
        model.setCallGraph(
                List.of(
                        new CallEdges(0, List.of(2)),
                        new CallEdges(1, List.of(2)),
                        new CallEdges(3, List.of(0, 1))));
        Path file = work.resolve("tiny.model");
        ProgramModels.write(model, file);
        return file;
    }

    /** {@code fieldprof plan} of {@code model} at an h-bound of 3 into {@code out}, and more. */
    private int plan(Path model, Path out, String... more) {
        List<String> args =
                new ArrayList<>(
                        List.of(
                                "plan",
                                "--model",
                                model.toString(),
                                "--h-bound",
                                "3",
                                "--out",
                                out.toString()));
        args.addAll(List.of(more));
        return cli.run(args.toArray(String[]::new));
    }

    @Test
    void writesTheModelWithItsPlanAndPrintsASummary() {
        Path out = work.resolve("planned.model");
        int exit =
                plan(
                        model(),
                        out,
                        "--variants",
                        "2",
                        "--strategy",
                        "balanced-events",
                        "--seed",
                        "7");

        assertThat(exit).as(cli.err()).isZero();
        ProbePlan plan = ProgramModels.read(out).getProbePlan();
        assertThat(plan.getVariantCount()).isEqualTo(2);
        assertThat(plan.getStrategy()).isEqualTo("balanced-events");
        assertThat(plan.getHBound()).isEqualTo(3);
        assertThat(plan.getSeed()).isEqualTo(7);
        assertThat(plan.getCostUnit()).isEqualTo("branch-probes");
        assertThat(plan.getAlpha()).isEqualTo(0.5);
        assertThat(plan.getBeta()).isEqualTo(0.0);
        // Each variant holds one of the two chains whole; together they trace everything.
        assertThat(plan.getVariants())
                .containsExactlyInAnyOrder(List.of(0, 2, 3), List.of(1, 2, 3));
        assertThat(cli.out())
                .contains("balanced-events: 2 variants, h-bound 3 branch-probes")
                .contains("events covered by some variant: 2 of 2")
                .contains("model with plan written to " + out);
    }

    @Test
    void maxMovesStopsTheClimbThereAndSaysSo() {
        int exit =
                plan(
                        model(),
                        work.resolve("planned.model"),
                        "--variants",
                        "3",
                        "--strategy",
                        "balanced-events",
                        "--seed",
                        "7",
                        "--max-moves",
                        "2");

        assertThat(exit).as(cli.err()).isZero();
        assertThat(cli.out()).contains("move limit: 2 moves");
    }

    @Test
    void aMaxMovesBelowOneIsAUsageError() {
        int exit =
                plan(
                        model(),
                        work.resolve("x"),
                        "--variants",
                        "2",
                        "--strategy",
                        "balanced-events",
                        "--max-moves",
                        "0");
        assertThat(exit).isEqualTo(2);
        assertThat(cli.err()).contains("--max-moves must be >= 1, was 0");
    }

    @Test
    void helpExplainsEveryStrategyAndTheHBoundUnit() {
        assertThat(cli.run("plan", "--help")).isZero();
        for (Strategy strategy : Strategy.values()) {
            assertThat(cli.out()).contains(strategy.cliName() + " ");
        }
        assertThat(cli.out()).contains("branch probes");
    }

    @Test
    void anUnknownStrategyIsAUsageError() {
        int exit = plan(model(), work.resolve("x"), "--variants", "2", "--strategy", "greedy");
        assertThat(exit).isEqualTo(2);
        assertThat(cli.err()).contains("unknown strategy 'greedy'");
    }

    @Test
    void aMissingModelFailsWithOneLine() {
        int exit =
                plan(
                        work.resolve("absent.model"),
                        work.resolve("x"),
                        "--variants",
                        "2",
                        "--strategy",
                        "random-probes");
        assertThat(exit).isEqualTo(1);
        assertThat(cli.err().strip().lines()).hasSize(1);
        assertThat(cli.err()).contains("cannot read model file");
    }
}
