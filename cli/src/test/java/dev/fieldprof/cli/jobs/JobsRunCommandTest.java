package dev.fieldprof.cli.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.cli.CliCapture;
import org.junit.jupiter.api.Test;

/** {@code jobs run} as the README types it: job options follow the job's name. */
class JobsRunCommandTest {
    private final CliCapture cli = new CliCapture();

    @Test
    void passesEveryOptionAfterTheJobToTheJob() {
        // The job itself rejects the misspelled option, naming it: so --bootstrap reached it too.
        int exit =
                cli.run("jobs", "run", "frequency", "--bootstrap", "127.0.0.1:1", "--windw", "1m");
        assertThat(exit).isEqualTo(2);
        assertThat(cli.err()).contains("unknown option --windw; known: --bootstrap, ");
        assertThat(cli.err()).doesNotContain("Unknown options");
    }

    @Test
    void refusesAnUnknownJob() {
        assertThat(cli.run("jobs", "run", "frequencies", "--bootstrap", "127.0.0.1:1"))
                .isEqualTo(2);
        assertThat(cli.err()).contains("JOB must be one of [frequency, paths], got 'frequencies'");
    }
}
