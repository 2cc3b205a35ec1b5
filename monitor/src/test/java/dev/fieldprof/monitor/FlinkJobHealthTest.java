package dev.fieldprof.monitor;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class FlinkJobHealthTest {
    private static final String FIXTURE = "flink-rest-two-running-jobs.json";
    private static final String CANCELLED_JOB = "00112233445566778899aabbccddeeff";

    @Test
    void sumsTheWaitingReportsOfEveryValidationSubtaskAndTakesTheLargestHoldLag() throws Exception {
        try (FakeFlinkRestEndpoint flink = new FakeFlinkRestEndpoint(FIXTURE)) {
            MonitorState.JobHealth health =
                    new FlinkJobHealth(flink.address(), Duration.ofSeconds(5)).read();

            // 3 + 4 reports wait; the holds are 1500 ms and 250 ms.
            assertThat(health)
                    .isEqualTo(
                            new MonitorState.JobHealth(
                                    flink.address().toString(), 2, 7L, 1500L, null));
        }
    }

    @Test
    void readsNothingOfAJobThatIsNotRunning() throws Exception {
        try (FakeFlinkRestEndpoint flink = new FakeFlinkRestEndpoint(FIXTURE)) {
            new FlinkJobHealth(flink.address(), Duration.ofSeconds(5)).read();

            assertThat(flink.requests())
                    .as("requests")
                    .isNotEmpty()
                    .noneMatch(request -> request.contains(CANCELLED_JOB));
        }
    }

    @Test
    void asksOnlyForTheGaugesOfAVertexThatHasThem() throws Exception {
        try (FakeFlinkRestEndpoint flink = new FakeFlinkRestEndpoint(FIXTURE)) {
            new FlinkJobHealth(flink.address(), Duration.ofSeconds(5)).read();

            assertThat(flink.requests())
                    .filteredOn(request -> request.contains("?get="))
                    .containsExactly(
                            "/jobs/4f1bd0d0b7a1d2c3e4f5a6b7c8d9e0f1/vertices/"
                                    + "0a448493b4782967b150582570326227/metrics?get="
                                    + "0.validate-reports.reportsWaitingForModel,"
                                    + "1.validate-reports.reportsWaitingForModel,"
                                    + "0.validate-reports.watermarkHoldLagMillis,"
                                    + "1.validate-reports.watermarkHoldLagMillis");
        }
    }

    @Test
    void showsNoValueAndSaysWhyWhenTheEndpointAnswersWithAnError() throws Exception {
        try (FakeFlinkRestEndpoint flink = new FakeFlinkRestEndpoint(FIXTURE)) {
            flink.failOverviewWith(500);

            MonitorState.JobHealth health =
                    new FlinkJobHealth(flink.address(), Duration.ofSeconds(5)).read();

            assertThat(health)
                    .isEqualTo(
                            new MonitorState.JobHealth(
                                    flink.address().toString(),
                                    0,
                                    null,
                                    null,
                                    "IOException: GET "
                                            + flink.address()
                                            + "/jobs/overview: HTTP 500"));
        }
    }

    @Test
    void namesTheRefusedConnectionWhenNothingListens() throws Exception {
        java.net.URI nobody;
        try (FakeFlinkRestEndpoint flink = new FakeFlinkRestEndpoint(FIXTURE)) {
            nobody = flink.address(); // closed again: nothing listens there any more
        }

        MonitorState.JobHealth health = new FlinkJobHealth(nobody, Duration.ofSeconds(5)).read();

        assertThat(health)
                .isEqualTo(
                        new MonitorState.JobHealth(
                                nobody.toString(), 0, null, null, "ConnectException"));
    }

    @Test
    void showsNoValueWhenNoRunningJobHasTheGauges() throws Exception {
        try (FakeFlinkRestEndpoint flink =
                new FakeFlinkRestEndpoint("flink-rest-paths-job-only.json")) {
            MonitorState.JobHealth health =
                    new FlinkJobHealth(flink.address(), Duration.ofSeconds(5)).read();

            assertThat(health)
                    .isEqualTo(
                            new MonitorState.JobHealth(
                                    flink.address().toString(), 1, null, null, null));
        }
    }

    @Test
    void startHandsTheFirstReadingToTheSinkAtOnce() throws Exception {
        LinkedBlockingQueue<MonitorState.JobHealth> readings = new LinkedBlockingQueue<>();
        try (FakeFlinkRestEndpoint flink = new FakeFlinkRestEndpoint(FIXTURE);
                FlinkJobHealth health =
                        new FlinkJobHealth(flink.address(), Duration.ofSeconds(5))
                                .start(Duration.ofHours(1), readings::add)) {
            // The interval is an hour: a reading within 10 s is the immediate first one.
            assertThat(readings.poll(10, TimeUnit.SECONDS))
                    .isEqualTo(
                            new MonitorState.JobHealth(
                                    flink.address().toString(), 2, 7L, 1500L, null));
        }
    }
}
