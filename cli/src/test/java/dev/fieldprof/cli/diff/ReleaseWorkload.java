package dev.fieldprof.cli.diff;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * The child JVM's workload for {@link JfrReleaseDiffTest}: a fixed, seeded amount of work in three
 * tasks that call Jackson (from Maven Central) and the JDK — parse JSON documents, write them back,
 * sort the names. Release "v2" parses every document three times instead of once (the deliberately
 * costlier task); everything else is the same.
 */
public final class ReleaseWorkload {
    static volatile long sink;

    public static void main(String[] args) throws Exception {
        boolean v2 = args.length > 0 && args[0].equals("v2");
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 40;
        ObjectMapper mapper = new ObjectMapper();
        List<String> documents = documents(mapper, new Random(42));
        for (int round = 0; round < rounds; round++) {
            List<JsonNode> parsed = parse(mapper, documents, v2 ? 3 : 1);
            sink += write(mapper, parsed);
            sink += sortNames(parsed);
        }
    }

    static List<JsonNode> parse(ObjectMapper mapper, List<String> documents, int times)
            throws Exception {
        List<JsonNode> out = new ArrayList<>();
        for (String document : documents) {
            JsonNode node = null;
            for (int i = 0; i < times; i++) {
                node = mapper.readTree(document);
            }
            out.add(node);
        }
        return out;
    }

    static long write(ObjectMapper mapper, List<JsonNode> nodes) throws Exception {
        long length = 0;
        for (JsonNode node : nodes) {
            length += mapper.writeValueAsString(node).length();
        }
        return length;
    }

    static long sortNames(List<JsonNode> nodes) {
        List<String> names = new ArrayList<>();
        for (JsonNode node : nodes) {
            for (JsonNode item : node.get("items")) {
                names.add(item.get("name").asText());
            }
        }
        Collections.sort(names);
        return names.size();
    }

    static List<String> documents(ObjectMapper mapper, Random random) throws Exception {
        List<String> out = new ArrayList<>();
        for (int d = 0; d < 400; d++) {
            ObjectNode doc = mapper.createObjectNode();
            doc.put("id", d);
            ArrayNode items = doc.putArray("items");
            for (int i = 0; i < 60; i++) {
                ObjectNode item = items.addObject();
                item.put("name", Long.toString(random.nextLong(), 36));
                item.put("price", random.nextDouble() * 100);
                item.put("count", random.nextInt(1000));
            }
            out.add(mapper.writeValueAsString(doc));
        }
        return out;
    }
}
