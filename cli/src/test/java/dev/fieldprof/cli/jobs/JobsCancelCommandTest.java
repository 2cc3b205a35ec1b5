package dev.fieldprof.cli.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.cli.FieldprofCommand;
import dev.fieldprof.cli.runtime.FakeFlinkRest;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class JobsCancelCommandTest {

    private static final String JOB_ID = "0123456789abcdef0123456789abcdef";

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cli = FieldprofCommand.commandLine();
        cli.addSubcommand("cancel", new JobsCancelCommand());
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        return cli.execute(args);
    }

    @Test
    void cancelsARunningJobAndWaitsUntilItIsCanceled() throws Exception {
        try (FakeFlinkRest flink = new FakeFlinkRest()) {
            flink.answer("GET", "/jobs/" + JOB_ID, 200, "{\"state\":\"RUNNING\"}")
                    .answer("GET", "/jobs/" + JOB_ID, 200, "{\"state\":\"CANCELLING\"}")
                    .answer("GET", "/jobs/" + JOB_ID, 200, "{\"state\":\"CANCELED\"}")
                    .answer("PATCH", "/jobs/" + JOB_ID + "?mode=cancel", 202, "{}");

            int exit = run("cancel", "--jobmanager", flink.address(), JOB_ID);

            assertThat(err.toString()).isEmpty();
            assertThat(exit).isZero();
            assertThat(out.toString())
                    .isEqualTo("job " + JOB_ID + " CANCELED" + System.lineSeparator());
            assertThat(flink.requests())
                    .extracting(FakeFlinkRest.Request::method)
                    .containsExactly("GET", "PATCH", "GET", "GET");
        }
    }

    @Test
    void leavesAFinishedJobAlone() throws Exception {
        try (FakeFlinkRest flink = new FakeFlinkRest()) {
            flink.answer("GET", "/jobs/" + JOB_ID, 200, "{\"state\":\"FINISHED\"}");

            int exit = run("cancel", "--jobmanager", flink.address(), JOB_ID);

            assertThat(exit).isZero();
            assertThat(out.toString())
                    .isEqualTo("job " + JOB_ID + " FINISHED" + System.lineSeparator());
            assertThat(flink.requests())
                    .extracting(FakeFlinkRest.Request::method)
                    .containsExactly("GET");
        }
    }

    @Test
    void rejectsAMalformedJobId() {
        int exit = run("cancel", "not-a-job");

        assertThat(exit).isEqualTo(2);
        assertThat(err.toString()).startsWith("JOB-ID must be 32 hex digits, got 'not-a-job'");
    }

    @Test
    void failsWithOneLineForAnUnknownJob() throws Exception {
        try (FakeFlinkRest flink = new FakeFlinkRest()) {
            flink.answer(
                    "GET", "/jobs/" + JOB_ID, 404, "{\"errors\":[\"Job could not be found.\"]}");

            int exit = run("cancel", "--jobmanager", flink.address(), JOB_ID);

            assertThat(exit).isEqualTo(1);
            assertThat(err.toString())
                    .isEqualTo(
                            "fieldprof: GET /jobs/"
                                    + JOB_ID
                                    + " returned HTTP 404: Job could not be found."
                                    + System.lineSeparator());
        }
    }
}
