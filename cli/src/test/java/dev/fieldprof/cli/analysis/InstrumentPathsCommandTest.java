package dev.fieldprof.cli.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.bytecode.model.ProgramModels;
import dev.fieldprof.cli.CliCapture;
import dev.fieldprof.paths.BranchTableText;
import dev.fieldprof.paths.ProgramModelBranches;
import dev.fieldprof.schemas.ProgramModel;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code fieldprof instrument --paths}: one output jar with entry probes and path probes, which
 * passes the verifier under {@code -Xverify:all} and counts exactly what the fixture does.
 */
class InstrumentPathsCommandTest {
    /**
     * main: a 5-round loop (its condition runs 6 times), 5 calls of a 3-way switch, one call that
     * throws and is caught in main. Methods: {@code <init>}, classify, fail, main.
     */
    private static final String FIXTURE =
            "package loops; public class Main {"
                    + " public static void main(String[] a) { Main m = new Main(); int s = 0;"
                    + "   for (int i = 0; i < 5; i++) { s += m.classify(i); }"
                    + "   try { m.fail(); } catch (IllegalStateException e) { s++; }"
                    + "   System.out.println(\"sum \" + s); }"
                    + " int classify(int i) { switch (i % 3) { case 0: return 1;"
                    + "   case 1: return 2; default: return 3; } }"
                    + " void fail() { throw new IllegalStateException(\"no\"); } }";

    @TempDir static Path work;
    static Path jar;
    static Path model;

    private final CliCapture cli = new CliCapture();

    @BeforeAll
    static void compileAndAnalyzeFixture() throws IOException {
        jar = SourceJar.compile(work, "loops.Main", FIXTURE, "loops.jar");
        model = work.resolve("loops.model");
        assertThat(
                        new CliCapture()
                                .run(
                                        "analyze",
                                        "--jar",
                                        jar.toString(),
                                        "--app",
                                        "loops:1",
                                        "--world",
                                        "application",
                                        "--out",
                                        model.toString()))
                .isZero();
    }

    @Test
    void writesOneJarWithBothProbeKindsThatVerifiesAndCountsExactly() throws Exception {
        Path instrumented = work.resolve("loops-paths.jar");
        int exit =
                cli.run(
                        "instrument",
                        "--jar",
                        jar.toString(),
                        "--model",
                        model.toString(),
                        "--out",
                        instrumented.toString(),
                        "--paths");
        assertThat(exit).as(cli.err()).isZero();
        assertThat(cli.err()).isEmpty();
        // Entry probes: one per method. Path probes: main 5 (enter, loop jump 2, return,
        // catch-all), <init> 3, classify 8 (enter, 3 switch targets, 3 returns, catch-all),
        // fail 2 (enter, catch-all).
        assertThat(cli.out().lines())
                .anySatisfy(l -> assertThat(l).startsWith("instrumented 1 classes (4 probes)"))
                .contains(
                        "path probes: 4 of 4 selected methods (18 probes, 2 branch nodes); branch"
                                + " description in META-INF/fieldprof/branches.txt");

        ProgramModel programModel = ProgramModels.read(model);
        try (JarFile result = new JarFile(instrumented.toFile())) {
            assertThat(result.getEntry("META-INF/fieldprof/client.properties")).isNotNull();
            String branches =
                    new String(
                            result.getInputStream(result.getEntry(BranchTableText.RESOURCE))
                                    .readAllBytes(),
                            StandardCharsets.UTF_8);
            // The table the paths job derives from the model is the jar's own.
            assertThat(BranchTableText.toText(ProgramModelBranches.table(programModel)))
                    .isEqualTo(branches);
        }

        Path state = work.resolve("state");
        Process child =
                new ProcessBuilder(
                                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                                "-Xverify:all",
                                "-Dfieldprof.transport=none",
                                "-Dfieldprof.state.dir=" + state,
                                "-cp",
                                instrumented
                                        + File.pathSeparator
                                        + System.getProperty("java.class.path"),
                                PathsFixtureMain.class.getName(),
                                instrumented.toString(),
                                "loops.Main")
                        .redirectErrorStream(true)
                        .start();
        String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(child.exitValue()).as(output).isZero();
        assertThat(output.lines().filter(l -> !l.startsWith("OpenJDK")).toList())
                .as(output)
                .containsSubsequence(
                        List.of(
                                "sum 10",
                                "linked=1",
                                "entries=8",
                                "path.enter=8",
                                "path.branch=11",
                                "path.exit=7",
                                "path.exitExceptionally=1"));
    }

    @Test
    void tracesOnlyTheSelectedMethodsAndSaysTheJobNeedsTheJarsDescription() throws Exception {
        ProgramModel programModel = ProgramModels.read(model);
        String classify =
                String.valueOf(
                        programModel.getMethods().stream()
                                .filter(m -> m.getSignature().toString().contains("classify"))
                                .findFirst()
                                .orElseThrow()
                                .getId());
        int exit =
                cli.run(
                        "instrument",
                        "--jar",
                        jar.toString(),
                        "--model",
                        model.toString(),
                        "--out",
                        work.resolve("loops-classify.jar").toString(),
                        "--paths",
                        "--path-methods",
                        classify);
        assertThat(exit).as(cli.err()).isZero();
        assertThat(cli.out())
                .contains("path probes: 1 of 1 selected methods (8 probes, 1 branch nodes)");
        assertThat(cli.err())
                .startsWith("warning: only some methods are traced: run the paths job with");

        assertThat(
                        cli.run(
                                "instrument",
                                "--jar",
                                jar.toString(),
                                "--model",
                                model.toString(),
                                "--out",
                                work.resolve("bad.jar").toString(),
                                "--paths",
                                "--path-methods",
                                "9"))
                .isEqualTo(2);
        assertThat(cli.err()).contains("--path-methods: method id 9 is not in [0, 4)");
    }
}
