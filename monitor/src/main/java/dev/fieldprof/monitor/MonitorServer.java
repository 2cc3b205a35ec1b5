package dev.fieldprof.monitor;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.function.Function;

/**
 * The monitor web page: serves one HTML page, its chart library from the jar ({@code /webjars/}),
 * JSON endpoints ({@code /api/...}, see {@link #route}) and a Server-Sent Events stream ({@code
 * /events}) that pushes the state as JSON whenever it changes. Listens on loopback only by default;
 * feed it with {@link #publish(String)} from the thread that follows the topics.
 *
 * <p>Every request must name this server in its {@code Host} header and, for the JSON and the event
 * stream, come from no other origin (see {@link RequestGuard}); others get a 403 with a one-line
 * reason. At most {@link #MAX_STREAMS} event streams are open at once: a further one gets a 503 and
 * the browser retries by itself. New streams are refused rather than old ones closed, so that a
 * client opening streams in a loop cannot cut off the viewers already watching; a stream whose
 * browser went away frees its place at the next write (at the latest the 15 s keep-alive).
 */
public final class MonitorServer implements AutoCloseable {
    /** Event streams served at once by default. */
    public static final int MAX_STREAMS = 32;

    private final HttpServer server;
    private final ExecutorService streams = Executors.newCachedThreadPool(daemonThreads());
    private final Object changed = new Object();
    private volatile String latest = "{}";
    private volatile long version;
    private final Map<String, Function<Map<String, String>, String>> routes =
            new java.util.concurrent.ConcurrentHashMap<>();
    private volatile boolean closed;
    private final RequestGuard guard;
    private final Semaphore streamPlaces;
    private final int maxStreams;

    /**
     * @param host address to bind, e.g. {@code 127.0.0.1}
     * @param port port to bind, 0 for any free port
     */
    public MonitorServer(String host, int port) {
        this(host, port, Set.of(), MAX_STREAMS);
    }

    /**
     * @param host address to bind, e.g. {@code 127.0.0.1}
     * @param port port to bind, 0 for any free port
     * @param allowedHosts further names clients may send as {@code Host}, e.g. behind a proxy
     * @param maxStreams event streams served at once
     */
    public MonitorServer(String host, int port, Set<String> allowedHosts, int maxStreams) {
        if (maxStreams < 1) {
            throw new IllegalArgumentException("maxStreams must be >= 1, got " + maxStreams);
        }
        this.guard = new RequestGuard(host, allowedHosts);
        this.maxStreams = maxStreams;
        this.streamPlaces = new Semaphore(maxStreams);
        try {
            server = HttpServer.create(new InetSocketAddress(host, port), 0);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot listen on " + host + ":" + port, e);
        }
        server.createContext("/", guarded(false, this::page));
        server.createContext("/events", guarded(true, this::openStream));
        server.createContext("/api/", guarded(true, this::api));
        server.createContext("/webjars/", guarded(false, this::webjar));
        server.setExecutor(Executors.newFixedThreadPool(2, daemonThreads()));
        server.start();
    }

    public URI address() {
        InetSocketAddress bound = server.getAddress();
        return URI.create("http://" + bound.getHostString() + ":" + bound.getPort() + "/");
    }

    /** Answers 403 with the guard's reason, or passes the request on. */
    private HttpHandler guarded(boolean sameOriginOnly, HttpHandler handler) {
        return exchange -> {
            String refusal =
                    guard.refusal(
                            exchange.getRequestHeaders().getFirst("Host"),
                            exchange.getRequestHeaders().getFirst("Origin"),
                            sameOriginOnly);
            if (refusal != null) {
                send(exchange, 403, "text/plain; charset=utf-8", refusal + "\n");
                return;
            }
            handler.handle(exchange);
        };
    }

    /** Hands the stream to its own thread when a place is free, else answers 503. */
    private void openStream(HttpExchange exchange) throws IOException {
        if (!streamPlaces.tryAcquire()) {
            exchange.getResponseHeaders().set("Retry-After", "15");
            send(
                    exchange,
                    503,
                    "text/plain; charset=utf-8",
                    "already " + maxStreams + " event streams open; retry later\n");
            return;
        }
        try {
            streams.execute(
                    () -> {
                        try {
                            stream(exchange);
                        } finally {
                            streamPlaces.release();
                        }
                    });
        } catch (RuntimeException e) {
            streamPlaces.release();
            exchange.close();
        }
    }

    /** Replaces the JSON every client sees and wakes their streams. */
    public void publish(String json) {
        synchronized (changed) {
            latest = json;
            version++;
            changed.notifyAll();
        }
    }

    /**
     * Serves {@code /api/NAME} with the JSON {@code handler} returns for the request's query
     * parameters; a handler's {@link IllegalArgumentException} is a 400 with its message.
     */
    public void route(String name, Function<Map<String, String>, String> handler) {
        routes.put(name, handler);
    }

    /** {@code /api/NAME}: a routed handler, or the published state for {@code state.json}. */
    private void api(HttpExchange exchange) throws IOException {
        String name = exchange.getRequestURI().getPath().substring("/api/".length());
        Function<Map<String, String>, String> handler = routes.get(name);
        if (handler == null) {
            if (name.equals("state.json")) {
                snapshot(exchange);
            } else {
                exchange.sendResponseHeaders(404, -1);
                exchange.close();
            }
            return;
        }
        try {
            send(exchange, 200, "application/json", handler.apply(query(exchange.getRequestURI())));
        } catch (IllegalArgumentException e) {
            send(exchange, 400, "text/plain; charset=utf-8", e.getMessage());
        }
    }

    private static Map<String, String> query(URI uri) {
        Map<String, String> out = new HashMap<>();
        String raw = uri.getRawQuery();
        if (raw == null) {
            return out;
        }
        for (String pair : raw.split("&")) {
            int eq = pair.indexOf('=');
            String key = eq < 0 ? pair : pair.substring(0, eq);
            String value = eq < 0 ? "" : pair.substring(eq + 1);
            out.put(
                    URLDecoder.decode(key, StandardCharsets.UTF_8),
                    URLDecoder.decode(value, StandardCharsets.UTF_8));
        }
        return out;
    }

    private static void send(HttpExchange exchange, int status, String type, String body)
            throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", type);
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    /** The files of the WebJars on the classpath (uPlot), never anything else. */
    private void webjar(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getPath();
        if (path.contains("..") || !path.matches("/webjars/[A-Za-z0-9._/-]+\\.(js|css)")) {
            exchange.sendResponseHeaders(404, -1);
            exchange.close();
            return;
        }
        try (InputStream in =
                MonitorServer.class.getResourceAsStream("/META-INF/resources" + path)) {
            if (in == null) {
                exchange.sendResponseHeaders(404, -1);
                exchange.close();
                return;
            }
            byte[] bytes = in.readAllBytes();
            exchange.getResponseHeaders()
                    .set(
                            "Content-Type",
                            path.endsWith(".css")
                                    ? "text/css; charset=utf-8"
                                    : "text/javascript; charset=utf-8");
            exchange.getResponseHeaders().set("Cache-Control", "max-age=86400");
            exchange.sendResponseHeaders(200, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }

    private void page(HttpExchange exchange) throws IOException {
        if (!exchange.getRequestURI().getPath().equals("/")) {
            exchange.sendResponseHeaders(404, -1);
            exchange.close();
            return;
        }
        byte[] html;
        try (InputStream in = MonitorServer.class.getResourceAsStream("monitor.html")) {
            html = in.readAllBytes();
        }
        exchange.getResponseHeaders().set("Content-Type", "text/html; charset=utf-8");
        exchange.sendResponseHeaders(200, html.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(html);
        }
    }

    private void snapshot(HttpExchange exchange) throws IOException {
        byte[] json = latest.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, json.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(json);
        }
    }

    private void stream(HttpExchange exchange) {
        try (exchange) {
            exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
            exchange.getResponseHeaders().set("Cache-Control", "no-cache");
            exchange.sendResponseHeaders(200, 0);
            OutputStream out = exchange.getResponseBody();
            long sent = -1;
            while (!closed) {
                String json;
                synchronized (changed) {
                    while (version == sent && !closed) {
                        // Wake up now and then to notice clients that went away.
                        changed.wait(15_000);
                        if (version == sent) {
                            out.write(": keep-alive\n\n".getBytes(StandardCharsets.UTF_8));
                            out.flush();
                        }
                    }
                    json = latest;
                    sent = version;
                }
                out.write(("data: " + json + "\n\n").getBytes(StandardCharsets.UTF_8));
                out.flush();
            }
        } catch (IOException e) {
            // The browser went away: nothing to clean up beyond closing the exchange.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static java.util.concurrent.ThreadFactory daemonThreads() {
        return runnable -> {
            Thread thread = new Thread(runnable, "fieldprof-monitor-http");
            thread.setDaemon(true);
            return thread;
        };
    }

    @Override
    public void close() {
        closed = true;
        synchronized (changed) {
            changed.notifyAll();
        }
        server.stop(0);
        streams.shutdownNow();
    }
}
