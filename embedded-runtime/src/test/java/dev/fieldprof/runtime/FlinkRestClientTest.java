package dev.fieldprof.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fieldprof.runtime.FlinkRestClient.FlinkRestException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FlinkRestClientTest {

    private static final String JOB_ID = "0123456789abcdef0123456789abcdef";

    private FakeFlinkRest server;
    private FlinkRestClient client;

    @BeforeEach
    void startServer() throws Exception {
        server = new FakeFlinkRest();
        client = FlinkRestClient.forAddress(server.address());
    }

    @AfterEach
    void stopServer() {
        server.close();
    }

    @Test
    void uploadsTheJarAsMultipartFieldJarfileAndReturnsTheStoredName(@TempDir Path dir)
            throws Exception {
        Path jar = dir.resolve("job.jar");
        byte[] content = {0x50, 0x4b, 0x03, 0x04, 0x00, (byte) 0xff, 0x0d, 0x0a};
        Files.write(jar, content);
        server.answer(
                "POST",
                "/jars/upload",
                200,
                "{\"filename\":\"/tmp/flink-web-upload/5f1e_job.jar\",\"status\":\"success\"}");

        String id = client.uploadJar(jar);

        assertThat(id).isEqualTo("5f1e_job.jar");
        FakeFlinkRest.Request request = server.requests().get(0);
        assertThat(request.contentType()).startsWith("multipart/form-data; boundary=");
        String boundary = request.contentType().substring(request.contentType().indexOf('=') + 1);
        String expected =
                "--"
                        + boundary
                        + "\r\n"
                        + "Content-Disposition: form-data; name=\"jarfile\";"
                        + " filename=\"job.jar\"\r\n"
                        + "Content-Type: application/x-java-archive\r\n\r\n"
                        + new String(content, StandardCharsets.ISO_8859_1)
                        + "\r\n--"
                        + boundary
                        + "--\r\n";
        assertThat(request.bodyText()).isEqualTo(expected);
    }

    @Test
    void runsTheJarWithEntryClassArgumentsAndParallelism() throws Exception {
        server.answer("POST", "/jars/5f1e_job.jar/run", 200, "{\"jobid\":\"" + JOB_ID + "\"}");

        String jobId =
                client.runJar(
                        "5f1e_job.jar",
                        "dev.fieldprof.jobs.frequency.FrequencyEstimationJob",
                        List.of("--bootstrap", "127.0.0.1:9092"),
                        3);

        assertThat(jobId).isEqualTo(JOB_ID);
        FakeFlinkRest.Request request = server.requests().get(0);
        assertThat(request.contentType()).isEqualTo("application/json");
        ObjectMapper json = new ObjectMapper();
        assertThat(json.readTree(request.body()))
                .isEqualTo(
                        json.readTree(
                                "{\"entryClass\":\"dev.fieldprof.jobs.frequency.FrequencyEstimationJob\","
                                    + "\"programArgsList\":[\"--bootstrap\",\"127.0.0.1:9092\"],"
                                    + "\"parallelism\":3}"));
    }

    @Test
    void leavesParallelismToTheClusterWhenNotGiven() throws Exception {
        server.answer("POST", "/jars/j/run", 200, "{\"jobid\":\"" + JOB_ID + "\"}");

        client.runJar("j", "a.B", List.of(), null);

        assertThat(new ObjectMapper().readTree(server.requests().get(0).body()))
                .isEqualTo(
                        new ObjectMapper()
                                .readTree("{\"entryClass\":\"a.B\",\"programArgsList\":[]}"));
    }

    @Test
    void reportsTheRootCauseOfAFailedRunInOneLine() {
        server.answer(
                "POST",
                "/jars/j/run",
                500,
                "{\"errors\":[\"org.apache.flink.runtime.rest.handler.RestHandlerException:"
                        + " Could not execute application.\\n\\tat"
                        + " org.apache.flink.X.y(X.java:1)\\nCaused by:"
                        + " java.util.concurrent.CompletionException:"
                        + " org.apache.flink.util.FlinkRuntimeException: Could not execute"
                        + " application.\\n\\t... 1 more\\nCaused by:"
                        + " java.lang.IllegalArgumentException: --bootstrap is required\\n\\t... 7"
                        + " more\"]}");

        assertThatThrownBy(() -> client.runJar("j", "a.B", List.of(), null))
                .isInstanceOf(FlinkRestException.class)
                .hasMessage(
                        "POST /jars/j/run returned HTTP 500: IllegalArgumentException: --bootstrap"
                                + " is required");
    }

    @Test
    void reportsTheServerSideExceptionWhenThereIsNoCause() {
        server.answer(
                "POST",
                "/jars/j/run",
                500,
                "{\"errors\":[\"Internal server error.\",\"<Exception on server side:\\n"
                        + "java.util.concurrent.CompletionException:"
                        + " org.apache.flink.client.program.ProgramInvocationException: The"
                        + " program's entry point class 'a.B' was not found in the jar file.\\n"
                        + "\\tat org.apache.flink.X.y(X.java:1)\\n\\nEnd of exception on server"
                        + " side>\"]}");

        assertThatThrownBy(() -> client.runJar("j", "a.B", List.of(), null))
                .hasMessage(
                        "POST /jars/j/run returned HTTP 500: ProgramInvocationException: The"
                                + " program's entry point class 'a.B' was not found in the jar"
                                + " file.");
    }

    @Test
    void cancelsWithPatchModeCancel() {
        server.answer("PATCH", "/jobs/" + JOB_ID + "?mode=cancel", 202, "{}");

        client.cancel(JOB_ID);

        assertThat(server.requests())
                .extracting(FakeFlinkRest.Request::method, FakeFlinkRest.Request::pathAndQuery)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(
                                "PATCH", "/jobs/" + JOB_ID + "?mode=cancel"));
    }

    @Test
    void awaitingRunningFailsAsSoonAsTheJobFailed() {
        server.answer("GET", "/jobs/" + JOB_ID, 200, "{\"jid\":\"x\",\"state\":\"FAILED\"}");

        assertThatThrownBy(
                        () -> client.awaitState(JOB_ID, Set.of("RUNNING"), Duration.ofSeconds(30)))
                .hasMessage("job " + JOB_ID + " is FAILED, not [RUNNING]");
        assertThat(server.requests()).hasSize(1);
    }

    @Test
    void awaitingRunningReturnsTheStateReached() {
        server.answer("GET", "/jobs/" + JOB_ID, 200, "{\"jid\":\"x\",\"state\":\"RUNNING\"}");

        assertThat(client.awaitState(JOB_ID, Set.of("RUNNING"), Duration.ofSeconds(30)))
                .isEqualTo("RUNNING");
    }

    @Test
    void saysWhenNoClusterAnswers() {
        int port = EmbeddedKafka.freePort();
        FlinkRestClient nobody = FlinkRestClient.forAddress("127.0.0.1:" + port);

        assertThatThrownBy(nobody::overview)
                .hasMessage("no Flink REST endpoint answers at http://127.0.0.1:" + port);
    }

    @Test
    void parsesHostPortAndUrls() {
        assertThat(FlinkRestClient.parseAddress("localhost:8081"))
                .isEqualTo(URI.create("http://localhost:8081"));
        assertThat(FlinkRestClient.parseAddress("https://flink.example:443"))
                .isEqualTo(URI.create("https://flink.example:443"));
        assertThatThrownBy(() -> FlinkRestClient.parseAddress("localhost"))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
