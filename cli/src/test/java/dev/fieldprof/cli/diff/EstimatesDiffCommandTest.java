package dev.fieldprof.cli.diff;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.bytecode.model.ProgramModels;
import dev.fieldprof.cli.CliCapture;
import dev.fieldprof.schemas.CallEdges;
import dev.fieldprof.schemas.EstimateWindow;
import dev.fieldprof.schemas.ProgramModel;
import dev.fieldprof.schemas.RecordCodec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code fieldprof diff --estimates} on two simulated releases, saved as estimate and model files:
 * the estimates come from the real randomizer and estimator ({@link SimulatedRelease}, 2,000
 * reports each). Between the releases {@code parse} got costlier (+4 of 60 entries per trace),
 * {@code tokenize} was renamed {@code lex}, {@code audit} is gone and {@code cache} is new.
 */
class EstimatesDiffCommandTest {
    @TempDir Path dir;

    static final List<String> V1 =
            List.of(
                    "<app.Main: void main()>",
                    "<app.Server: void audit()>",
                    "<app.Server: void format()>",
                    "<app.Server: void handle()>",
                    "<app.Server: void parse()>",
                    "<app.Server: void render()>",
                    "<app.Server: void tokenize()>");
    static final int[] COUNTS1 = {2, 4, 10, 6, 10, 8, 20};
    // main -> handle -> {parse -> tokenize, render -> format, audit}
    static final int[][] CALLS1 = {{3}, {}, {}, {4, 5, 1}, {6}, {2}, {}};

    static final List<String> V2 =
            List.of(
                    "<app.Main: void main()>",
                    "<app.Server: void cache()>",
                    "<app.Server: void format()>",
                    "<app.Server: void handle()>",
                    "<app.Server: void lex()>",
                    "<app.Server: void parse()>",
                    "<app.Server: void render()>");
    static final int[] COUNTS2 = {2, 0, 10, 6, 20, 14, 8};
    // main -> handle -> {parse -> lex, render -> {format, cache}}
    static final int[][] CALLS2 = {{3}, {}, {}, {5, 6}, {}, {4}, {2, 1}};

    private Path model(String appVersion, List<String> signatures, int[][] calls) throws Exception {
        ProgramModel model =
                ProgramModels.build(
                        appVersion,
                        Instant.EPOCH,
                        signatures,
                        List.of(),
                        ProgramModels.privacyConfig("default", SimulatedRelease.EPSILON, 1, 60, 7),
                        Map.of());
        List<CallEdges> edges = new ArrayList<>();
        for (int v = 0; v < calls.length; v++) {
            if (calls[v].length > 0) {
                List<Integer> callees = new ArrayList<>();
                for (int w : calls[v]) {
                    callees.add(w);
                }
                edges.add(CallEdges.newBuilder().setCaller(v).setCallees(callees).build());
            }
        }
        model.setCallGraph(edges);
        Path file = dir.resolve(appVersion.replace(':', '_') + ".model");
        ProgramModels.write(model, file);
        return file;
    }

    private Path estimate(String appVersion, List<String> signatures, int[] counts, long seed)
            throws Exception {
        EstimateWindow window = SimulatedRelease.window(appVersion, signatures, counts, 2000, seed);
        Path file = dir.resolve(appVersion.replace(':', '_') + ".estimate");
        Files.write(file, RecordCodec.of(EstimateWindow.class).encode(window));
        return file;
    }

    @Test
    void ranksTheChangedMethodFirstAndPairsTheRenamedOneByTheCallGraphs() throws Exception {
        Path e1 = estimate("shop:1", V1, COUNTS1, 101);
        Path e2 = estimate("shop:2", V2, COUNTS2, 202);
        Path m1 = model("shop:1", V1, CALLS1);
        Path m2 = model("shop:2", V2, CALLS2);
        CliCapture cli = new CliCapture();
        int exit =
                cli.run(
                        "diff",
                        "--estimates",
                        e1.toString(),
                        e2.toString(),
                        "--models",
                        m1.toString(),
                        m2.toString());
        System.out.println(cli.out());
        assertThat(exit).as(cli.err()).isZero();
        List<String> lines = cli.out().lines().toList();
        String first = lines.stream().filter(l -> l.startsWith("   1 ")).findFirst().orElseThrow();
        assertThat(first).startsWith("   1 * ").endsWith("<app.Server: void parse()>");
        assertThat(cli.out())
                .contains(
                        "6 methods compared (1 paired by call graph alignment, marked ~), 1 changed"
                                + " at FDR 0.0500")
                .contains("<app.Server: void tokenize()>  ~ <app.Server: void lex()>")
                .contains("Gone in V2, by g* in V1")
                .contains("<app.Server: void audit()>")
                .contains("<app.Server: void cache()>");
        long flagged = lines.stream().filter(l -> l.matches("^\\s+\\d+ \\* .*")).count();
        assertThat(flagged).isEqualTo(1);
    }

    @Test
    void pairsBySignatureOnlyWithoutModelsAndSaysSo() throws Exception {
        Path e1 = estimate("shop:1", V1, COUNTS1, 101);
        Path e2 = estimate("shop:1b", V1, COUNTS1, 303);
        CliCapture cli = new CliCapture();
        int exit = cli.run("diff", "--estimates", e1.toString(), e2.toString());
        assertThat(exit).as(cli.err()).isZero();
        assertThat(cli.out())
                .contains("note: without both program models")
                .contains("7 methods compared (0 paired by call graph alignment, marked ~)");
    }

    @Test
    void statesTheCentralGuaranteeOfAShuffledRelease() throws Exception {
        Path e1 = estimate("shop:1", V1, COUNTS1, 101);
        EstimateWindow shuffled = SimulatedRelease.window("shop:1c", V1, COUNTS1, 2000, 404);
        shuffled.setShuffledBatchSizes(List.of(1000, 2000));
        shuffled.setCentralEpsilon(0.6467334);
        shuffled.setCentralDelta(1e-6);
        Path e2 = dir.resolve("shop_1c.estimate");
        Files.write(e2, RecordCodec.of(EstimateWindow.class).encode(shuffled));
        CliCapture cli = new CliCapture();
        int exit = cli.run("diff", "--estimates", e1.toString(), e2.toString());
        assertThat(exit).as(cli.err()).isZero();
        assertThat(cli.out().lines().filter(l -> l.contains("central eps")).toList())
                .containsExactly(
                        "note: shop:1c [default] is shuffled: central eps 0.647, delta 1.0e-06, at"
                                + " its smallest batch of 1000 reports (holds while the shuffler"
                                + " does not collude)");
    }

    @Test
    void refusesAnAppVersionWithoutBootstrap() {
        CliCapture cli = new CliCapture();
        int exit = cli.run("diff", "--estimates", "shop:1", "shop:2");
        assertThat(exit).isEqualTo(2);
        assertThat(cli.err()).contains("reading the estimates of shop:1 needs --bootstrap");
    }
}
