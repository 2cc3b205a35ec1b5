package dev.fieldprof.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublisher;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A client of a Flink cluster's REST API for what fieldprof needs: upload a job jar, run it, read a
 * job's state and cancel it. Failures are {@link FlinkRestException}s whose message is one line
 * (Flink's own first error message where it sent one). Thread-safe.
 *
 * <pre>{@code
 * FlinkRestClient flink = FlinkRestClient.forAddress("127.0.0.1:8081");
 * String jar = flink.uploadJar(Path.of("jobs/target/fieldprof-jobs-0.1.0-SNAPSHOT-job.jar"));
 * String job = flink.runJar(jar, "dev.fieldprof.jobs.frequency.FrequencyEstimationJob",
 *         List.of("--bootstrap", "127.0.0.1:9092"), 2);
 * flink.awaitState(job, Set.of("RUNNING"), Duration.ofSeconds(60));
 * }</pre>
 */
public final class FlinkRestClient {

    /** Job states after which a job never runs again. */
    public static final Set<String> TERMINAL_STATES =
            Set.of("FINISHED", "FAILED", "CANCELED", "SUSPENDED");

    private static final ObjectMapper JSON = new ObjectMapper();

    private final URI base;
    private final Duration requestTimeout;
    private final HttpClient http;

    /**
     * @param base the REST endpoint, e.g. {@code http://127.0.0.1:8081}
     * @param requestTimeout how long one request may take (uploads of a 30 MB jar included)
     */
    public FlinkRestClient(URI base, Duration requestTimeout) {
        String text = base.toString();
        this.base = URI.create(text.endsWith("/") ? text.substring(0, text.length() - 1) : text);
        this.requestTimeout = requestTimeout;
        this.http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    }

    /**
     * A client of {@code HOST:PORT} or of a full {@code http(s)://} URL.
     *
     * @throws IllegalArgumentException when the address has no port or is not a URL
     */
    public static FlinkRestClient forAddress(String address) {
        return new FlinkRestClient(parseAddress(address), Duration.ofMinutes(2));
    }

    /** Parses {@code HOST:PORT} or an {@code http(s)://} URL into the REST base URI. */
    public static URI parseAddress(String address) {
        String trimmed = address.trim();
        URI uri;
        try {
            uri =
                    URI.create(
                            trimmed.startsWith("http://") || trimmed.startsWith("https://")
                                    ? trimmed
                                    : "http://" + trimmed);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("not HOST:PORT or a URL: " + address, e);
        }
        if (uri.getHost() == null || uri.getPort() < 1) {
            throw new IllegalArgumentException("not HOST:PORT or a URL with a port: " + address);
        }
        return uri;
    }

    public URI base() {
        return base;
    }

    /**
     * Uploads a jar ({@code POST /jars/upload}, multipart field {@code jarfile}); returns its id.
     */
    public String uploadJar(Path jar) {
        if (!Files.isRegularFile(jar)) {
            throw new FlinkRestException("job jar not found: " + jar);
        }
        String boundary = "fieldprof-" + UUID.randomUUID();
        String head =
                "--"
                        + boundary
                        + "\r\n"
                        + "Content-Disposition: form-data; name=\"jarfile\"; filename=\""
                        + jar.getFileName().toString().replace("\"", "")
                        + "\"\r\n"
                        + "Content-Type: application/x-java-archive\r\n\r\n";
        String tail = "\r\n--" + boundary + "--\r\n";
        BodyPublisher body;
        try {
            body =
                    BodyPublishers.concat(
                            BodyPublishers.ofString(head, StandardCharsets.UTF_8),
                            BodyPublishers.ofFile(jar),
                            BodyPublishers.ofString(tail, StandardCharsets.UTF_8));
        } catch (FileNotFoundException e) {
            throw new FlinkRestException("job jar not found: " + jar);
        }
        JsonNode response =
                send(
                        HttpRequest.newBuilder(resolve("/jars/upload"))
                                .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                                .POST(body));
        String filename = response.path("filename").asText("");
        if (!"success".equals(response.path("status").asText()) || filename.isEmpty()) {
            throw new FlinkRestException("jar upload not accepted: " + response);
        }
        // The id of an uploaded jar is the last segment of the path the cluster stored it under.
        return filename.substring(filename.lastIndexOf('/') + 1);
    }

    /**
     * Runs an uploaded jar ({@code POST /jars/<id>/run}); returns the job id.
     *
     * @param parallelism the job's default parallelism, or {@code null} for the cluster's
     */
    public String runJar(String jarId, String entryClass, List<String> args, Integer parallelism) {
        ObjectNode request = JSON.createObjectNode();
        request.put("entryClass", entryClass);
        ArrayNode list = request.putArray("programArgsList");
        args.forEach(list::add);
        if (parallelism != null) {
            request.put("parallelism", parallelism);
        }
        JsonNode response =
                send(
                        HttpRequest.newBuilder(resolve("/jars/" + jarId + "/run"))
                                .header("Content-Type", "application/json")
                                .POST(BodyPublishers.ofString(request.toString())));
        String jobId = response.path("jobid").asText("");
        if (jobId.isEmpty()) {
            throw new FlinkRestException("the cluster returned no job id: " + response);
        }
        return jobId;
    }

    /** The job's state ({@code GET /jobs/<id>}), e.g. {@code RUNNING} or {@code FAILED}. */
    public String jobState(String jobId) {
        return send(HttpRequest.newBuilder(resolve("/jobs/" + jobId)).GET())
                .path("state")
                .asText("UNKNOWN");
    }

    /** Asks the cluster to cancel the job ({@code PATCH /jobs/<id>?mode=cancel}). */
    public void cancel(String jobId) {
        send(
                HttpRequest.newBuilder(resolve("/jobs/" + jobId + "?mode=cancel"))
                        .method("PATCH", BodyPublishers.noBody()));
    }

    /** Deletes an uploaded jar ({@code DELETE /jars/<id>}). */
    public void deleteJar(String jarId) {
        send(HttpRequest.newBuilder(resolve("/jars/" + jarId)).DELETE());
    }

    /** The cluster overview ({@code GET /overview}): task managers, slots, job counts. */
    public JsonNode overview() {
        return send(HttpRequest.newBuilder(resolve("/overview")).GET());
    }

    /**
     * Polls the job's state until it is one of {@code wanted}; fails as soon as the job reaches
     * another terminal state or when the timeout passes. Returns the state reached.
     */
    public String awaitState(String jobId, Set<String> wanted, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        String state = jobState(jobId);
        while (!wanted.contains(state)) {
            if (TERMINAL_STATES.contains(state)) {
                throw new FlinkRestException("job " + jobId + " is " + state + ", not " + wanted);
            }
            if (System.nanoTime() > deadline) {
                throw new FlinkRestException(
                        "job "
                                + jobId
                                + " still "
                                + state
                                + " after "
                                + timeout.toSeconds()
                                + " s (wanted "
                                + wanted
                                + ")");
            }
            try {
                Thread.sleep(200); // polling interval of a real condition
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new FlinkRestException("interrupted while waiting for job " + jobId);
            }
            state = jobState(jobId);
        }
        return state;
    }

    /**
     * How often the job has restarted ({@code numRestarts} of {@code GET /jobs/<id>/metrics}); 0
     * when the cluster does not report the metric yet.
     */
    public long restarts(String jobId) {
        JsonNode metrics =
                send(
                        HttpRequest.newBuilder(
                                        resolve("/jobs/" + jobId + "/metrics?get=numRestarts"))
                                .GET());
        for (JsonNode metric : metrics) {
            if ("numRestarts".equals(metric.path("id").asText())) {
                try {
                    return Long.parseLong(metric.path("value").asText("0"));
                } catch (NumberFormatException e) {
                    return 0;
                }
            }
        }
        return 0;
    }

    /**
     * The newest failure of the job in one line ({@code GET /jobs/<id>/exceptions}: the newest
     * entry of the exception history, else the root exception), or null when it has none.
     */
    public String newestFailure(String jobId) {
        JsonNode body =
                send(HttpRequest.newBuilder(resolve("/jobs/" + jobId + "/exceptions")).GET());
        JsonNode entries = body.path("exceptionHistory").path("entries");
        String text = null;
        if (entries.isArray() && !entries.isEmpty()) {
            JsonNode newest = entries.get(0);
            text = newest.path("stacktrace").asText(newest.path("exceptionName").asText(null));
        } else if (body.hasNonNull("root-exception")) {
            text = body.path("root-exception").asText();
        }
        if (text == null || text.isBlank()) {
            return null;
        }
        return firstError(JSON.createObjectNode(), text);
    }

    private URI resolve(String path) {
        return URI.create(base + path);
    }

    private JsonNode send(HttpRequest.Builder request) {
        HttpRequest built = request.timeout(requestTimeout).build();
        HttpResponse<String> response;
        try {
            response = http.send(built, HttpResponse.BodyHandlers.ofString());
        } catch (ConnectException e) {
            throw new FlinkRestException("no Flink REST endpoint answers at " + base);
        } catch (IOException e) {
            throw new FlinkRestException(
                    built.method() + " " + built.uri().getPath() + " failed: " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new FlinkRestException("interrupted: " + built.method() + " " + built.uri());
        }
        JsonNode body = parse(response.body());
        if (response.statusCode() / 100 != 2) {
            throw new FlinkRestException(
                    built.method()
                            + " "
                            + built.uri().getPath()
                            + " returned HTTP "
                            + response.statusCode()
                            + ": "
                            + firstError(body, response.body()));
        }
        return body;
    }

    private static JsonNode parse(String body) {
        if (body == null || body.isBlank()) {
            return JSON.createObjectNode();
        }
        try {
            return JSON.readTree(body);
        } catch (IOException e) {
            return JSON.createObjectNode().put("raw", body);
        }
    }

    private static final Pattern QUALIFIED_PREFIX =
            Pattern.compile("^(?:[a-z_$][\\w$]*\\.)+([A-Z][\\w$]*): ");

    /**
     * Flink answers errors as {"errors": ["Internal server error.", "<Exception on server side: ...
     * Caused by: ...>"]}: the root cause is the line a user can act on.
     */
    static String firstError(JsonNode body, String raw) {
        JsonNode errors = body.path("errors");
        List<String> lines = new ArrayList<>();
        if (errors.isArray()) {
            errors.forEach(error -> lines.addAll(List.of(error.asText().split("\\R"))));
        } else if (raw != null) {
            lines.addAll(List.of(raw.split("\\R")));
        }
        String first = null;
        String rootCause = null;
        String serverSide = null;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("at ") || line.startsWith("...")) {
                continue;
            }
            if (first == null) {
                first = line;
            }
            if (line.startsWith("<Exception on server side:")) {
                String rest = line.substring("<Exception on server side:".length()).strip();
                serverSide = !rest.isEmpty() || i + 1 >= lines.size() ? rest : lines.get(i + 1);
            } else if (line.startsWith("Caused by:")) {
                rootCause = line.substring("Caused by:".length()).strip();
            }
        }
        String best = rootCause != null ? rootCause : serverSide != null ? serverSide : first;
        if (best == null || best.isBlank()) {
            return "(no message)";
        }
        best = simplify(best.strip());
        return best.length() > 400 ? best.substring(0, 400) + "..." : best;
    }

    /** "a.B: c.D: message" becomes "D: message": wrappers say nothing a user can act on. */
    private static String simplify(String line) {
        String result = line;
        Matcher matcher = QUALIFIED_PREFIX.matcher(result);
        while (matcher.find()) {
            String rest = result.substring(matcher.end());
            Matcher next = QUALIFIED_PREFIX.matcher(rest);
            if (!next.find()) {
                return matcher.group(1) + ": " + rest;
            }
            result = rest;
            matcher = QUALIFIED_PREFIX.matcher(result);
        }
        return result;
    }

    /** A failed exchange with the cluster; the message is one line. */
    public static final class FlinkRestException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public FlinkRestException(String message) {
            super(message);
        }
    }
}
