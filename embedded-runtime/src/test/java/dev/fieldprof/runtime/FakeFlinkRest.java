package dev.fieldprof.runtime;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * An HTTP server on a free loopback port that answers like Flink's REST API with canned responses
 * and records every request, so the client's wire format can be checked exactly.
 */
public final class FakeFlinkRest implements AutoCloseable {

    /** One request as the server saw it. */
    public record Request(String method, String pathAndQuery, String contentType, byte[] body) {
        public String bodyText() {
            return new String(body, StandardCharsets.ISO_8859_1);
        }
    }

    private record Response(int status, String body) {}

    private final HttpServer server;
    private final Map<String, List<Response>> responses = new ConcurrentHashMap<>();
    private final List<Request> requests = new CopyOnWriteArrayList<>();

    public FakeFlinkRest() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", this::handle);
        server.start();
    }

    /**
     * Answers {@code METHOD PATH} (path with query) with this status and JSON body. Several answers
     * to one request are given in turn, the last one from then on.
     */
    public FakeFlinkRest answer(String method, String pathAndQuery, int status, String json) {
        responses
                .computeIfAbsent(method + " " + pathAndQuery, key -> new CopyOnWriteArrayList<>())
                .add(new Response(status, json));
        return this;
    }

    public String address() {
        return "127.0.0.1:" + server.getAddress().getPort();
    }

    public List<Request> requests() {
        return requests;
    }

    private void handle(HttpExchange exchange) throws IOException {
        String pathAndQuery = exchange.getRequestURI().getRawPath();
        if (exchange.getRequestURI().getRawQuery() != null) {
            pathAndQuery += "?" + exchange.getRequestURI().getRawQuery();
        }
        byte[] body = exchange.getRequestBody().readAllBytes();
        requests.add(
                new Request(
                        exchange.getRequestMethod(),
                        pathAndQuery,
                        exchange.getRequestHeaders().getFirst("Content-Type"),
                        body));
        List<Response> queued = responses.get(exchange.getRequestMethod() + " " + pathAndQuery);
        Response response;
        if (queued == null) {
            response = new Response(404, "{\"errors\":[\"Not found: " + pathAndQuery + "\"]}");
        } else {
            synchronized (queued) {
                response = queued.size() > 1 ? queued.remove(0) : queued.get(0);
            }
        }
        byte[] bytes = response.body().getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(response.status(), bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
