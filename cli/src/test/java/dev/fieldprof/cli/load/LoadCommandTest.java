package dev.fieldprof.cli.load;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.cli.CliCapture;
import org.junit.jupiter.api.Test;

/** {@code fieldprof load}'s option checks: each bad value exits 2 with a line naming it. */
class LoadCommandTest {
    private static final String[] GOOD = {"load", "--bootstrap", "127.0.0.1:1", "--duration", "1s"};

    private static CliCapture run(String... more) {
        String[] args = new String[GOOD.length + more.length];
        System.arraycopy(GOOD, 0, args, 0, GOOD.length);
        System.arraycopy(more, 0, args, GOOD.length, more.length);
        CliCapture cli = new CliCapture();
        assertThat(cli.run(args)).as(cli.err()).isEqualTo(2);
        return cli;
    }

    @Test
    void rejectsNonPositiveRate() {
        assertThat(run("--rate", "0").err()).contains("--rate must be > 0, got 0.0");
    }

    @Test
    void rejectsZeroDevices() {
        assertThat(run("--rate", "10", "--devices", "0").err())
                .contains("--devices must be >= 1, got 0");
    }

    @Test
    void rejectsMoreWorkersThanDevices() {
        assertThat(run("--rate", "10", "--devices", "2", "--workers", "3").err())
                .contains("--workers must be between 1 and --devices (2), got 3");
    }

    @Test
    void rejectsAppWithoutVersion() {
        assertThat(run("--rate", "10", "--app", "myapp").err())
                .contains("--app must be APP:VERSION, got 'myapp'");
    }

    @Test
    void rejectsMissingModelFile() {
        assertThat(run("--rate", "10", "--model", "no-such.model").err())
                .contains("--model no-such.model is not a file");
    }

    @Test
    void requiresRate() {
        assertThat(run().err()).contains("Missing required option: '--rate=REPORTS/S'");
    }
}
