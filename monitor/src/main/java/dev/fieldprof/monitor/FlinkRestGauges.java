package dev.fieldprof.monitor;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads operator gauges of a Flink cluster's running jobs through its REST API, the way the Flink
 * web UI does: {@code /jobs/overview} for the jobs in state RUNNING, {@code /jobs/ID} for their
 * vertices, {@code /jobs/ID/vertices/V/metrics} for the metric ids there and {@code ?get=} for
 * their values. Only the JDK's HTTP client and Jackson: the monitor runs beside a cluster, never
 * inside one. Thread-safe.
 */
final class FlinkRestGauges {
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * One reading.
     *
     * @param runningJobs jobs in state RUNNING
     * @param values per gauge name asked for, the value of every subtask of every running job that
     *     has it (empty when none has it)
     */
    record Reading(int runningJobs, Map<String, List<Long>> values) {}

    private final URI rest;
    private final Duration requestTimeout;
    private final HttpClient http;

    /**
     * @param rest the JobManager's REST address, e.g. {@code http://127.0.0.1:8081}
     * @param requestTimeout how long one request may take
     */
    FlinkRestGauges(URI rest, Duration requestTimeout) {
        String text = rest.toString();
        // resolve("/jobs") keeps a path prefix (a proxy's /flink/) only with a trailing slash.
        this.rest = URI.create(text.endsWith("/") ? text : text + "/");
        this.requestTimeout = requestTimeout;
        this.http = HttpClient.newBuilder().connectTimeout(requestTimeout).build();
    }

    /**
     * Reads every subtask's value of the operator gauges named {@code names} (a metric id ends with
     * {@code .NAME}) in every running job.
     *
     * @throws IOException when the endpoint does not answer or answers other than 200 with JSON
     */
    Reading read(Collection<String> names) throws IOException, InterruptedException {
        Map<String, List<Long>> values = new LinkedHashMap<>();
        names.forEach(name -> values.put(name, new ArrayList<>()));
        int running = 0;
        for (JsonNode job : get("jobs/overview").path("jobs")) {
            if (!"RUNNING".equals(job.path("state").asText())) {
                continue; // a finished or cancelled job's gauges are gone or stale
            }
            running++;
            String jobPath = "jobs/" + job.path("jid").asText();
            for (JsonNode vertex : get(jobPath).path("vertices")) {
                readVertex(jobPath + "/vertices/" + vertex.path("id").asText(), values);
            }
        }
        return new Reading(running, values);
    }

    private void readVertex(String vertexPath, Map<String, List<Long>> values)
            throws IOException, InterruptedException {
        String metrics = vertexPath + "/metrics";
        Map<String, String> nameOfId = new LinkedHashMap<>();
        for (JsonNode available : get(metrics)) {
            String id = available.path("id").asText();
            for (String name : values.keySet()) {
                if (id.endsWith("." + name)) {
                    nameOfId.put(id, name);
                }
            }
        }
        if (nameOfId.isEmpty()) {
            return;
        }
        String query =
                metrics
                        + "?get="
                        + URLEncoder.encode(
                                String.join(",", nameOfId.keySet()), StandardCharsets.UTF_8);
        for (JsonNode value : get(query)) {
            String name = nameOfId.get(value.path("id").asText());
            Long number = number(value.path("value").asText());
            if (name != null && number != null) {
                values.get(name).add(number);
            }
        }
    }

    /** Flink sends every metric value as a string. */
    private static Long number(String text) {
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException notAnInteger) {
            try {
                return Math.round(Double.parseDouble(text));
            } catch (NumberFormatException notANumber) {
                return null;
            }
        }
    }

    private JsonNode get(String path) throws IOException, InterruptedException {
        URI uri = rest.resolve(path);
        HttpResponse<String> response =
                http.send(
                        HttpRequest.newBuilder(uri).timeout(requestTimeout).GET().build(),
                        HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IOException("GET " + uri + ": HTTP " + response.statusCode());
        }
        return JSON.readTree(response.body());
    }
}
