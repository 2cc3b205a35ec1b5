package dev.fieldprof.cli.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.bytecode.model.ProgramModels;
import dev.fieldprof.cli.CliCapture;
import dev.fieldprof.schemas.ProgramModel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AnalyzeCommandTest {

    @TempDir static Path work;
    static Path jar;

    private final CliCapture cli = new CliCapture();

    @BeforeAll
    static void compileTinyApp() throws IOException {
        jar =
                SourceJar.compile(
                        work,
                        "tiny.Main",
                        "package tiny; public class Main {"
                                + " public static void main(String[] a) { new Main().go(); }"
                                + " void go() { helper(); }"
                                + " private void helper() {} }",
                        "tiny.jar");
    }

    @Test
    void analyzesThenInstrumentsAJar() throws IOException {
        Path model = work.resolve("tiny.model");
        Path stats = work.resolve("tiny-stats.json");
        int exit =
                cli.run(
                        "analyze",
                        "--jar",
                        jar.toString(),
                        "--app",
                        "tiny:1.0",
                        "--world",
                        "application",
                        "--out",
                        model.toString(),
                        "--stats-json",
                        stats.toString());
        assertThat(exit).as(cli.err()).isZero();
        ProgramModel read = ProgramModels.read(model);
        assertThat(read.getMethods())
                .extracting(m -> m.getSignature())
                .containsExactly(
                        "<tiny.Main: void <init>()>",
                        "<tiny.Main: void go()>",
                        "<tiny.Main: void helper()>",
                        "<tiny.Main: void main(java.lang.String[])>");
        // The defaults: user-level reports of one event at eps ln 9.
        assertThat(read.getPrivacyConfigs().get(0).getMode())
                .isEqualTo(dev.fieldprof.schemas.PrivacyMode.USER_LEVEL);
        assertThat(read.getPrivacyConfigs().get(0).getK()).isEqualTo(1);
        assertThat(read.getPrivacyConfigs().get(0).getEpsilon()).isEqualTo(Math.log(9));
        // main <= <init> (dominating), <init> <= main, go <= main, helper <= go, go <= helper.
        assertThat(read.getPairs()).hasSize(5);
        assertThat(Files.readString(stats))
                .contains("\"pairs\": 5")
                .contains("\"methods\": 4")
                .contains("\"algorithm1.threadCpuSecondsPer100kStatements\": ");
        assertThat(cli.out()).contains("tiny:1.0: 4 methods").contains("model written to");
        // One line per phase, in order, then the whole run: name, wall s, cpu s, thread cpu s,
        // heap peak and used MB.
        List<String> phaseLines =
                cli.out()
                        .lines()
                        .filter(
                                line ->
                                        line.matches(
                                                "[a-zA-Z0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9]+"
                                                        + " +[0-9]+"))
                        .map(line -> line.split(" +")[0])
                        .toList();
        assertThat(phaseLines)
                .containsExactly(
                        "read",
                        "soot.load",
                        "soot.bodies",
                        "soot.facts",
                        "algorithm1",
                        "callGraph",
                        "cfg",
                        "model",
                        "total");
        assertThat(cli.out())
                .contains(
                        "phase", "wall s", "cpu s", "thread cpu s", "heap peak MB", "heap used MB");

        Path instrumented = work.resolve("tiny-instrumented.jar");
        exit =
                cli.run(
                        "instrument",
                        "--jar",
                        jar.toString(),
                        "--model",
                        model.toString(),
                        "--out",
                        instrumented.toString());
        assertThat(exit).as(cli.err()).isZero();
        assertThat(cli.out())
                .contains("instrumented 1 classes (4 probes)")
                .contains("device budget: user-level eps 2.197 per 1d");
        assertThat(instrumented).exists();
    }

    @Test
    void anEpsilonTModelNeedsABudgetItsReportsFitInto() throws IOException {
        Path model = work.resolve("tiny-et.model");
        assertThat(
                        cli.run(
                                "analyze",
                                "--jar",
                                jar.toString(),
                                "--app",
                                "tiny:3.0",
                                "--world",
                                "application",
                                "--privacy-mode",
                                "epsilon-t",
                                "--out",
                                model.toString()))
                .as(cli.err())
                .isZero();
        assertThat(ProgramModels.read(model).getPrivacyConfigs().get(0).getK()).isEqualTo(20);
        Path instrumented = work.resolve("tiny-et.jar");
        CliCapture refused = new CliCapture();
        assertThat(
                        refused.run(
                                "instrument",
                                "--jar",
                                jar.toString(),
                                "--model",
                                model.toString(),
                                "--out",
                                instrumented.toString()))
                .isEqualTo(1);
        assertThat(refused.err())
                .isEqualTo(
                        "fieldprof: each report of privacy configuration 'default' costs"
                                + " user-level eps 43.94 (epsilon-t: eps*k/t with k=20, t=1), more"
                                + " than the device budget eps 2.197 per PT24H: no device could"
                                + " ever report; raise --budget, give --budget none, or use"
                                + " --privacy-mode user-level"
                                + System.lineSeparator());
        assertThat(instrumented).doesNotExist();
        CliCapture unbounded = new CliCapture();
        assertThat(
                        unbounded.run(
                                "instrument",
                                "--jar",
                                jar.toString(),
                                "--model",
                                model.toString(),
                                "--out",
                                instrumented.toString(),
                                "--budget",
                                "none"))
                .as(unbounded.err())
                .isZero();
        assertThat(unbounded.out()).contains("device budget: none (devices spend without bound)");
    }

    @Test
    void writesAUserLevelConfigurationThatTheInstrumentedJarCarriesToDevices() throws Exception {
        Path model = work.resolve("tiny-user.model");
        int exit =
                cli.run(
                        "analyze",
                        "--jar",
                        jar.toString(),
                        "--app",
                        "tiny:2.0",
                        "--world",
                        "application",
                        "--privacy-mode",
                        "user-level",
                        "--epsilon",
                        Double.toString(Math.log(3)),
                        "--out",
                        model.toString());
        assertThat(exit).as(cli.err()).isZero();
        dev.fieldprof.schemas.PrivacyConfig config =
                ProgramModels.read(model).getPrivacyConfigs().get(0);
        assertThat(config.getMode()).isEqualTo(dev.fieldprof.schemas.PrivacyMode.USER_LEVEL);
        assertThat(config.getK()).isEqualTo(1);
        assertThat(config.getT()).isEqualTo(1);
        assertThat(config.getEpsilon()).isEqualTo(Math.log(3));

        Path instrumented = work.resolve("tiny-user.jar");
        assertThat(
                        cli.run(
                                "instrument",
                                "--jar",
                                jar.toString(),
                                "--model",
                                model.toString(),
                                "--out",
                                instrumented.toString()))
                .as(cli.err())
                .isZero();
        assertThat(clientProperties(instrumented))
                .contains("privacy.mode=user-level\n", "privacy.k=1\n");
        assertThat(
                        cli.run(
                                "analyze",
                                "--jar",
                                jar.toString(),
                                "--app",
                                "a:1",
                                "--privacy-mode",
                                "user-level",
                                "--k",
                                "5",
                                "--out",
                                work.resolve("y").toString()))
                .isEqualTo(2);
        assertThat(cli.err())
                .contains(
                        "--t and --k shape the reports of --privacy-mode epsilon-t; the user-level"
                                + " mode (the default) reports one event");
    }

    @Test
    void writesAShuffledConfigurationWithItsBatchTermsThatTheInstrumentedJarCarries()
            throws Exception {
        Path model = work.resolve("tiny-shuffled.model");
        int exit =
                cli.run(
                        "analyze",
                        "--jar",
                        jar.toString(),
                        "--app",
                        "tiny:3.0",
                        "--world",
                        "application",
                        "--privacy-mode",
                        "shuffled",
                        "--epsilon",
                        "4",
                        "--min-batch-size",
                        "500",
                        "--delta",
                        "1e-7",
                        "--out",
                        model.toString());
        assertThat(exit).as(cli.err()).isZero();
        dev.fieldprof.schemas.PrivacyConfig config =
                ProgramModels.read(model).getPrivacyConfigs().get(0);
        assertThat(config.getMode()).isEqualTo(dev.fieldprof.schemas.PrivacyMode.USER_LEVEL);
        assertThat(config.getK()).isEqualTo(1);
        assertThat(config.getT()).isEqualTo(1);
        assertThat(config.getEpsilon()).isEqualTo(4.0);
        assertThat(config.getShuffler())
                .isEqualTo(new dev.fieldprof.schemas.ShufflerTerms(500, 1e-7));

        Path defaults = work.resolve("tiny-shuffled-defaults.model");
        assertThat(
                        cli.run(
                                "analyze",
                                "--jar",
                                jar.toString(),
                                "--app",
                                "tiny:3.0",
                                "--privacy-mode",
                                "shuffled",
                                "--out",
                                defaults.toString()))
                .as(cli.err())
                .isZero();
        assertThat(ProgramModels.read(defaults).getPrivacyConfigs().get(0).getShuffler())
                .isEqualTo(new dev.fieldprof.schemas.ShufflerTerms(1000, 1e-6));

        Path instrumented = work.resolve("tiny-shuffled.jar");
        assertThat(
                        cli.run(
                                "instrument",
                                "--jar",
                                jar.toString(),
                                "--model",
                                model.toString(),
                                "--out",
                                instrumented.toString()))
                .isEqualTo(1);
        assertThat(cli.err())
                .contains(
                        "each report of privacy configuration 'default' costs user-level eps 4.000"
                                + " (shuffled mode: epsilon0 per report), more than the device"
                                + " budget eps 2.197 per PT24H: no device could ever report; raise"
                                + " --budget, give --budget none, or analyze with a smaller"
                                + " --epsilon (epsilon0)");
        assertThat(
                        cli.run(
                                "instrument",
                                "--jar",
                                jar.toString(),
                                "--model",
                                model.toString(),
                                // epsilon0 = 4 a report: more than the default daily budget.
                                "--budget",
                                "4",
                                "--out",
                                instrumented.toString()))
                .as(cli.err())
                .isZero();
        assertThat(clientProperties(instrumented))
                .contains(
                        "privacy.mode=user-level\n",
                        "privacy.shuffler.min.batch.size=500\n",
                        "privacy.shuffler.delta=1.0E-7\n");
    }

    @Test
    void refusesShufflerTermsOutsideTheShuffledModeAndOutOfRange() {
        assertRefused(
                "--min-batch-size and --delta are terms of --privacy-mode shuffled",
                "--min-batch-size",
                "100");
        assertRefused(
                "--min-batch-size must be >= 2, was 1",
                "--privacy-mode",
                "shuffled",
                "--min-batch-size",
                "1");
        assertRefused(
                "--delta must be in (0, 1), was 1.0", "--privacy-mode", "shuffled", "--delta", "1");
    }

    /** The client settings an instrumented jar carries to its devices. */
    private static String clientProperties(Path instrumented) throws IOException {
        try (var zip = new java.util.zip.ZipFile(instrumented.toFile())) {
            return new String(
                    zip.getInputStream(zip.getEntry("META-INF/fieldprof/client.properties"))
                            .readAllBytes(),
                    java.nio.charset.StandardCharsets.UTF_8);
        }
    }

    /** {@code analyze} of the tiny jar with these options exits 2 and says {@code expected}. */
    private void assertRefused(String expected, String... options) {
        List<String> args =
                new ArrayList<>(
                        List.of(
                                "analyze",
                                "--jar",
                                jar.toString(),
                                "--app",
                                "a:1",
                                "--out",
                                work.resolve("x").toString()));
        args.addAll(List.of(options));
        assertThat(cli.run(args.toArray(String[]::new))).as(String.join(" ", args)).isEqualTo(2);
        assertThat(cli.err()).contains(expected);
    }

    @Test
    void rejectsBadOptionValuesWithUsageExit() {
        assertThat(
                        cli.run(
                                "analyze",
                                "--jar",
                                jar.toString(),
                                "--app",
                                "noversion",
                                "--out",
                                work.resolve("x").toString()))
                .isEqualTo(2);
        assertThat(cli.err()).contains("--app must be APP:VERSION");
        assertThat(
                        cli.run(
                                "analyze",
                                "--jar",
                                jar.toString(),
                                "--app",
                                "a:1",
                                "--epsilon",
                                "-1",
                                "--out",
                                work.resolve("x").toString()))
                .isEqualTo(2);
        assertThat(cli.err()).contains("--epsilon must be > 0");
    }

    @Test
    void failsWithOneClearLineOnMissingOrBrokenInput() throws IOException {
        assertThat(
                        cli.run(
                                "analyze",
                                "--jar",
                                work.resolve("missing.jar").toString(),
                                "--app",
                                "a:1",
                                "--out",
                                work.resolve("x").toString()))
                .isEqualTo(1);
        assertThat(cli.err()).contains("fieldprof: no such file: ");
        Path notModel = Files.writeString(work.resolve("not.model"), "nope");
        assertThat(
                        cli.run(
                                "instrument",
                                "--jar",
                                jar.toString(),
                                "--model",
                                notModel.toString(),
                                "--out",
                                work.resolve("o.jar").toString()))
                .isEqualTo(1);
        assertThat(cli.err()).contains("not a fieldprof program model");
    }
}
