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
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.ReadOnlyBroadcastState;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.TimeDomain;
import org.apache.flink.streaming.api.functions.co.KeyedBroadcastProcessFunction;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;
import org.apache.flink.util.Collector;

/**
 * Per app version and tumbling window: decodes every report with the edge model version it names
 * (the last N published versions are kept in keyed state, as EdgeModel records), counts edges with
 * {@link PathModelAggregator} and emits version M+1 keyed by app version (AdapTracer section 6.3).
 *
 * <p>The branch table of an app version comes from its program model, broadcast from {@code
 * fieldprof.programs} ({@link DecodeProgramBranches}); a {@code --branches} file given for the app
 * version overrides it. The windows are kept here (reports buffered per window in keyed state, a
 * timer at each window's end) rather than in a Flink window operator, because a window function
 * cannot read broadcast state. A window whose app version has no table when it closes waits for the
 * table (a program model published after the reports) for at most the table wait of wall-clock
 * time, or until the input ends (the final watermark); its reports then become dead letters, as do
 * reports that name a model version not kept, do not decode with it, or arrive after their window
 * closed. The model's createdAt is the window end, so a replay emits the same bytes.
 */
public final class LearnEdgeModels
        extends KeyedBroadcastProcessFunction<
                String, PathReportEnvelope, ProgramBranches, EncodedRecord> {
    private static final long serialVersionUID = 1L;
    private static final RecordCodec<dev.fieldprof.schemas.EdgeModel> CODEC =
            RecordCodec.of(dev.fieldprof.schemas.EdgeModel.class);

    /** App version → branch description text of its newest program model. */
    public static final MapStateDescriptor<String, String> BRANCHES =
            new MapStateDescriptor<>("program-branches", Types.STRING, Types.STRING);

    static final ListStateDescriptor<byte[]> MODELS =
            new ListStateDescriptor<>(
                    "edge-models", PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO);

    static final ListStateDescriptor<PathReportEnvelope> PENDING =
            new ListStateDescriptor<>(
                    "window-reports", TypeInformation.of(PathReportEnvelope.class));

    /** Reports of closed windows whose app version had no branch table yet. */
    static final ListStateDescriptor<PathReportEnvelope> AWAITING_TABLE =
            new ListStateDescriptor<>(
                    "reports-awaiting-table", TypeInformation.of(PathReportEnvelope.class));

    /** Event time that only the final watermark reaches: the input has ended. */
    private static final long END_OF_INPUT = Long.MAX_VALUE - 1;

    /** Processing time at which the reports awaiting a table become dead letters. */
    static final ValueStateDescriptor<Long> TABLE_DEADLINE =
            new ValueStateDescriptor<>("table-deadline", Types.LONG);

    private final Map<String, String> overrides;
    private final long windowMillis;
    private final boolean processingTime;
    private final int keepVersions;
    private final int targetTotal;
    private final long tableWaitMillis;
    private final Map<String, byte[]> published;
    private transient Map<String, String> tableTexts;
    private transient Map<String, ArrayBranchTable> tables;

    /**
     * @param overrides app version → branch description text that wins over the program model's
     * @param window tumbling window size, > 0
     * @param processingTime windows on processing time instead of the records' event time
     * @param keepVersions model versions kept decodable
     * @param targetTotal {@link ModelUpdater}'s target total
     * @param tableWait how long (wall clock) a closed window waits for its branch table
     * @param published app version → the newest model already on the model topic (record bytes),
     *     the base of the first window of a job started without state
     */
    public LearnEdgeModels(
            Map<String, String> overrides,
            Duration window,
            boolean processingTime,
            int keepVersions,
            int targetTotal,
            Duration tableWait,
            Map<String, byte[]> published) {
        this.overrides = new TreeMap<>(overrides);
        this.windowMillis = window.toMillis();
        this.processingTime = processingTime;
        this.published = new TreeMap<>(published);
        this.keepVersions = keepVersions;
        this.targetTotal = targetTotal;
        this.tableWaitMillis = tableWait.toMillis();
    }

    @Override
    public void processElement(
            PathReportEnvelope report, ReadOnlyContext ctx, Collector<EncodedRecord> out)
            throws Exception {
        long time =
                processingTime
                        ? ctx.timerService().currentProcessingTime()
                        : ctx.timestamp() == null ? report.raw.timestamp : ctx.timestamp();
        long end = TimeWindow.getWindowStartWithOffset(time, 0, windowMillis) + windowMillis;
        if (!processingTime && end - 1 <= ctx.timerService().currentWatermark()) {
            ctx.output(
                    PathDeadLetters.TAG,
                    PathDeadLetters.of(
                            report.raw,
                            DeadLetterReason.LATE,
                            "late: record time " + time + " is in a window that closed at " + end));
            return;
        }
        report.windowEnd = end;
        getRuntimeContext().getListState(PENDING).add(report);
        if (processingTime) {
            ctx.timerService().registerProcessingTimeTimer(end - 1);
        } else {
            ctx.timerService().registerEventTimeTimer(end - 1);
        }
    }

    @Override
    public void processBroadcastElement(
            ProgramBranches program, Context ctx, Collector<EncodedRecord> out) throws Exception {
        ctx.getBroadcastState(BRANCHES).put(program.appVersion, program.branches);
        ArrayBranchTable table = table(program.appVersion, ctx.getBroadcastState(BRANCHES));
        if (table == null) {
            return;
        }
        // Windows of this app version that closed before its table came: learn them now, in order.
        ctx.applyToKeyedState(
                AWAITING_TABLE,
                (app, awaiting) -> {
                    if (!app.equals(program.appVersion)) {
                        return;
                    }
                    for (Map.Entry<Long, List<PathReportEnvelope>> window :
                            byWindow(awaiting.get()).entrySet()) {
                        learn(
                                app,
                                table,
                                window.getKey(),
                                window.getValue(),
                                letter -> ctx.output(PathDeadLetters.TAG, letter),
                                out);
                    }
                    awaiting.clear();
                });
        ctx.applyToKeyedState(
                TABLE_DEADLINE,
                (app, deadline) -> {
                    if (app.equals(program.appVersion)) {
                        deadline.clear();
                    }
                });
    }

    private static TreeMap<Long, List<PathReportEnvelope>> byWindow(
            Iterable<PathReportEnvelope> reports) {
        TreeMap<Long, List<PathReportEnvelope>> windows = new TreeMap<>();
        if (reports != null) {
            for (PathReportEnvelope report : reports) {
                windows.computeIfAbsent(report.windowEnd, e -> new ArrayList<>()).add(report);
            }
        }
        return windows;
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<EncodedRecord> out)
            throws Exception {
        ListState<PathReportEnvelope> pending = getRuntimeContext().getListState(PENDING);
        TreeMap<Long, List<PathReportEnvelope>> due = new TreeMap<>();
        List<PathReportEnvelope> later = new ArrayList<>();
        for (PathReportEnvelope report : pending.get()) {
            if (report.windowEnd - 1 <= timestamp) {
                due.computeIfAbsent(report.windowEnd, e -> new ArrayList<>()).add(report);
            } else {
                later.add(report);
            }
        }
        pending.update(later);
        String app = ctx.getCurrentKey();
        ArrayBranchTable table = table(app, ctx.getBroadcastState(BRANCHES));
        for (Map.Entry<Long, List<PathReportEnvelope>> window : due.entrySet()) {
            if (table == null) {
                awaitTable(window.getValue(), ctx);
                continue;
            }
            learn(
                    app,
                    table,
                    window.getKey(),
                    window.getValue(),
                    letter -> ctx.output(PathDeadLetters.TAG, letter),
                    out);
        }
        expireTableWait(timestamp, ctx);
    }

    /** Keeps a closed window's reports until the table comes or the table wait ends. */
    private void awaitTable(List<PathReportEnvelope> reports, OnTimerContext ctx) throws Exception {
        ListState<PathReportEnvelope> awaiting = getRuntimeContext().getListState(AWAITING_TABLE);
        awaiting.addAll(reports);
        ValueState<Long> deadline = getRuntimeContext().getState(TABLE_DEADLINE);
        if (deadline.value() == null) {
            long at = ctx.timerService().currentProcessingTime() + tableWaitMillis;
            deadline.update(at);
            ctx.timerService().registerProcessingTimeTimer(at);
            if (!processingTime) {
                // A bounded run ends without firing processing-time timers.
                ctx.timerService().registerEventTimeTimer(END_OF_INPUT);
            }
        }
    }

    /**
     * Dead-letters the reports that waited for a table, once the wait's deadline has come or the
     * input has ended.
     */
    private void expireTableWait(long now, OnTimerContext ctx) throws Exception {
        ValueState<Long> deadline = getRuntimeContext().getState(TABLE_DEADLINE);
        if (deadline.value() == null) {
            return;
        }
        boolean ended = ctx.timeDomain() == TimeDomain.EVENT_TIME && now == END_OF_INPUT;
        boolean due = ctx.timeDomain() == TimeDomain.PROCESSING_TIME && deadline.value() <= now;
        if (!ended && !due) {
            return;
        }
        ListState<PathReportEnvelope> awaiting = getRuntimeContext().getListState(AWAITING_TABLE);
        Iterable<PathReportEnvelope> reports = awaiting.get();
        if (reports != null) {
            for (PathReportEnvelope report : reports) {
                ctx.output(
                        PathDeadLetters.TAG,
                        PathDeadLetters.of(
                                report.raw,
                                DeadLetterReason.UNKNOWN_APP_VERSION,
                                "no branch table for app version "
                                        + ctx.getCurrentKey()
                                        + (ended
                                                ? " before the input ended"
                                                : " within "
                                                        + Duration.ofMillis(tableWaitMillis)
                                                        + " of its window's end")
                                        + ": no program model with CFGs and no --branches"));
            }
        }
        awaiting.clear();
        deadline.clear();
    }

    /** The override, else the broadcast program model's table; null if neither is known. */
    private ArrayBranchTable table(String app, ReadOnlyBroadcastState<String, String> programs)
            throws Exception {
        String text = overrides.containsKey(app) ? overrides.get(app) : programs.get(app);
        if (text == null) {
            return null;
        }
        if (tables == null) {
            tables = new HashMap<>();
            tableTexts = new HashMap<>();
        }
        if (!text.equals(tableTexts.get(app))) {
            tables.put(app, BranchTableText.parse(text));
            tableTexts.put(app, text);
        }
        return tables.get(app);
    }

    private void learn(
            String app,
            ArrayBranchTable table,
            long windowEnd,
            List<PathReportEnvelope> reports,
            Consumer<EncodedRecord> deadLetters,
            Collector<EncodedRecord> out)
            throws Exception {
        ListState<byte[]> state = getRuntimeContext().getListState(MODELS);
        TreeMap<Long, byte[]> kept = new TreeMap<>();
        for (byte[] bytes : state.get()) {
            kept.put(CODEC.decode(bytes).getVersion(), bytes);
        }
        if (kept.isEmpty() && published.containsKey(app)) {
            byte[] bytes = published.get(app);
            kept.put(CODEC.decode(bytes).getVersion(), bytes);
        }
        long fingerprint = EdgeModel.branchFingerprint(table);
        // A new program model for the same app version with other CFGs: the old models are void.
        kept.values().removeIf(bytes -> CODEC.decode(bytes).getBranchFingerprint() != fingerprint);
        if (!kept.containsKey(0L)) {
            // The uniform model is version 0, what every device starts with: always decodable.
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
                deadLetters.accept(
                        PathDeadLetters.of(
                                report.raw,
                                DeadLetterReason.UNKNOWN_MODEL_VERSION,
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
                deadLetters.accept(
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
                        next.get(), app, Instant.ofEpochMilli(windowEnd), accepted);
        byte[] bytes = CODEC.encode(record);
        kept.put(record.getVersion(), bytes);
        while (kept.size() - 1 > keepVersions) {
            kept.remove(kept.higherKey(0L)); // the oldest published one; never version 0
        }
        state.update(new ArrayList<>(kept.values()));
        out.collect(new EncodedRecord(app.getBytes(StandardCharsets.UTF_8), bytes));
    }
}
