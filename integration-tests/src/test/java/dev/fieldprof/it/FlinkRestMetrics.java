package dev.fieldprof.it;

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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.JobID;

/**
 * Reads a running job's metrics through Flink's REST API, as an operator would: every subtask
 * metric of every vertex whose name ends with a given metric name.
 */
final class FlinkRestMetrics {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final URI rest;

    FlinkRestMetrics(URI rest) {
        this.rest = rest;
    }

    /**
     * The value of every metric of the job named {@code ...<metric>}, by its REST id (subtask
     * index, operator name, metric), e.g. {@code 1.frequency-window-merge.numLateRecordsDropped}.
     */
    Map<String, Long> values(JobID job, String metric) throws IOException, InterruptedException {
        Map<String, Long> values = new LinkedHashMap<>();
        for (JsonNode vertex : get("/jobs/" + job).path("vertices")) {
            String base = "/jobs/" + job + "/vertices/" + vertex.path("id").asText() + "/metrics";
            List<String> ids = new ArrayList<>();
            for (JsonNode available : get(base)) {
                String id = available.path("id").asText();
                if (id.endsWith("." + metric)) {
                    ids.add(id);
                }
            }
            if (ids.isEmpty()) {
                continue;
            }
            String query =
                    base
                            + "?get="
                            + URLEncoder.encode(String.join(",", ids), StandardCharsets.UTF_8);
            for (JsonNode value : get(query)) {
                values.put(value.path("id").asText(), value.path("value").asLong());
            }
        }
        return values;
    }

    private JsonNode get(String path) throws IOException, InterruptedException {
        HttpResponse<String> response =
                http.send(
                        HttpRequest.newBuilder(rest.resolve(path)).GET().build(),
                        HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IOException("GET " + path + ": HTTP " + response.statusCode());
        }
        return JSON.readTree(response.body());
    }
}
