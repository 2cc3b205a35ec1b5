package dev.fieldprof.cli.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.bytecode.model.ProgramModels;
import dev.fieldprof.cli.CliCapture;
import dev.fieldprof.cli.diff.EstimateInputs;
import dev.fieldprof.schemas.EstimateWindow;
import dev.fieldprof.schemas.ProbePlan;
import dev.fieldprof.schemas.ProgramModel;
import dev.fieldprof.schemas.RankedMethod;
import dev.fieldprof.schemas.SolveStats;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code fieldprof plan --call-rates}: six methods without calls, a to f, of which the frequency
 * estimate finds e and f hot (45% and 42% of all entries) and c below 0 (ĝ is unbiased); the
 * estimate's standard error, 0.03, is the floor. In methods x call rate (share x 6, rounded up, at
 * least 1) a, b, c, d cost 1 and e, f cost 3.
 */
class PlanCallRatesCommandTest {

    static final List<String> SIGNATURES =
            List.of(
                    "<t: void a()>",
                    "<t: void b()>",
                    "<t: void c()>",
                    "<t: void d()>",
                    "<t: void e()>",
                    "<t: void f()>");

    static final double[] SHARES = {0.05, 0.05, -0.02, 0.05, 0.45, 0.42};

    @TempDir Path work;

    private final CliCapture cli = new CliCapture();

    private Path model() {
        ProgramModel model =
                ProgramModels.build(
                        "six:1",
                        Instant.ofEpochMilli(0),
                        SIGNATURES,
                        List.of(),
                        ProgramModels.privacyConfig("default", 1.0, 1, 20, 6),
                        Map.of());
        Path file = work.resolve("six.model");
        ProgramModels.write(model, file);
        return file;
    }

    /** A cumulative estimate as the frequency job writes it, with e and f as its top methods. */
    static EstimateWindow estimate(String appVersion, double[] shares, List<RankedMethod> top) {
        List<Double> normalized = new ArrayList<>();
        for (double share : shares) {
            normalized.add(share);
        }
        return EstimateWindow.newBuilder()
                .setAppVersion(appVersion)
                .setConfigId("default")
                .setWindowStartMillis(Instant.EPOCH)
                .setWindowEndMillis(Instant.ofEpochSecond(3600))
                .setCumulative(true)
                .setReports(2000)
                .setK(20)
                .setEpsilon(1.0)
                .setT(1)
                .setNormalized(normalized)
                .setStandardError(0.03)
                .setConsistent(normalized)
                .setHotThreshold(0.5)
                .setHotMethods(List.of(4, 5))
                .setTop(top)
                .setSolve(
                        SolveStats.newBuilder()
                                .setMillis(0)
                                .setKktResidual(0)
                                .setRounds(0)
                                .setMaxViolation(0)
                                .build())
                .setEmittedAtMillis(Instant.ofEpochSecond(3600))
                .build();
    }

    static List<RankedMethod> top(int id, String signature) {
        return List.of(new RankedMethod(id, signature, 0.45, 0.45));
    }

    private Path estimateFile(EstimateWindow window) {
        return EstimateInputs.save(window, work.resolve("estimates"));
    }

    private Path goodEstimate() {
        return estimateFile(estimate("six:1", SHARES, top(4, "<t: void e()>")));
    }

    private int plan(String hBound, String... extra) {
        return cli.run(planArgs(hBound, extra));
    }

    @Test
    void weighsMethodsByTheEstimatedCallRatesSoTheHotOnesGoToDifferentVariants() {
        int exit = plan("5", "--call-rates", goodEstimate().toString());

        assertThat(exit).as(cli.err()).isZero();
        ProbePlan plan = ProgramModels.read(work.resolve("planned.model")).getProbePlan();
        assertThat(plan.getCostUnit()).isEqualTo("methods x call rate");
        assertThat(plan.getMethodCosts()).containsExactly(1L, 1L, 1L, 1L, 3L, 3L);
        assertThat(plan.getVariants()).containsExactly(List.of(1, 2, 4), List.of(0, 3, 5));
        assertThat(cli.out().lines().limit(2))
                .containsExactly(
                        "balanced-probes: 2 variants, h-bound 5 methods x call rate, weights"
                                + " 0.4,0.2,0.4, seed 7, salt "
                                + plan.getSalt(),
                        "call rates: six:1's cumulative estimate of 2000 reports (config"
                                + " default), relative to the mean method; 1 of 6 methods"
                                + " estimated at or below the floor share 0.0300 (the estimate's"
                                + " standard error) are priced at it");
        assertThat(cli.out()).doesNotContain("cost more than the h-bound");
    }

    @Test
    void aGivenFloorRaisesEveryShareBelowIt() {
        // Floor 0.06: a, b, c, d are priced at 0.06 x 6 = 0.36, still cost 1; e and f stay 3.
        int exit =
                plan("5", "--call-rates", goodEstimate().toString(), "--call-rate-floor", "0.06");

        assertThat(exit).as(cli.err()).isZero();
        assertThat(cli.out())
                .contains(
                        "4 of 6 methods estimated at or below the floor share 0.0600"
                                + " (--call-rate-floor) are priced at it");
    }

    @Test
    void listsTheMethodsThatAloneCostMoreThanTheBoundAndTracesThemNowhere() {
        int exit = plan("2", "--call-rates", goodEstimate().toString());

        assertThat(exit).as(cli.err()).isZero();
        ProbePlan plan = ProgramModels.read(work.resolve("planned.model")).getProbePlan();
        for (List<Integer> variant : plan.getVariants()) {
            assertThat(variant).doesNotContain(4, 5).hasSize(2);
        }
        assertThat(cli.out())
                .contains(
                        "2 methods cost more than the h-bound 2 methods x call rate alone: no"
                                + " variant traces them (only their entries are counted); raise"
                                + " --h-bound to trace them:\n"
                                + "  <t: void e()> costs 3 (1 over the bound)\n"
                                + "  <t: void f()> costs 3 (1 over the bound)\n");
    }

    @Test
    void helpSaysWhichUnitTheHBoundIsInWithCallRates() {
        assertThat(cli.run("plan", "--help")).isZero();
        assertThat(cli.out().replaceAll("\\s+", " "))
                .contains("--call-rates=SOURCE")
                .contains(
                        "With --call-rates the unit is 'branch-probes x call rate' (or 'methods x"
                                + " call rate')")
                .contains("branch probes x call rate with --call-rates")
                .contains("--call-rate-floor=SHARE");
    }

    @Test
    void estimatesOfAnotherProgramAreRefusedInOneLine() {
        Path other = estimateFile(estimate("shop:1", SHARES, List.of()));

        assertThat(plan("5", "--call-rates", other.toString())).isEqualTo(1);
        assertThat(cli.err().strip())
                .isEqualTo(
                        "fieldprof: --call-rates: the estimates are of another program: shop:1, the"
                                + " model is of six:1");
    }

    @Test
    void estimatesOfAnotherAppVersionAreRefusedInOneLine() {
        Path older = estimateFile(estimate("six:0.9", SHARES, List.of()));

        assertThat(plan("5", "--call-rates", older.toString())).isEqualTo(1);
        assertThat(cli.err().strip())
                .isEqualTo(
                        "fieldprof: --call-rates: the estimates are of six:0.9, the model is of"
                            + " six:1: method ids differ between app versions; use the estimates of"
                            + " six:1");
    }

    @Test
    void estimatesOfAnotherMethodSetAreRefusedInOneLine() {
        Path five =
                estimateFile(estimate("six:1", new double[] {0.2, 0.2, 0.2, 0.2, 0.2}, List.of()));
        assertThat(plan("5", "--call-rates", five.toString())).isEqualTo(1);
        assertThat(cli.err().strip())
                .isEqualTo(
                        "fieldprof: --call-rates: the estimates of six:1 cover 5 methods, the model"
                                + " has 6: not the model the estimates were made with");

        CliCapture renamed = new CliCapture();
        Path other = estimateFile(estimate("six:1", SHARES, top(4, "<t: void x()>")));
        assertThat(renamed.run(planArgs("5", "--call-rates", other.toString()))).isEqualTo(1);
        assertThat(renamed.err().strip())
                .isEqualTo(
                        "fieldprof: --call-rates: the estimates' method 4 is <t: void x()>, the"
                                + " model's is <t: void e()>: not the model the estimates were made"
                                + " with");

        CliCapture unknown = new CliCapture();
        Path beyond = estimateFile(estimate("six:1", SHARES, top(9, "<t: void z()>")));
        assertThat(unknown.run(planArgs("5", "--call-rates", beyond.toString()))).isEqualTo(1);
        assertThat(unknown.err().strip())
                .isEqualTo(
                        "fieldprof: --call-rates: the estimates name method 9, which the model does"
                                + " not have");
    }

    @Test
    void anEstimateThatIsNotANumberIsRefusedInOneLine() {
        Path nan =
                estimateFile(
                        estimate(
                                "six:1",
                                new double[] {0.05, 0.05, Double.NaN, 0.05, 0.45, 0.42},
                                List.of()));
        assertThat(plan("5", "--call-rates", nan.toString())).isEqualTo(1);
        assertThat(cli.err().strip())
                .isEqualTo(
                        "fieldprof: --call-rates: estimated share of method 2 is not a number:"
                                + " NaN");
    }

    @Test
    void aFileThatIsNoEstimateIsRefusedInOneLine() throws Exception {
        Path text = Files.writeString(work.resolve("rates.csv"), "<t: void e()>,0.45\n");
        assertThat(plan("5", "--call-rates", text.toString())).isEqualTo(1);
        assertThat(cli.err().strip().lines()).hasSize(1);
        assertThat(cli.err()).startsWith("fieldprof: not a fieldprof estimate file: " + text);
    }

    @Test
    void anEstimateFileOfAnotherConfigThanAskedIsRefused() {
        assertThat(plan("5", "--call-rates", goodEstimate().toString(), "--config", "strict"))
                .isEqualTo(1);
        assertThat(cli.err().strip())
                .isEqualTo(
                        "fieldprof: --call-rates: "
                                + goodEstimate()
                                + " is an estimate of config default, not of --config strict");
    }

    @Test
    void optionsThatNeedCallRatesOrABrokerAreUsageErrors() {
        assertThat(plan("5", "--call-rates", "six:1")).isEqualTo(2);
        assertThat(cli.err())
                .contains("--call-rates six:1 reads the estimates topic and needs --bootstrap");

        CliCapture neither = new CliCapture();
        assertThat(neither.run(planArgs("5", "--call-rates", "rates-of-six"))).isEqualTo(2);
        assertThat(neither.err())
                .contains(
                        "--call-rates: 'rates-of-six' is neither an estimate file nor APP:VERSION");

        CliCapture alone = new CliCapture();
        assertThat(alone.run(planArgs("5", "--bootstrap", "localhost:9"))).isEqualTo(2);
        assertThat(alone.err())
                .contains(
                        "--bootstrap, --kafka-properties, --config and --call-rate-floor need"
                                + " --call-rates");

        CliCapture floor = new CliCapture();
        assertThat(
                        floor.run(
                                planArgs(
                                        "5",
                                        "--call-rates",
                                        goodEstimate().toString(),
                                        "--call-rate-floor",
                                        "-0.1")))
                .isEqualTo(2);
        assertThat(floor.err()).contains("--call-rate-floor must be a share in [0, 1), was -0.1");
    }

    private String[] planArgs(String hBound, String... extra) {
        List<String> args =
                new ArrayList<>(
                        List.of(
                                "plan",
                                "--model",
                                model().toString(),
                                "--variants",
                                "2",
                                "--h-bound",
                                hBound,
                                "--strategy",
                                "balanced-probes",
                                "--cost-unit",
                                "methods",
                                "--seed",
                                "7",
                                "--out",
                                work.resolve("planned.model").toString()));
        args.addAll(List.of(extra));
        return args.toArray(String[]::new);
    }
}
