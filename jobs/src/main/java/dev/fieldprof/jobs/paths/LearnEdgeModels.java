package dev.fieldprof.jobs.paths;

import dev.fieldprof.jobs.io.EncodedRecord;
import dev.fieldprof.jobs.io.RawRecord;
import dev.fieldprof.paths.ArrayBranchTable;
import dev.fieldprof.paths.EdgeCounter;
import dev.fieldprof.paths.EdgeModel;
import dev.fieldprof.paths.EdgeModelRecords;
import dev.fieldprof.paths.ModelUpdater;
import dev.fieldprof.schemas.DeadLetterReason;
import dev.fieldprof.schemas.RecordCodec;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.TimeDomain;
import org.apache.flink.streaming.api.TimerService;
import org.apache.flink.streaming.api.functions.co.KeyedBroadcastProcessFunction;
import org.apache.flink.util.Collector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Per app version: merges the shards' edge counts of each window ({@link CountPathEdges}) and, when
 * the window closes, derives model version M+1 from the newest model M and publishes it keyed by
 * app version (the server side of AdapTracer, docs/references.md). The model's createdAt is the
 * window end, so a replay emits the same bytes.
 *
 * <p>M is the newest of what this job published and what the model topic holds for the current
 * branch table (broadcast, {@link PathReferenceData}), so a job that finds another writer's model
 * newer than its own continues after it instead of publishing a version twice; should two jobs
 * still publish one version at the same moment, each model carries its writer and reports name it
 * ({@link dev.fieldprof.client.tracing.EdgeModelStore} keeps the first a device adopted), so both
 * decode; the job counts and logs the conflict. Counts that reach a window already published (a
 * report that waited for its model) count in the next model. Counts that arrive before the branch
 * table they were decoded with (it reaches each subtask on its own broadcast channel) wait for it
 * at most the table wait; counts for a table that was replaced meanwhile then become a
 * WINDOW_DROPPED dead letter naming how many reports they stood for.
 */
public final class LearnEdgeModels
        extends KeyedBroadcastProcessFunction<
                String, ShardEdgeCounts, PathSideInput, EncodedRecord> {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(LearnEdgeModels.class);
    private static final RecordCodec<dev.fieldprof.schemas.EdgeModel> CODEC =
            RecordCodec.of(dev.fieldprof.schemas.EdgeModel.class);

    static final MapStateDescriptor<Long, byte[]> COUNTS =
            new MapStateDescriptor<>(
                    "merged-edge-counts",
                    Types.LONG,
                    PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO);

    static final MapStateDescriptor<Long, Long> REPORTS =
            new MapStateDescriptor<>("merged-reports", Types.LONG, Types.LONG);

    /** Counts that came before the branch table they were decoded with (see processElement). */
    static final ListStateDescriptor<ShardEdgeCounts> WAITING =
            new ListStateDescriptor<>(
                    "counts-waiting-for-table", TypeInformation.of(ShardEdgeCounts.class));

    /** How often waiting counts look for their table again. */
    private static final long RETRY_MILLIS = 200;

    /** The newest model this job published for the key (record bytes). */
    static final ValueStateDescriptor<byte[]> NEWEST =
            new ValueStateDescriptor<>(
                    "newest-published-model",
                    PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO);

    private final Map<String, String> overrides;
    private final boolean processingTime;
    private final int keepVersions;
    private final int targetTotal;
    private final String writer;
    private final String reportsTopic;
    private final long waitMillis;
    private final Map<String, byte[]> published;
    private transient PathReferenceData reference;
    private transient Counter modelsPublished;
    private transient Counter conflicts;

    /**
     * @param overrides app version → branch description text that wins over the program model's
     * @param processingTime windows on processing time instead of event time
     * @param keepVersions model versions kept decodable per app version
     * @param targetTotal {@link ModelUpdater}'s target total
     * @param writer this job's id, written into every model it publishes
     * @param reportsTopic named in dead letters
     * @param tableWait how long (wall clock) counts may wait for the branch table they were decoded
     *     with
     * @param published app version → the newest model already on the model topic (record bytes),
     *     read once at start: the base of the first window before the broadcast side has it
     */
    public LearnEdgeModels(
            Map<String, String> overrides,
            boolean processingTime,
            int keepVersions,
            int targetTotal,
            String writer,
            String reportsTopic,
            Duration tableWait,
            Map<String, byte[]> published) {
        this.overrides = new TreeMap<>(overrides);
        this.processingTime = processingTime;
        this.keepVersions = keepVersions;
        this.targetTotal = targetTotal;
        this.writer = writer;
        this.reportsTopic = reportsTopic;
        this.waitMillis = tableWait.toMillis();
        this.published = new TreeMap<>(published);
    }

    @Override
    public void open(OpenContext context) {
        reference = new PathReferenceData(overrides, keepVersions);
        modelsPublished = getRuntimeContext().getMetricGroup().counter("pathModelsPublished");
        conflicts = getRuntimeContext().getMetricGroup().counter("pathModelConflicts");
    }

    @Override
    public void processElement(
            ShardEdgeCounts shard, ReadOnlyContext ctx, Collector<EncodedRecord> out)
            throws Exception {
        ArrayBranchTable table =
                reference.table(
                        shard.appVersion, ctx.getBroadcastState(PathReferenceData.BRANCHES));
        if (hasTableOf(shard, table)) {
            merge(shard, table);
            registerWindowTimer(shard.windowEnd, ctx.timerService());
            return;
        }
        // The table reaches this subtask on its own broadcast channel, so counts decoded with it
        // on another subtask can arrive first; or the program model was republished meanwhile.
        long now = ctx.timerService().currentProcessingTime();
        shard.waitUntil = now + waitMillis;
        getRuntimeContext().getListState(WAITING).add(shard);
        ctx.timerService()
                .registerProcessingTimeTimer(Math.min(shard.waitUntil, now + RETRY_MILLIS));
        registerWindowTimer(shard.windowEnd, ctx.timerService());
        if (!processingTime) {
            // A bounded run ends without firing processing-time timers.
            ctx.timerService().registerEventTimeTimer(CountPathEdges.END_OF_INPUT);
        }
    }

    private static boolean hasTableOf(ShardEdgeCounts shard, ArrayBranchTable table) {
        return table != null && EdgeModel.branchFingerprint(table) == shard.branchFingerprint;
    }

    /** Adds the shard's counts to its window's merged counts. */
    private void merge(ShardEdgeCounts shard, ArrayBranchTable table) throws Exception {
        MapState<Long, byte[]> counts = getRuntimeContext().getMapState(COUNTS);
        MapState<Long, Long> reports = getRuntimeContext().getMapState(REPORTS);
        byte[] before = counts.get(shard.windowEnd);
        EdgeCounter merged = EdgeCounter.fromBytes(table, shard.counts);
        if (before != null) {
            merged.addAll(EdgeCounter.fromBytes(table, before));
        }
        counts.put(shard.windowEnd, merged.toBytes());
        Long n = reports.get(shard.windowEnd);
        reports.put(shard.windowEnd, (n == null ? 0 : n) + shard.reports);
    }

    private void registerWindowTimer(long windowEnd, TimerService timers) {
        if (processingTime) {
            timers.registerProcessingTimeTimer(
                    Math.max(windowEnd - 1, timers.currentProcessingTime() + 1));
        } else {
            // Counts of a window already published fire with the next watermark.
            timers.registerEventTimeTimer(Math.max(windowEnd - 1, timers.currentWatermark() + 1));
        }
    }

    /**
     * Merges the waiting counts whose table has come; dead-letters those whose wait is over (all,
     * once the input has ended), naming why; polls again while some still wait.
     */
    private void retryWaiting(ArrayBranchTable table, long now, boolean ended, OnTimerContext ctx)
            throws Exception {
        ListState<ShardEdgeCounts> waiting = getRuntimeContext().getListState(WAITING);
        List<ShardEdgeCounts> still = new ArrayList<>();
        long next = Long.MAX_VALUE;
        for (ShardEdgeCounts shard : waiting.get()) {
            if (hasTableOf(shard, table)) {
                merge(shard, table);
            } else if (ended || shard.waitUntil <= now) {
                ctx.output(PathDeadLetters.TAG, dropped(shard, table, ended));
            } else {
                still.add(shard);
                next = Math.min(next, shard.waitUntil);
            }
        }
        waiting.update(still);
        if (!still.isEmpty()) {
            ctx.timerService().registerProcessingTimeTimer(Math.min(next, now + RETRY_MILLIS));
        }
    }

    private EncodedRecord dropped(ShardEdgeCounts shard, ArrayBranchTable table, boolean ended) {
        String why =
                table == null
                        ? "no branch table for it reached the merge"
                        : "its program model now has branch table "
                                + Long.toHexString(EdgeModel.branchFingerprint(table));
        return PathDeadLetters.of(
                new RawRecord(
                        reportsTopic,
                        -1,
                        -1,
                        shard.windowEnd - 1,
                        shard.appVersion.getBytes(StandardCharsets.UTF_8),
                        null),
                DeadLetterReason.WINDOW_DROPPED,
                "the edge counts of "
                        + shard.reports
                        + " path reports of "
                        + shard.appVersion
                        + " (shard "
                        + shard.shard
                        + ", window ending "
                        + Instant.ofEpochMilli(shard.windowEnd)
                        + ") are for branch table "
                        + Long.toHexString(shard.branchFingerprint)
                        + ", but "
                        + why
                        + (ended
                                ? " before the input ended"
                                : " within " + Duration.ofMillis(waitMillis) + " (--table-wait)"));
    }

    @Override
    public void processBroadcastElement(
            PathSideInput input, Context ctx, Collector<EncodedRecord> out) throws Exception {
        reference.apply(
                input,
                ctx.getBroadcastState(PathReferenceData.BRANCHES),
                ctx.getBroadcastState(PathReferenceData.PLANS),
                ctx.getBroadcastState(PathReferenceData.MODELS));
        if (input.model == null) {
            return;
        }
        dev.fieldprof.schemas.EdgeModel theirs = CODEC.decode(input.model);
        String theirWriter = theirs.getWriter().toString();
        if (theirWriter.equals(writer)) {
            return;
        }
        ctx.applyToKeyedState(
                NEWEST,
                (app, newest) -> {
                    byte[] mine = newest.value();
                    if (app.equals(input.appVersion)
                            && mine != null
                            && CODEC.decode(mine).getVersion() == theirs.getVersion()) {
                        conflicts.inc();
                        LOG.warn(
                                "Edge model version {} of {} was published by this job ('{}')"
                                        + " and by '{}': devices keep the one they adopted"
                                        + " first and name its writer, so reports of both"
                                        + " decode; this job continues after it",
                                theirs.getVersion(),
                                app,
                                writer,
                                theirWriter);
                    }
                });
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<EncodedRecord> out)
            throws Exception {
        String app = ctx.getCurrentKey();
        ArrayBranchTable table =
                reference.table(app, ctx.getBroadcastState(PathReferenceData.BRANCHES));
        boolean ended =
                ctx.timeDomain() == TimeDomain.EVENT_TIME
                        && timestamp >= CountPathEdges.END_OF_INPUT;
        retryWaiting(table, ctx.timerService().currentProcessingTime(), ended, ctx);
        // Windows close on their own clock, one timer at a time (a watermark that jumps fires
        // each window's timer in turn): a retry's processing-time timer in event-time mode closes
        // what the watermark has passed, and never an event-time window it has not.
        boolean windowClock = processingTime == (ctx.timeDomain() == TimeDomain.PROCESSING_TIME);
        long closedUpTo = windowClock ? timestamp : ctx.timerService().currentWatermark();
        MapState<Long, byte[]> counts = getRuntimeContext().getMapState(COUNTS);
        MapState<Long, Long> reports = getRuntimeContext().getMapState(REPORTS);
        TreeMap<Long, byte[]> due = new TreeMap<>();
        for (Map.Entry<Long, byte[]> e : counts.entries()) {
            if (e.getKey() - 1 <= closedUpTo) {
                due.put(e.getKey(), e.getValue());
            }
        }
        if (due.isEmpty() || table == null) {
            return;
        }
        EdgeCounter merged = new EdgeCounter(table);
        long windowReports = 0;
        for (Map.Entry<Long, byte[]> e : due.entrySet()) {
            merged.addAll(EdgeCounter.fromBytes(table, e.getValue()));
            windowReports += reports.get(e.getKey());
            counts.remove(e.getKey());
            reports.remove(e.getKey());
        }
        ValueState<byte[]> newest = getRuntimeContext().getState(NEWEST);
        EdgeModel base =
                base(app, table, newest.value(), ctx.getBroadcastState(PathReferenceData.MODELS));
        // Versions never repeat for an app version, even across a change of its branch table.
        long version = base.version() + 1;
        version = Math.max(version, 1 + versionOf(newest.value()));
        version = Math.max(version, 1 + versionOf(published.get(app)));
        version =
                Math.max(
                        version,
                        1
                                + PathReferenceData.newestVersion(
                                        app, ctx.getBroadcastState(PathReferenceData.MODELS)));
        EdgeModel next =
                EdgeModel.builder(new ModelUpdater(targetTotal).next(base, merged))
                        .version(version)
                        .writer(writer)
                        .build();
        byte[] bytes =
                CODEC.encode(
                        EdgeModelRecords.toRecord(
                                next, app, Instant.ofEpochMilli(due.lastKey()), windowReports));
        newest.update(bytes);
        modelsPublished.inc();
        out.collect(new EncodedRecord(app.getBytes(StandardCharsets.UTF_8), bytes));
    }

    /**
     * The newest model for the table among this job's own, the one read at start and those on the
     * model topic; the uniform model if none. On a tie of versions this job's own wins.
     */
    private EdgeModel base(
            String app,
            ArrayBranchTable table,
            byte[] own,
            org.apache.flink.api.common.state.ReadOnlyBroadcastState<String, byte[]> models)
            throws Exception {
        EdgeModel best = EdgeModel.uniform(table);
        for (byte[] bytes : new byte[][] {own, published.get(app)}) {
            EdgeModel m = fits(bytes, table);
            if (m != null && m.version() > best.version()) {
                best = m;
            }
        }
        List<EdgeModel> onTopic = reference.models(app, table, models);
        for (EdgeModel m : onTopic) {
            if (m.version() > best.version()) {
                best = m;
            }
        }
        return best;
    }

    private static long versionOf(byte[] record) {
        return record == null ? 0 : CODEC.decode(record).getVersion();
    }

    private static EdgeModel fits(byte[] bytes, ArrayBranchTable table) {
        if (bytes == null) {
            return null;
        }
        dev.fieldprof.schemas.EdgeModel record = CODEC.decode(bytes);
        if (record.getBranchFingerprint() != EdgeModel.branchFingerprint(table)) {
            return null;
        }
        try {
            return EdgeModelRecords.fromRecord(record, table);
        } catch (IllegalArgumentException e) {
            return null; // a record that does not fit its own table: no model to learn on
        }
    }
}
