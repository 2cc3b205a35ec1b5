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
 * The real workload of the two release checks: a fixed, seeded amount of work in three tasks that
 * call Jackson (from Maven Central) and the JDK — parse JSON documents, write them back, sort the
 * names. Release "v2" parses every document three times instead of once (the deliberately costlier
 * task); everything else is the same. {@link JfrReleaseDiffTest} records {@link #main} in a child
 * JVM; {@link EstimatesReleaseDiffTest} analyzes and instruments this class with fieldprof and runs
 * its {@link #main} on simulated devices, where each task's per-document method ({@link
 * #parseDocument}, {@link #writeDocument}, {@link #addNames}) is what the method-entry counts see
 * of it.
 */
public final class ReleaseWorkload {
    static volatile long sink;

    /**
     * {@code RELEASE [ROUNDS [DOCUMENTS ITEMS SEED]]}: release v1 or v2, by default 40 rounds over
     * 400 documents of 60 items made from seed 42.
     */
    public static void main(String[] args) throws Exception {
        boolean v2 = args.length > 0 && args[0].equals("v2");
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 40;
        int documents = args.length > 4 ? Integer.parseInt(args[2]) : 400;
        int items = args.length > 4 ? Integer.parseInt(args[3]) : 60;
        long seed = args.length > 4 ? Long.parseLong(args[4]) : 42;
        sink += run(v2, rounds, documents, items, seed);
    }

    /**
     * One run of the program: {@code documentCount} documents of {@code itemCount} items made from
     * {@code seed}, then {@code rounds} rounds of the three tasks. Per round it enters {@link
     * #parse}, {@link #write} and {@link #sortNames} once each and their per-document methods once
     * per document, {@link #parseDocument} three times per document in v2.
     */
    static long run(boolean v2, int rounds, int documentCount, int itemCount, long seed)
            throws Exception {
        ObjectMapper mapper = new ObjectMapper();
        List<String> documents = documents(mapper, new Random(seed), documentCount, itemCount);
        long result = 0;
        for (int round = 0; round < rounds; round++) {
            List<JsonNode> parsed = parse(mapper, documents, v2 ? 3 : 1);
            result += write(mapper, parsed);
            result += sortNames(parsed);
        }
        return result;
    }

    static List<JsonNode> parse(ObjectMapper mapper, List<String> documents, int times)
            throws Exception {
        List<JsonNode> out = new ArrayList<>();
        for (String document : documents) {
            JsonNode node = null;
            for (int i = 0; i < times; i++) {
                node = parseDocument(mapper, document);
            }
            out.add(node);
        }
        return out;
    }

    static JsonNode parseDocument(ObjectMapper mapper, String document) throws Exception {
        return mapper.readTree(document);
    }

    static long write(ObjectMapper mapper, List<JsonNode> nodes) throws Exception {
        long length = 0;
        for (JsonNode node : nodes) {
            length += writeDocument(mapper, node);
        }
        return length;
    }

    static int writeDocument(ObjectMapper mapper, JsonNode node) throws Exception {
        return mapper.writeValueAsString(node).length();
    }

    static long sortNames(List<JsonNode> nodes) {
        List<String> names = new ArrayList<>();
        for (JsonNode node : nodes) {
            addNames(node, names);
        }
        Collections.sort(names);
        return names.size();
    }

    static void addNames(JsonNode node, List<String> names) {
        for (JsonNode item : node.get("items")) {
            names.add(item.get("name").asText());
        }
    }

    static List<String> documents(ObjectMapper mapper, Random random, int count, int itemCount)
            throws Exception {
        List<String> out = new ArrayList<>();
        for (int d = 0; d < count; d++) {
            ObjectNode doc = mapper.createObjectNode();
            doc.put("id", d);
            ArrayNode items = doc.putArray("items");
            for (int i = 0; i < itemCount; i++) {
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
