package dev.fieldprof.jobs.paths;

import dev.fieldprof.paths.ArrayBranchTable;
import dev.fieldprof.paths.BranchTableText;
import dev.fieldprof.paths.EdgeModel;
import dev.fieldprof.paths.EdgeModelRecords;
import dev.fieldprof.paths.PathDecoder;
import dev.fieldprof.schemas.RecordCodec;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.api.common.state.BroadcastState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.ReadOnlyBroadcastState;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.api.common.typeinfo.Types;

/**
 * The broadcast state both keyed stages of the path job share: each app version's branch table (its
 * program model's CFGs, or a {@code --branches} override) and the edge models published on the
 * model topic, the newest {@code keepVersions} per app version for the current table. A model is
 * identified by (version, writer): should two jobs publish one version, both stay decodable, and a
 * report names the one it was coded with. Decoded tables and decoders are cached per instance.
 */
final class PathReferenceData {
    private static final RecordCodec<dev.fieldprof.schemas.EdgeModel> CODEC =
            RecordCodec.of(dev.fieldprof.schemas.EdgeModel.class);

    /** App version → branch description text of its newest program model. */
    static final MapStateDescriptor<String, String> BRANCHES =
            new MapStateDescriptor<>("program-branches", Types.STRING, Types.STRING);

    /** {@link #modelKey} → EdgeModel record bytes. */
    static final MapStateDescriptor<String, byte[]> MODELS =
            new MapStateDescriptor<>(
                    "published-edge-models",
                    Types.STRING,
                    PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO);

    /** App version → its program model's probe plan text; absent without a plan. */
    static final MapStateDescriptor<String, String> PLANS =
            new MapStateDescriptor<>("probe-plans", Types.STRING, Types.STRING);

    private final Map<String, String> overrides;
    private final int keepVersions;
    private final Map<String, String> tableTexts = new HashMap<>();
    private final Map<String, ArrayBranchTable> tables = new HashMap<>();
    private final Map<String, PathDecoder> decoders = new HashMap<>();
    private final Map<String, String> planTexts = new HashMap<>();
    private final Map<String, boolean[][]> variantMethods = new HashMap<>();

    PathReferenceData(Map<String, String> overrides, int keepVersions) {
        this.overrides = overrides;
        this.keepVersions = keepVersions;
    }

    static String modelKey(String app, long version, String writer) {
        return app + "\n" + version + "\n" + writer;
    }

    /**
     * Applies one side input to the broadcast state (the same on every subtask, so the state stays
     * equal everywhere): a table replaces the app version's table; a model is kept beside the
     * others of its app version, evicting the oldest versions beyond {@code keepVersions}.
     */
    void apply(
            PathSideInput input,
            BroadcastState<String, String> branches,
            BroadcastState<String, String> plans,
            BroadcastState<String, byte[]> models)
            throws Exception {
        if (input.branches != null) {
            branches.put(input.appVersion, input.branches);
            if (input.plan == null) {
                plans.remove(input.appVersion);
            } else {
                plans.put(input.appVersion, input.plan);
            }
            return;
        }
        dev.fieldprof.schemas.EdgeModel record = CODEC.decode(input.model);
        models.put(
                modelKey(input.appVersion, record.getVersion(), record.getWriter().toString()),
                input.model);
        TreeMap<Long, List<String>> versions = new TreeMap<>();
        String prefix = input.appVersion + "\n";
        for (Map.Entry<String, byte[]> e : models.entries()) {
            if (e.getKey().startsWith(prefix)) {
                long v = Long.parseLong(e.getKey().split("\n", -1)[1]);
                versions.computeIfAbsent(v, x -> new ArrayList<>()).add(e.getKey());
            }
        }
        while (versions.size() > keepVersions) {
            for (String key : versions.pollFirstEntry().getValue()) {
                models.remove(key);
                decoders.remove(key);
            }
        }
    }

    /**
     * Why a decoded report of {@code variant} holds events of a method its variant does not trace
     * (a device may only report the methods of its variant: the job learns each method only from
     * the devices that trace it), or null if it does not, or the app version has no plan.
     */
    String outsideVariant(
            String app,
            int variant,
            dev.fieldprof.paths.PathRecording events,
            ReadOnlyBroadcastState<String, String> plans)
            throws Exception {
        String text = plans.get(app);
        if (text == null) {
            return null;
        }
        if (!text.equals(planTexts.get(app))) {
            dev.fieldprof.paths.ProbePlanText plan = dev.fieldprof.paths.ProbePlanText.parse(text);
            boolean[][] masks = new boolean[plan.variantCount()][];
            for (int v = 0; v < masks.length; v++) {
                masks[v] = plan.traced(v);
            }
            variantMethods.put(app, masks);
            planTexts.put(app, text);
        }
        boolean[][] masks = variantMethods.get(app);
        if (variant < 0 || variant >= masks.length) {
            return "variant " + variant + " is not one of the probe plan's " + masks.length;
        }
        boolean[] traced = masks[variant];
        for (int i = 0; i < events.size(); i++) {
            int m = events.methodId(i);
            if (m < 0 || m >= traced.length || !traced[m]) {
                return "variant " + variant + " does not trace method " + m;
            }
        }
        return null;
    }

    /** The override, else the broadcast program model's table; null if neither is known. */
    ArrayBranchTable table(String app, ReadOnlyBroadcastState<String, String> branches)
            throws Exception {
        String text = overrides.containsKey(app) ? overrides.get(app) : branches.get(app);
        if (text == null) {
            return null;
        }
        if (!text.equals(tableTexts.get(app))) {
            tables.put(app, BranchTableText.parse(text));
            tableTexts.put(app, text);
        }
        return tables.get(app);
    }

    /**
     * The highest model version on the model topic for {@code app}, whatever its table; 0 if none.
     */
    static long newestVersion(String app, ReadOnlyBroadcastState<String, byte[]> models)
            throws Exception {
        long newest = 0;
        String prefix = app + "\n";
        for (Map.Entry<String, byte[]> e : models.immutableEntries()) {
            if (e.getKey().startsWith(prefix)) {
                newest = Math.max(newest, Long.parseLong(e.getKey().split("\n", -1)[1]));
            }
        }
        return newest;
    }

    /** The published models of {@code app} for {@code table}, ascending by version then writer. */
    List<EdgeModel> models(
            String app, ArrayBranchTable table, ReadOnlyBroadcastState<String, byte[]> models)
            throws Exception {
        List<EdgeModel> out = new ArrayList<>();
        String prefix = app + "\n";
        for (Map.Entry<String, byte[]> e : models.immutableEntries()) {
            if (e.getKey().startsWith(prefix)) {
                PathDecoder decoder = decoder(e.getKey(), e.getValue(), table);
                if (decoder != null) {
                    out.add(decoder.model());
                }
            }
        }
        out.sort(Comparator.comparingLong(EdgeModel::version).thenComparing(EdgeModel::writer));
        return out;
    }

    /**
     * The decoder of the model a report names, or null if none is held: version 0 is the uniform
     * model; a writer of "" (a v1 report) matches the version if exactly one writer published it.
     *
     * @throws ModelConflict if the report names no writer and two published its version
     */
    PathDecoder decoder(
            String app,
            long version,
            String writer,
            ArrayBranchTable table,
            ReadOnlyBroadcastState<String, byte[]> models)
            throws Exception {
        if (version == 0) {
            String key = modelKey(app, 0, "") + "\n" + EdgeModel.branchFingerprint(table);
            PathDecoder uniform = decoders.get(key);
            if (uniform == null || !uniform.model().matches(table)) {
                uniform = new PathDecoder(EdgeModel.uniform(table));
                decoders.put(key, uniform);
            }
            return uniform;
        }
        if (!writer.isEmpty()) {
            String key = modelKey(app, version, writer);
            byte[] bytes = models.get(key);
            return bytes == null ? null : decoder(key, bytes, table);
        }
        PathDecoder found = null;
        for (EdgeModel m : models(app, table, models)) {
            if (m.version() == version) {
                if (found != null) {
                    throw new ModelConflict(
                            "edge model version "
                                    + version
                                    + " of "
                                    + app
                                    + " was published by '"
                                    + found.model().writer()
                                    + "' and '"
                                    + m.writer()
                                    + "', and the report does not name its writer");
                }
                found = decoders.get(modelKey(app, version, m.writer()));
            }
        }
        return found;
    }

    private PathDecoder decoder(String key, byte[] bytes, ArrayBranchTable table) {
        PathDecoder d = decoders.get(key);
        if (d != null && d.model().matches(table)) {
            return d;
        }
        dev.fieldprof.schemas.EdgeModel record = CODEC.decode(bytes);
        if (record.getBranchFingerprint() != EdgeModel.branchFingerprint(table)) {
            return null; // for other code: a program model republished with other CFGs
        }
        try {
            d = new PathDecoder(EdgeModelRecords.fromRecord(record, table));
        } catch (IllegalArgumentException e) {
            // A record that decodes but does not fit its own table (frequencies of the wrong
            // degree, a node that is no branch node): held by no one, so the reports naming it
            // wait and end as UNKNOWN_MODEL_VERSION, instead of failing the job on every replay
            // of a record that stays on the compacted topic.
            return null;
        }
        decoders.put(key, d);
        return d;
    }

    /** A report names a model version that two writers published, without naming the writer. */
    static final class ModelConflict extends Exception {
        private static final long serialVersionUID = 1L;

        ModelConflict(String message) {
            super(message);
        }
    }
}
