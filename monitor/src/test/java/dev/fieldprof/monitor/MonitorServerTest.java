package dev.fieldprof.monitor;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class MonitorServerTest {

    @Test
    void servesPageSnapshotAndPushesEachPublishedBoard() throws Exception {
        try (MonitorServer server = new MonitorServer("127.0.0.1", 0)) {
            HttpClient client = HttpClient.newHttpClient();
            HttpResponse<String> page =
                    client.send(
                            HttpRequest.newBuilder(server.address()).build(),
                            HttpResponse.BodyHandlers.ofString());
            assertThat(page.statusCode()).isEqualTo(200);
            assertThat(page.body()).contains("<title>fieldprof — live estimates</title>");

            EstimateBoard board = new EstimateBoard(null);
            board.accept(EstimateBoardTest.estimate("app:1", 120_000, 5, false));
            String json = EstimateJson.of(board);
            server.publish(json);

            HttpResponse<String> snapshot =
                    client.send(
                            HttpRequest.newBuilder(server.address().resolve("api/state.json"))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            assertThat(snapshot.body()).isEqualTo(json);

            HttpResponse<java.io.InputStream> events =
                    client.send(
                            HttpRequest.newBuilder(server.address().resolve("events")).build(),
                            HttpResponse.BodyHandlers.ofInputStream());
            try (BufferedReader lines =
                    new BufferedReader(
                            new InputStreamReader(events.body(), StandardCharsets.UTF_8))) {
                assertThat(lines.readLine()).isEqualTo("data: " + json);
            }
        }
    }

    @Test
    void servesTheChartLibraryFromTheJarAndNothingElse() throws Exception {
        try (MonitorServer server = new MonitorServer("127.0.0.1", 0)) {
            HttpClient client = HttpClient.newHttpClient();
            HttpResponse<String> uplot =
                    client.send(
                            HttpRequest.newBuilder(
                                            server.address()
                                                    .resolve(
                                                            "webjars/uplot/1.6.30/dist/uPlot.iife.min.js"))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            assertThat(uplot.statusCode()).isEqualTo(200);
            assertThat(uplot.body()).contains("uPlot");
            HttpResponse<String> other =
                    client.send(
                            HttpRequest.newBuilder(
                                            server.address()
                                                    .resolve("webjars/uplot/1.6.30/package.json"))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            assertThat(other.statusCode()).isEqualTo(404);
        }
    }

    @Test
    void writesBoardAsJsonWithEscapedSignatures() {
        EstimateBoard board = new EstimateBoard(null);
        dev.fieldprof.schemas.EstimateWindow window =
                EstimateBoardTest.estimate("app:1", 120_000, 5, false);
        window.setStandardErrors(java.util.List.of(0.0825, 0.05)); // each top method's own
        board.accept(window);
        assertThat(EstimateJson.of(board))
                .isEqualTo(
                        "{\"estimates\":[{\"app\":\"app:1\",\"config\":\"default\","
                            + "\"cumulative\":false,\"start\":60000,\"end\":120000,"
                            + "\"reports\":5,\"k\":10,\"epsilon\":2.19722,\"t\":1,"
                            + "\"standardError\":0.0500000,\"solveMillis\":1.50000,\"top\":[{\"id\":0,\"signature\":\"\\u003ca.B:"
                            + " void hot()\\u003e\","
                            + "\"share\":0.700000,\"normalized\":0.720000,\"standardError\":0.0825000},{\"id\":1,\"signature\":\"\\u003ca.B:"
                            + " void cold()\\u003e\","
                            + "\"share\":0.300000,\"normalized\":0.280000,\"standardError\":0.0500000}]}],\"seen\":1}");
    }
}
