package dev.fieldprof.cli.privacy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.cli.CliCapture;
import org.junit.jupiter.api.Test;

class PrivacyAmplificationCommandTest {
    private final CliCapture cli = new CliCapture();

    @Test
    void printsTheCentralEpsilonLastWithTheClosedFormBesideIt() {
        int exit =
                cli.run(
                        "privacy",
                        "amplification",
                        "--reports",
                        "100000",
                        "--epsilon0",
                        "4",
                        "--delta",
                        "1e-6");

        assertThat(exit).as(cli.err()).isZero();
        // Numerical 0.1697698 and closed form 0.5346340, both rounded up to four digits; the
        // closed form holds up to ln(10^5/(16 ln(2·10^6))) = 6.06559, rounded down.
        assertThat(cli.out().lines())
                .containsExactly(
                        "batch of 100000 reports, each 4-LDP; delta 0.000001",
                        "holds only if the shuffler does not collude with the analyst (else"
                                + " epsilon0 per report); per report, so per device with one"
                                + " report per device per batch",
                        "closed form: epsilon <= 0.5347 (holds for epsilon0 <= 6.065)",
                        "central epsilon 0.1698 (closed form 0.5347)");
    }

    @Test
    void takesLnForEpsilonZeroAndLeavesOutAClosedFormThatDoesNotApply() {
        int exit =
                cli.run(
                        "privacy",
                        "amplification",
                        "--reports",
                        "10000",
                        "--epsilon0",
                        "ln(9)",
                        "--delta",
                        "1e-6");
        assertThat(exit).as(cli.err()).isZero();
        assertThat(cli.out().lines())
                .last()
                .isEqualTo("central epsilon 0.1818 (closed form 0.5622)");

        int small = cli.run("privacy", "amplification", "--reports", "100", "--epsilon0", "ln(9)");
        assertThat(small).as(cli.err()).isZero();
        // ln(100/(16 ln(2·10^6))) = -0.84216 < ln 9: no closed form; 100 reports at ln 9 hold
        // 2.1969059, barely below ln 9 = 2.1972246.
        assertThat(cli.out().lines())
                .contains(
                        "batch of 100 reports, each 2.19722-LDP; delta 0.000001",
                        "closed form: does not apply (it holds for epsilon0 <= ln(n/(16"
                                + " ln(2/delta))) = -0.8422)")
                .last()
                .isEqualTo("central epsilon 2.197");
    }

    @Test
    void badFlagsAreOneLineUsageErrors() {
        assertRefused("--reports must be in [1, 10^9], got 0", "--reports", "0", "--epsilon0", "1");
        assertRefused(
                "--epsilon0 must be in (0, 50], got -1", "--reports", "10", "--epsilon0", "-1");
        assertRefused(
                "--epsilon0: epsilon must be a number or ln(x), e.g. 2.2 or ln(9), got 'nine'",
                "--reports",
                "10",
                "--epsilon0",
                "nine");
        assertRefused(
                "--delta must be in (0, 1), got 1.5",
                "--reports",
                "10",
                "--epsilon0",
                "1",
                "--delta",
                "1.5");
    }

    private void assertRefused(String message, String... options) {
        CliCapture capture = new CliCapture();
        String[] args = new String[options.length + 2];
        args[0] = "privacy";
        args[1] = "amplification";
        System.arraycopy(options, 0, args, 2, options.length);
        assertThat(capture.run(args)).as(capture.err()).isEqualTo(2);
        assertThat(capture.err().lines().findFirst()).contains(message);
        assertThat(capture.out()).isEmpty();
    }
}
