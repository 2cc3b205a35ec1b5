package dev.fieldprof.cli.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fieldprof.cli.CliCapture;
import dev.fieldprof.runtime.EmbeddedKafka;
import dev.fieldprof.runtime.FakeFlinkRest;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JobsSubmitCommandTest {

    private static final String JOB_ID = "0123456789abcdef0123456789abcdef";

    private final CliCapture cli = new CliCapture();

    /** A cluster that takes the upload, starts job {@link #JOB_ID} and reports it RUNNING. */
    private static void acceptsAndRunsTheJob(FakeFlinkRest flink) {
        flink.answer(
                        "POST",
                        "/jars/upload",
                        200,
                        "{\"filename\":\"/up/ab_job.jar\",\"status\":\"success\"}")
                .answer("POST", "/jars/ab_job.jar/run", 200, "{\"jobid\":\"" + JOB_ID + "\"}")
                .answer("GET", "/jobs/" + JOB_ID, 200, "{\"state\":\"RUNNING\"}")
                .answer(
                        "GET",
                        "/jobs/" + JOB_ID + "/metrics?get=numRestarts",
                        200,
                        "[{\"id\":\"numRestarts\",\"value\":\"0\"}]");
    }

    @Test
    void reportsAJobThatRestartsWhileItSettlesWithItsCause(@TempDir Path dir) throws Exception {
        Path jar =
                Files.write(dir.resolve("fieldprof-jobs-0.1.0-SNAPSHOT-job.jar"), new byte[] {1});
        try (FakeFlinkRest flink = new FakeFlinkRest()) {
            acceptsAndRunsTheJob(flink);
            flink.answer(
                            "GET",
                            "/jobs/" + JOB_ID + "/metrics?get=numRestarts",
                            200,
                            "[{\"id\":\"numRestarts\",\"value\":\"2\"}]")
                    .answer(
                            "GET",
                            "/jobs/" + JOB_ID + "/exceptions",
                            200,
                            "{\"exceptionHistory\":{\"entries\":[{\"exceptionName\":"
                                + "\"org.apache.kafka.common.errors.TimeoutException\","
                                + "\"stacktrace\":\"org.apache.kafka.common.errors.TimeoutException:"
                                + " Timed out waiting for a node assignment.\\n"
                                + "\\tat org.apache.kafka.Foo.bar(Foo.java:1)\"}]"
                                + ",\"truncated\":false}}");

            int exit =
                    cli.run(
                            "jobs",
                            "submit",
                            "--jobmanager",
                            flink.address(),
                            "--jar",
                            jar.toString(),
                            "--settle",
                            "1s",
                            "--",
                            "--bootstrap",
                            "127.0.0.1:1");

            assertThat(exit).isEqualTo(1);
            assertThat(cli.out()).isEmpty();
            assertThat(cli.err())
                    .contains(
                            "job "
                                    + JOB_ID
                                    + " restarted 2 time(s) within 1 s of starting:"
                                    + " TimeoutException: Timed out waiting for a node"
                                    + " assignment. (more: the Flink web UI at http://"
                                    + flink.address()
                                    + ")");
        }
    }

    @Test
    void submitsTheJarRunsTheFrequencyJobAndWaitsUntilItRuns(@TempDir Path dir) throws Exception {
        Path jar =
                Files.write(dir.resolve("fieldprof-jobs-0.1.0-SNAPSHOT-job.jar"), new byte[] {1});
        try (FakeFlinkRest flink = new FakeFlinkRest()) {
            acceptsAndRunsTheJob(flink);

            int exit =
                    cli.run(
                            "jobs",
                            "submit",
                            "--jobmanager",
                            flink.address(),
                            "--jar",
                            jar.toString(),
                            "--parallelism",
                            "2",
                            "--settle",
                            "1s",
                            "--",
                            "--bootstrap",
                            "127.0.0.1:1");

            // No broker answers there: the job may still be submitted, with a warning.
            assertThat(cli.err())
                    .isEqualTo(
                            "warning: no Kafka broker answered at 127.0.0.1:1 within 5 s (is it"
                                    + " running, and do security.protocol=PLAINTEXT and the port"
                                    + " match its listener?)"
                                    + System.lineSeparator());
            assertThat(exit).isZero();
            assertThat(cli.out())
                    .isEqualTo(
                            "job "
                                    + JOB_ID
                                    + " RUNNING: FrequencyEstimationJob on http://"
                                    + flink.address()
                                    + System.lineSeparator());
            assertThat(new ObjectMapper().readTree(flink.requests().get(1).body()))
                    .isEqualTo(
                            new ObjectMapper()
                                    .readTree(
                                            "{\"entryClass\":\"dev.fieldprof.jobs.frequency.FrequencyEstimationJob\","
                                                + "\"programArgsList\":[\"--bootstrap\",\"127.0.0.1:1\"],"
                                                + "\"parallelism\":2}"));
        }
    }

    @Test
    void passesItsKafkaPropertiesFileOnToTheJobAsAnAbsolutePath(@TempDir Path dir)
            throws Exception {
        Path jar =
                Files.write(dir.resolve("fieldprof-jobs-0.1.0-SNAPSHOT-job.jar"), new byte[] {1});
        Path client = Files.writeString(dir.resolve("client.properties"), "linger.ms=5\n");
        try (FakeFlinkRest flink = new FakeFlinkRest()) {
            acceptsAndRunsTheJob(flink);
            int exit =
                    cli.run(
                            "jobs",
                            "submit",
                            "--jobmanager",
                            flink.address(),
                            "--jar",
                            jar.toString(),
                            "--settle",
                            "1s",
                            "--kafka-properties",
                            client.toString(),
                            "--",
                            "--bootstrap",
                            "127.0.0.1:1");
            assertThat(exit).as(cli.err()).isZero();
            assertThat(
                            new ObjectMapper()
                                    .readTree(flink.requests().get(1).body())
                                    .get("programArgsList"))
                    .isEqualTo(
                            new ObjectMapper()
                                    .readTree(
                                            "[\"--bootstrap\",\"127.0.0.1:1\","
                                                    + "\"--kafka-properties\",\""
                                                    + client.toAbsolutePath()
                                                    + "\"]"));
        }
        assertThat(
                        JobsSubmitCommand.jobKafkaProperties(
                                java.util.List.of(
                                        "--bootstrap", "b:1", "--kafka-properties", "/etc/k.p")))
                .contains("/etc/k.p");
    }

    @Test
    void submitsThePathModelJob(@TempDir Path dir) throws Exception {
        Path jar =
                Files.write(dir.resolve("fieldprof-jobs-0.1.0-SNAPSHOT-job.jar"), new byte[] {1});
        try (FakeFlinkRest flink = new FakeFlinkRest()) {
            acceptsAndRunsTheJob(flink);

            int exit =
                    cli.run(
                            "jobs",
                            "submit",
                            "--jobmanager",
                            flink.address(),
                            "--jar",
                            jar.toString(),
                            "--job",
                            "paths",
                            "--settle",
                            "1s",
                            "--",
                            "--bootstrap",
                            "127.0.0.1:1");

            // No broker answers there: the job may still be submitted, with a warning.
            assertThat(cli.err())
                    .isEqualTo(
                            "warning: no Kafka broker answered at 127.0.0.1:1 within 5 s (is it"
                                    + " running, and do security.protocol=PLAINTEXT and the port"
                                    + " match its listener?)"
                                    + System.lineSeparator());
            assertThat(exit).isZero();
            assertThat(cli.out())
                    .isEqualTo(
                            "job "
                                    + JOB_ID
                                    + " RUNNING: PathModelJob on http://"
                                    + flink.address()
                                    + System.lineSeparator());
            assertThat(
                            new ObjectMapper()
                                    .readTree(flink.requests().get(1).body())
                                    .get("entryClass")
                                    .asText())
                    .isEqualTo("dev.fieldprof.jobs.paths.PathModelJob");
        }
    }

    @Test
    void rejectsParallelismBelowOne(@TempDir Path dir) throws Exception {
        Path jar = Files.write(dir.resolve("job.jar"), new byte[] {1});

        int exit = cli.run("jobs", "submit", "--jar", jar.toString(), "--parallelism", "0");

        assertThat(exit).isEqualTo(2);
        assertThat(cli.err()).startsWith("--parallelism must be >= 1, got 0");
    }

    @Test
    void rejectsAnUnknownJob(@TempDir Path dir) throws Exception {
        Path jar = Files.write(dir.resolve("job.jar"), new byte[] {1});

        int exit = cli.run("jobs", "submit", "--jar", jar.toString(), "--job", "nope");

        assertThat(exit).isEqualTo(2);
        assertThat(cli.err())
                .startsWith("--job must be one of frequency, paths, shuffler, got 'nope'");
    }

    @Test
    void rejectsAJobmanagerWithoutPort(@TempDir Path dir) throws Exception {
        Path jar = Files.write(dir.resolve("job.jar"), new byte[] {1});

        int exit = cli.run("jobs", "submit", "--jar", jar.toString(), "--jobmanager", "localhost");

        assertThat(exit).isEqualTo(2);
        assertThat(cli.err()).startsWith("--jobmanager must be HOST:PORT, got 'localhost'");
    }

    @Test
    void rejectsAMissingJar(@TempDir Path dir) {
        int exit = cli.run("jobs", "submit", "--jar", dir.resolve("absent.jar").toString());

        assertThat(exit).isEqualTo(2);
        assertThat(cli.err()).startsWith("--jar: no such file: ");
    }

    @Test
    void failsWithOneLineWhenNoClusterAnswers(@TempDir Path dir) throws Exception {
        Path jar = Files.write(dir.resolve("job.jar"), new byte[] {1});
        int port = EmbeddedKafka.freePort();

        int exit =
                cli.run(
                        "jobs",
                        "submit",
                        "--jar",
                        jar.toString(),
                        "--jobmanager",
                        "127.0.0.1:" + port);

        assertThat(exit).isEqualTo(1);
        assertThat(cli.err())
                .isEqualTo(
                        "fieldprof: no Flink REST endpoint answers at http://127.0.0.1:"
                                + port
                                + System.lineSeparator());
    }

    @Test
    void findsTheNewestShadedJobJarInATargetFolder(@TempDir Path dir) throws Exception {
        Path target = Files.createDirectories(dir.resolve("jobs/target"));
        Path older = Files.write(target.resolve("fieldprof-jobs-0.1.0-job.jar"), new byte[] {1});
        Path newer = Files.write(target.resolve("fieldprof-jobs-0.2.0-job.jar"), new byte[] {1});
        Files.write(target.resolve("fieldprof-jobs-0.3.0.jar"), new byte[] {1});
        Files.setLastModifiedTime(
                older, java.nio.file.attribute.FileTime.fromMillis(1_000_000_000_000L));
        Files.setLastModifiedTime(
                newer, java.nio.file.attribute.FileTime.fromMillis(1_100_000_000_000L));

        assertThat(JobsSubmitCommand.newestJobJar(target)).contains(newer);
        assertThat(JobsSubmitCommand.newestJobJar(dir.resolve("absent"))).isEmpty();
    }
}
