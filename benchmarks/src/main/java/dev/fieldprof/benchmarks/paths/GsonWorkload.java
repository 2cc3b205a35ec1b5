package dev.fieldprof.benchmarks.paths;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonElement;
import com.google.gson.JsonParser;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/** A seeded gson workload: random nested documents serialized, parsed and bound back. */
public final class GsonWorkload {
    private GsonWorkload() {}

    /** Runs {@code n} rounds; returns a checksum so the work is not optimized away. */
    public static long run(long seed, int n) {
        SplittableRandom random = new SplittableRandom(seed);
        Gson gson = new Gson();
        Gson pretty = new GsonBuilder().setPrettyPrinting().serializeNulls().create();
        long sum = 0;
        for (int i = 0; i < n; i++) {
            Object doc = value(random, 3);
            String json = (random.nextBoolean() ? gson : pretty).toJson(doc);
            JsonElement tree = JsonParser.parseString(json);
            sum += tree.isJsonObject() ? tree.getAsJsonObject().size() : 1;
            Object back = gson.fromJson(json, Object.class);
            sum += json.length() + (back == null ? 0 : back.toString().length());
        }
        return sum;
    }

    private static Object value(SplittableRandom random, int depth) {
        int kind = depth == 0 ? random.nextInt(4) : random.nextInt(6);
        switch (kind) {
            case 0:
                return Texts.text(random, 8);
            case 1:
                return random.nextInt(1000) / 10.0;
            case 2:
                return random.nextBoolean();
            case 3:
                return null;
            case 4:
                List<Object> list = new ArrayList<>();
                for (int i = random.nextInt(5); i > 0; i--) {
                    list.add(value(random, depth - 1));
                }
                return list;
            default:
                Map<String, Object> map = new LinkedHashMap<>();
                for (int i = random.nextInt(5); i > 0; i--) {
                    map.put("k" + random.nextInt(20), value(random, depth - 1));
                }
                return map;
        }
    }
}
