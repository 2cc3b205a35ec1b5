package dev.fieldprof.jobs.paths;

import dev.fieldprof.client.paths.ArrayBranchTable;
import dev.fieldprof.client.paths.BranchTableText;
import dev.fieldprof.client.paths.EdgeModel;
import dev.fieldprof.client.paths.EdgeModelRecords;
import dev.fieldprof.client.paths.ModelUpdater;
import dev.fieldprof.jobs.frequency.records.EncodedRecord;
import dev.fieldprof.schemas.DeadLetterReason;
import dev.fieldprof.schemas.RecordCodec;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.streaming.api.functions.windowing.ProcessWindowFunction;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;
import org.apache.flink.util.Collector;

/**
 * Per app version and window: decodes every report with the edge model version it names (the last N
 * published versions are kept in keyed state, as EdgeModel records), counts edges with {@link
 * PathModelAggregator} and emits version M+1 keyed by app version (AdapTracer section 6.3). A
 * report naming a version not kept, or not decodable with it, becomes a dead letter with the
 * reason. The model's createdAt is the window end, so a replay emits the same bytes.
 */
public final class LearnEdgeModels
        extends ProcessWindowFunction<PathReportEnvelope, EncodedRecord, String, TimeWindow> {
    private static final long serialVersionUID = 1L;
    private static final RecordCodec<dev.fieldprof.schemas.EdgeModel> CODEC =
            RecordCodec.of(dev.fieldprof.schemas.EdgeModel.class);

    static final ListStateDescriptor<byte[]> MODELS =
            new ListStateDescriptor<>(
                    "edge-models", PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO);

    private final Map<String, String> branches;
    private final int keepVersions;
    private final int targetTotal;
    private final Map<String, byte[]> published;
    private transient Map<String, ArrayBranchTable> tables;

    /**
     * @param branches app version → branch description text
     * @param keepVersions model versions kept decodable
     * @param targetTotal {@link ModelUpdater}'s target total
     * @param published app version → the newest model already on the model topic (record bytes),
     *     the base of the first window of a job started without state
     */
    public LearnEdgeModels(
            Map<String, String> branches,
            int keepVersions,
            int targetTotal,
            Map<String, byte[]> published) {
        this.branches = new TreeMap<>(branches);
        this.published = new TreeMap<>(published);
        this.keepVersions = keepVersions;
        this.targetTotal = targetTotal;
    }

    private ArrayBranchTable table(String app) {
        if (tables == null) {
            tables = new HashMap<>();
        }
        return tables.computeIfAbsent(app, a -> BranchTableText.parse(branches.get(a)));
    }

    @Override
    public void process(
            String app,
            Context ctx,
            Iterable<PathReportEnvelope> reports,
            Collector<EncodedRecord> out)
            throws Exception {
        ArrayBranchTable table = table(app);
        ListState<byte[]> state = ctx.globalState().getListState(MODELS);
        TreeMap<Long, byte[]> kept = new TreeMap<>();
        for (byte[] bytes : state.get()) {
            kept.put(CODEC.decode(bytes).getVersion(), bytes);
        }
        if (kept.isEmpty() && published.containsKey(app)) {
            byte[] bytes = published.get(app);
            kept.put(CODEC.decode(bytes).getVersion(), bytes);
        }
        if (!kept.containsKey(0L) && kept.size() < keepVersions) {
            // The uniform model is version 0, what every device starts with: decodable too.
            kept.put(
                    0L,
                    CODEC.encode(
                            EdgeModelRecords.toRecord(
                                    EdgeModel.uniform(table), app, Instant.EPOCH, 0)));
        }
        List<EdgeModel> models = new ArrayList<>();
        for (byte[] bytes : kept.values()) {
            models.add(EdgeModelRecords.fromRecord(CODEC.decode(bytes), table));
        }
        PathModelAggregator aggregator =
                new PathModelAggregator(models.get(0), keepVersions, new ModelUpdater(targetTotal));
        for (EdgeModel m : models.subList(1, models.size())) {
            aggregator.adopt(m);
        }
        for (PathReportEnvelope report : reports) {
            if (!aggregator.keptVersions().contains(report.modelVersion)) {
                ctx.output(
                        PathDeadLetters.TAG,
                        PathDeadLetters.of(
                                report.raw,
                                DeadLetterReason.INVALID,
                                "edge model version "
                                        + report.modelVersion
                                        + " of "
                                        + app
                                        + " is not kept (kept: "
                                        + aggregator.keptVersions()
                                        + ")"));
                continue;
            }
            PathModelAggregator.Outcome outcome = aggregator.add(report.coded);
            if (!outcome.accepted()) {
                ctx.output(
                        PathDeadLetters.TAG,
                        PathDeadLetters.of(
                                report.raw,
                                DeadLetterReason.UNDECODABLE,
                                "path report "
                                        + report.reportId
                                        + " does not decode with edge model "
                                        + report.modelVersion
                                        + ": "
                                        + outcome.reason()));
            }
        }
        long accepted = aggregator.acceptedInWindow();
        Optional<EdgeModel> next = aggregator.closeWindow();
        if (next.isEmpty()) {
            return;
        }
        dev.fieldprof.schemas.EdgeModel record =
                EdgeModelRecords.toRecord(
                        next.get(), app, Instant.ofEpochMilli(ctx.window().getEnd()), accepted);
        byte[] bytes = CODEC.encode(record);
        kept.put(record.getVersion(), bytes);
        while (kept.size() > keepVersions) {
            kept.pollFirstEntry();
        }
        state.update(new ArrayList<>(kept.values()));
        out.collect(new EncodedRecord(app.getBytes(StandardCharsets.UTF_8), bytes));
    }
}
