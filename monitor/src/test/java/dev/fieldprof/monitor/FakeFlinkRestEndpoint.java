package dev.fieldprof.monitor;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A JDK HTTP server on a free loopback port that answers like a Flink JobManager's REST API from a
 * fixture file (see {@code flink-rest-two-running-jobs.json}): fixed responses by path, and per
 * vertex its metric ids ({@code /metrics}) or the ids asked for with their values ({@code
 * /metrics?get=a,b}). Anything else is a 404, as Flink answers an unknown job. Records every
 * request's path and query.
 */
final class FakeFlinkRestEndpoint implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpServer server;
    private final JsonNode fixture;
    private final List<String> requests = new CopyOnWriteArrayList<>();
    private volatile int overviewStatus = 200;

    FakeFlinkRestEndpoint(String fixtureResource) throws IOException {
        try (InputStream in = FakeFlinkRestEndpoint.class.getResourceAsStream(fixtureResource)) {
            fixture = JSON.readTree(in);
        }
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", this::answer);
        server.start();
    }

    URI address() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    /** Every request so far, path and decoded query. */
    List<String> requests() {
        return requests;
    }

    /** Makes {@code /jobs/overview} answer with this status and an error body from now on. */
    void failOverviewWith(int status) {
        overviewStatus = status;
    }

    private void answer(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getPath();
            String rawQuery = exchange.getRequestURI().getRawQuery();
            String query =
                    rawQuery == null ? null : URLDecoder.decode(rawQuery, StandardCharsets.UTF_8);
            requests.add(query == null ? path : path + "?" + query);
            if (path.equals("/jobs/overview") && overviewStatus != 200) {
                send(exchange, overviewStatus, "{\"errors\":[\"Internal server error.\"]}");
                return;
            }
            JsonNode fixed = fixture.path("responses").get(path);
            if (fixed != null) {
                send(exchange, 200, JSON.writeValueAsString(fixed));
                return;
            }
            JsonNode metrics = fixture.path("metrics").get(path);
            if (metrics == null) {
                send(exchange, 404, "{\"errors\":[\"Not found: " + path + "\"]}");
                return;
            }
            ArrayNode out = JSON.createArrayNode();
            if (query == null) {
                metrics.fieldNames().forEachRemaining(id -> out.addObject().put("id", id));
            } else if (query.startsWith("get=")) {
                for (String id : query.substring("get=".length()).split(",")) {
                    if (metrics.has(id)) {
                        out.addObject().put("id", id).put("value", metrics.get(id).asText());
                    }
                }
            }
            send(exchange, 200, JSON.writeValueAsString(out));
        }
    }

    private static void send(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json; charset=UTF-8");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
