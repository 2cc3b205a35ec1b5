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
}
