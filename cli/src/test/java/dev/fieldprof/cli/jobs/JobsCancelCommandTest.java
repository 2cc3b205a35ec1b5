package dev.fieldprof.cli.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.cli.CliCapture;
import dev.fieldprof.runtime.FakeFlinkRest;
import org.junit.jupiter.api.Test;

class JobsCancelCommandTest {

    private static final String JOB_ID = "0123456789abcdef0123456789abcdef";

    private final CliCapture cli = new CliCapture();

    @Test
    void cancelsARunningJobAndWaitsUntilItIsCanceled() throws Exception {
        try (FakeFlinkRest flink = new FakeFlinkRest()) {
            flink.answer("GET", "/jobs/" + JOB_ID, 200, "{\"state\":\"RUNNING\"}")
                    .answer("GET", "/jobs/" + JOB_ID, 200, "{\"state\":\"CANCELLING\"}")
                    .answer("GET", "/jobs/" + JOB_ID, 200, "{\"state\":\"CANCELED\"}")
                    .answer("PATCH", "/jobs/" + JOB_ID + "?mode=cancel", 202, "{}");

            int exit = cli.run("jobs", "cancel", "--jobmanager", flink.address(), JOB_ID);

            assertThat(cli.err()).isEmpty();
            assertThat(exit).isZero();
            assertThat(cli.out()).isEqualTo("job " + JOB_ID + " CANCELED" + System.lineSeparator());
            assertThat(flink.requests())
                    .extracting(FakeFlinkRest.Request::method)
                    .containsExactly("GET", "PATCH", "GET", "GET");
        }
    }

    @Test
    void leavesAFinishedJobAlone() throws Exception {
        try (FakeFlinkRest flink = new FakeFlinkRest()) {
            flink.answer("GET", "/jobs/" + JOB_ID, 200, "{\"state\":\"FINISHED\"}");

            int exit = cli.run("jobs", "cancel", "--jobmanager", flink.address(), JOB_ID);

            assertThat(exit).isZero();
            assertThat(cli.out()).isEqualTo("job " + JOB_ID + " FINISHED" + System.lineSeparator());
            assertThat(flink.requests())
                    .extracting(FakeFlinkRest.Request::method)
                    .containsExactly("GET");
        }
    }

    @Test
    void rejectsAMalformedJobId() {
        int exit = cli.run("jobs", "cancel", "not-a-job");

        assertThat(exit).isEqualTo(2);
        assertThat(cli.err()).startsWith("JOB-ID must be 32 hex digits, got 'not-a-job'");
    }

    @Test
    void failsWithOneLineForAnUnknownJob() throws Exception {
        try (FakeFlinkRest flink = new FakeFlinkRest()) {
            flink.answer(
                    "GET", "/jobs/" + JOB_ID, 404, "{\"errors\":[\"Job could not be found.\"]}");

            int exit = cli.run("jobs", "cancel", "--jobmanager", flink.address(), JOB_ID);

            assertThat(exit).isEqualTo(1);
            assertThat(cli.err())
                    .isEqualTo(
                            "fieldprof: GET /jobs/"
                                    + JOB_ID
                                    + " returned HTTP 404: Job could not be found."
                                    + System.lineSeparator());
        }
    }
}
