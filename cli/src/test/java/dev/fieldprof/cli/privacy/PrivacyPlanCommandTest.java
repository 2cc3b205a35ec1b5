package dev.fieldprof.cli.privacy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.bytecode.model.ProgramModels;
import dev.fieldprof.cli.CliCapture;
import dev.fieldprof.schemas.OrderPair;
import dev.fieldprof.schemas.PairRule;
import dev.fieldprof.schemas.ProgramModel;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PrivacyPlanCommandTest {
    @TempDir Path work;

    private final CliCapture cli = new CliCapture();

    /** Four methods, a <= b, an epsilon-t configuration with k = 20. */
    private Path model() {
        ProgramModel model =
                ProgramModels.build(
                        "tiny:1",
                        Instant.ofEpochMilli(0),
                        List.of("<t: void a()>", "<t: void b()>", "<t: void c()>", "<t: void d()>"),
                        List.of(new OrderPair(0, 1, PairRule.OTHER)),
                        ProgramModels.privacyConfig("default", 1.0, 1, 20, 4),
                        Map.of());
        Path file = work.resolve("tiny.model");
        ProgramModels.write(model, file);
        return file;
    }

    @Test
    void printsThePredictionOfEachConfigurationAndRecommendsTheCheapestThatMeetsTheTarget()
            throws Exception {
        Path png = work.resolve("plan.png");
        int exit =
                cli.run(
                        "privacy",
                        "plan",
                        "--model",
                        model().toString(),
                        "--devices",
                        "1000",
                        "--window",
                        "1h",
                        "--epsilons",
                        "ln(9),8",
                        "--t",
                        "1",
                        "--reports-per-day",
                        "24",
                        "--target-ci",
                        "0.03",
                        "--png",
                        png.toString());

        assertThat(exit).as(cli.err()).isZero();
        // epsilon-t, ln 9, t = 1, k = 20 (the model's): a = 3, n = 1000 per hourly window,
        // SE = sqrt(3/(1000*20))/2 = 0.6124%, half-width 1.96 SE = 1.2002%, per report 20 ln 9.
        assertThat(cli.out())
                .contains("tiny:1: |V| = 4, 1 pairs; 1000 devices, windows of PT1H; profile zipf")
                .contains(
                        "epsilon-t   2.1972     1     20     24       1000    1.2002    1.2002"
                                + "   0.0195   0.0227      43.94       1055")
                .contains(
                        "recommended for +-3.000% at 95%: user-level, epsilon 2.1972 (analyze"
                                + " --privacy-mode user-level --epsilon 2.1972), 24 report(s) per"
                                + " device per day")
                .contains("chart: " + png);
        BufferedImage image = ImageIO.read(png.toFile());
        assertThat(image.getWidth()).isEqualTo(1120);
    }

    @Test
    void theShuffledModeRecommendsTheLargestEpsilonZeroItsBatchAllows() {
        int exit =
                cli.run(
                        "privacy",
                        "plan",
                        "--model",
                        model().toString(),
                        "--devices",
                        "100000",
                        "--window",
                        "1h",
                        "--mode",
                        "shuffled",
                        "--shuffled-windows",
                        "1h,1d",
                        "--reports-per-day",
                        "1,24",
                        "--central-epsilon",
                        "1",
                        "--delta",
                        "1e-6",
                        "--target-ci",
                        "0.01");
        assertThat(exit).as(cli.err()).isZero();
        // 100,000 devices, hourly windows: 4,166 reports a window at one report a day allow
        // epsilon0 3.9642 for a central epsilon of 1, a window of 100,000 at 24 a day 7.0700 (and
        // 24 central epsilons a day). The accuracy is the user-level oracle's at epsilon0: |V| = 4,
        // n = 4166.67, share-0 half-width 0.4345%. Daily windows at one report a day make the
        // same batches of 100,000 at one central epsilon a day; the hourly ones also meet the
        // target at that cost and are fresher, so they are recommended.
        assertThat(cli.out())
                .contains(
                        "shuffled    3.9642     -      1      1       4167    0.4345    0.4847"
                                + "   0.0222",
                        "shuffled    7.0700     -      1     24     100000    0.0181    0.0201"
                                + "   0.0042",
                        "shuffled: epsilon0 7.0700, 24 report(s) per device per day, windows of"
                                + " PT1H: batches of at least 100000 reports (1.00 reports per"
                                + " device in each) hold central epsilon 1.0000 at delta 0.000001"
                                + " (target 1.0000); +-0.0181%",
                        "shuffled: epsilon0 7.0700, 1 report(s) per device per day, windows of"
                                + " PT24H: batches of at least 100000 reports (1.00 reports per"
                                + " device in each) hold central epsilon 1.0000 at delta 0.000001"
                                + " (target 1.0000); +-0.0181%",
                        "recommended in the shuffled mode for +-1.000% at 95%: epsilon0 3.9642, 1"
                                + " report(s) per device per day, windows of PT1H: batches of at"
                                + " least 4166 reports (0.0417 reports per device in each) hold"
                                + " central epsilon 1.0000 at delta 0.000001 (target 1.0000);"
                                + " +-0.4345%");
        assertThat(cli.out().lines())
                .noneMatch(line -> line.startsWith("user-level ") || line.startsWith("epsilon-t "));
    }

    @Test
    void aShuffledWindowWithoutAReportIsAUsageError() {
        int exit =
                cli.run(
                        "privacy",
                        "plan",
                        "--model",
                        model().toString(),
                        "--devices",
                        "10",
                        "--window",
                        "1h",
                        "--modes",
                        "shuffled",
                        "--reports-per-day",
                        "1");
        assertThat(exit).isEqualTo(2);
        assertThat(cli.err())
                .contains(
                        "shuffled: 10 devices at 1 report(s) a day fill a window of PT1H with 0.417"
                                + " reports; a batch needs at least one");
    }

    @Test
    void saysWhenNoConfigurationMeetsTheTarget() {
        int exit =
                cli.run(
                        "privacy",
                        "plan",
                        "--model",
                        model().toString(),
                        "--devices",
                        "10",
                        "--epsilons",
                        "1",
                        "--target-ci",
                        "0.0001");
        assertThat(exit).as(cli.err()).isZero();
        assertThat(cli.out()).contains("no configuration meets +-0.010% at 95% with 10 devices");
    }

    @Test
    void aThresholdAboveKIsAUsageErrorNamingIt() throws Exception {
        int exit =
                cli.run(
                        "privacy",
                        "plan",
                        "--model",
                        model().toString(),
                        "--devices",
                        "10",
                        "--t",
                        "21");
        assertThat(exit).isEqualTo(2);
        assertThat(cli.err()).contains("--t must be in [1, k = 20], got 21");
        assertThat(Files.exists(work.resolve("plan.png"))).isFalse();
    }
}
