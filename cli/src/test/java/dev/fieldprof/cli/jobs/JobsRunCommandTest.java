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
        assertThat(cli.err())
                .contains("JOB must be one of [frequency, paths, shuffler], got 'frequencies'");
    }

    /** The shuffler is one of the jobs: its own options reach its own parser. */
    @Test
    void passesTheShufflersOptionsToTheShuffler() {
        int exit =
                cli.run(
                        "jobs",
                        "run",
                        "shuffler",
                        "--bootstrap",
                        "127.0.0.1:1",
                        "--min-batch-size",
                        "11",
                        "--max-batch-size",
                        "10");
        assertThat(exit).isEqualTo(2);
        assertThat(cli.err()).contains("--min-batch-size 11 must be <= --max-batch-size 10");
    }
}
