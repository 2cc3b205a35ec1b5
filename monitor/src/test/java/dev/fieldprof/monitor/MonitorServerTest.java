package dev.fieldprof.monitor;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
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

    /** A request sent over a plain socket, so that Host can be anything; status line and body. */
    private static List<String> raw(MonitorServer server, String path, String host, String origin)
            throws Exception {
        try (Socket socket = new Socket(server.address().getHost(), server.address().getPort())) {
            socket.setSoTimeout(30_000); // an answered request ends; an open stream would not
            StringBuilder request = new StringBuilder("GET " + path + " HTTP/1.1\r\n");
            request.append("Host: ").append(host).append("\r\n");
            if (origin != null) {
                request.append("Origin: ").append(origin).append("\r\n");
            }
            request.append("Connection: close\r\n\r\n");
            OutputStream out = socket.getOutputStream();
            out.write(request.toString().getBytes(StandardCharsets.US_ASCII));
            out.flush();
            BufferedReader in =
                    new BufferedReader(
                            new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
            List<String> lines = new ArrayList<>();
            lines.add(in.readLine());
            String line;
            while ((line = in.readLine()) != null && !line.isEmpty()) {
                // headers
            }
            while ((line = in.readLine()) != null) {
                lines.add(line);
            }
            return lines;
        }
    }

    @Test
    void refusesAHostHeaderThatDoesNotNameThisServer() throws Exception {
        try (MonitorServer server =
                new MonitorServer("127.0.0.1", 0, Set.of("monitor.example"), 4)) {
            server.publish("{}");
            int port = server.address().getPort();
            for (String path : List.of("/", "/api/state.json", "/events")) {
                assertThat(raw(server, path, "rebound.attacker.example:" + port, null))
                        .containsExactly(
                                "HTTP/1.1 403 Forbidden",
                                "Host 'rebound.attacker.example:"
                                        + port
                                        + "' is not this monitor's address (allow it with"
                                        + " --allowed-host)");
            }
            assertThat(raw(server, "/api/state.json", "localhost:" + port, null))
                    .containsExactly("HTTP/1.1 200 OK", "{}");
            assertThat(raw(server, "/api/state.json", "127.0.0.1:" + port, null))
                    .containsExactly("HTTP/1.1 200 OK", "{}");
            assertThat(raw(server, "/api/state.json", "MONITOR.example", null))
                    .containsExactly("HTTP/1.1 200 OK", "{}");
        }
    }

    @Test
    void refusesCrossOriginRequestsToTheJsonAndTheEventStream() throws Exception {
        try (MonitorServer server = new MonitorServer("127.0.0.1", 0)) {
            server.publish("{}");
            String host = "127.0.0.1:" + server.address().getPort();
            for (String path : List.of("/api/state.json", "/events")) {
                assertThat(raw(server, path, host, "http://attacker.example"))
                        .containsExactly(
                                "HTTP/1.1 403 Forbidden",
                                "cross-origin request from 'http://attacker.example' refused");
                assertThat(raw(server, path, host, "null").get(0))
                        .isEqualTo("HTTP/1.1 403 Forbidden");
            }
            assertThat(raw(server, "/api/state.json", host, "http://" + host))
                    .containsExactly("HTTP/1.1 200 OK", "{}");
        }
    }

    @Test
    void refusesEventStreamsBeyondItsLimitWhileKeepingTheOpenOnes() throws Exception {
        try (MonitorServer server = new MonitorServer("127.0.0.1", 0, Set.of(), 2)) {
            server.publish("{\"n\":1}");
            HttpClient client = HttpClient.newHttpClient();
            HttpRequest events = HttpRequest.newBuilder(server.address().resolve("events")).build();
            List<BufferedReader> open = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                HttpResponse<java.io.InputStream> stream =
                        client.send(events, HttpResponse.BodyHandlers.ofInputStream());
                assertThat(stream.statusCode()).isEqualTo(200);
                BufferedReader lines =
                        new BufferedReader(
                                new InputStreamReader(stream.body(), StandardCharsets.UTF_8));
                assertThat(lines.readLine()).isEqualTo("data: {\"n\":1}");
                open.add(lines);
            }
            HttpResponse<java.io.InputStream> third =
                    client.send(events, HttpResponse.BodyHandlers.ofInputStream());
            assertThat(third.statusCode()).isEqualTo(503);
            assertThat(new String(third.body().readAllBytes(), StandardCharsets.UTF_8))
                    .isEqualTo("already 2 event streams open; retry later\n");
            assertThat(third.headers().firstValue("Retry-After")).contains("15");

            server.publish("{\"n\":2}");
            for (BufferedReader lines : open) {
                assertThat(lines.readLine()).isEmpty();
                assertThat(lines.readLine()).isEqualTo("data: {\"n\":2}");
            }
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
                            + "\"reports\":5,\"revision\":1,\"k\":10,\"epsilon\":2.19722,\"t\":1,"
                            + "\"standardError\":0.0500000,\"solveMillis\":1.50000,\"top\":[{\"id\":0,\"signature\":\"\\u003ca.B:"
                            + " void hot()\\u003e\","
                            + "\"share\":0.700000,\"normalized\":0.720000,\"standardError\":0.0825000},{\"id\":1,\"signature\":\"\\u003ca.B:"
                            + " void cold()\\u003e\","
                            + "\"share\":0.300000,\"normalized\":0.280000,\"standardError\":0.0500000}]}],\"seen\":1}");
    }
}
