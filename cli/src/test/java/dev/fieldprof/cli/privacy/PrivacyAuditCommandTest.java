package dev.fieldprof.cli.privacy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.cli.CliCapture;
import org.junit.jupiter.api.Test;

class PrivacyAuditCommandTest {
    private final CliCapture cli = new CliCapture();

    @Test
    void printsTheWorkedExampleOfSection33() {
        int exit =
                cli.run(
                        "privacy",
                        "audit",
                        "--epsilon",
                        "ln(9)",
                        "--t",
                        "1",
                        "--k",
                        "5",
                        "--output",
                        "4,2");
        assertThat(exit).isZero();
        assertThat(cli.out().lines())
                .containsExactly(
                        "5,0 0.104284",
                        "4,1 0.126532",
                        "3,2 0.074621",
                        "2,3 0.024725",
                        "1,4 0.006140",
                        "0,5 0.001287",
                        "max-ratio-within-t 4.768889",
                        "bound 9.000000");
    }

    @Test
    void rejectsUnparsableEpsilonWithUsageExit() {
        int exit =
                cli.run(
                        "privacy",
                        "audit",
                        "--epsilon",
                        "nine",
                        "--t",
                        "1",
                        "--k",
                        "5",
                        "--output",
                        "4,2");
        assertThat(exit).isEqualTo(2);
        assertThat(cli.err()).contains("--epsilon must be a number or ln(x)");
    }

    @Test
    void rejectsOutputAboveK() {
        int exit =
                cli.run(
                        "privacy",
                        "audit",
                        "--epsilon",
                        "1",
                        "--t",
                        "1",
                        "--k",
                        "5",
                        "--output",
                        "6,0");
        assertThat(exit).isEqualTo(2);
        assertThat(cli.err()).contains("--output entries must be in [0, k=5], got 6");
    }

    @Test
    void auditsTheUserLevelOracleExhaustivelyOnASmallDomain() {
        int exit =
                cli.run(
                        "privacy",
                        "audit",
                        "--mode",
                        "user-level",
                        "--epsilon",
                        "ln(3)",
                        "--methods",
                        "5",
                        "--omega",
                        "2");
        assertThat(exit).isZero();
        System.out.println(cli.out());
        assertThat(cli.out().lines())
                .contains(
                        "mode user-level",
                        "oracle subset-selection d=5 omega=2 epsilon=1.098612",
                        "bound 3.000000000000000",
                        "max-ratio <= bound: true");
        assertThat(cli.out()).contains("max-ratio 2.99999999999999").contains("(every output");
    }

    @Test
    void auditsTheUserLevelOracleInClosedFormAtFieldprofsSize() {
        int exit =
                cli.run(
                        "privacy",
                        "audit",
                        "--mode",
                        "user-level",
                        "--epsilon",
                        "ln(3)",
                        "--methods",
                        "1000");
        assertThat(exit).isZero();
        System.out.println(cli.out());
        assertThat(cli.out())
                .contains("omega=250 ")
                // omega/d = 1/4 = 1/(e^epsilon + 1): P = 1/2 exactly, the ratio is exactly 3.
                .contains("max-ratio 3 (closed form")
                .contains("(closed form")
                .contains("max-ratio <= bound: true");
    }

    @Test
    void userLevelModeNeedsTheNumberOfMethods() {
        int exit = cli.run("privacy", "audit", "--mode", "user-level", "--epsilon", "1");
        assertThat(exit).isEqualTo(2);
        assertThat(cli.err()).contains("user-level mode needs --methods D");
    }
}
