package dev.fieldprof.jobs.paths;

import dev.fieldprof.jobs.io.EncodedRecord;
import dev.fieldprof.paths.ArrayBranchTable;
import dev.fieldprof.paths.EdgeCounter;
import dev.fieldprof.paths.EdgeModel;
import dev.fieldprof.paths.InvalidPathReportException;
import dev.fieldprof.paths.PathDecoder;
import dev.fieldprof.paths.PathRecording;
import dev.fieldprof.paths.PathReportHeader;
import dev.fieldprof.schemas.DeadLetterReason;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.ReadOnlyBroadcastState;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.TimeDomain;
import org.apache.flink.streaming.api.functions.co.KeyedBroadcastProcessFunction;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;
import org.apache.flink.util.Collector;

/**
 * One shard of an app version's path reports (keyed by app version and a hash of the device id, so
 * that one popular app is not one hot key): decodes each report as it arrives, with the model it
 * names, and adds its edges to its tumbling window's counts; when the window closes, emits the
 * counts ({@link ShardEdgeCounts}) to the per-app merge ({@link LearnEdgeModels}). State holds
 * counts per open window, never the reports of a window.
 *
 * <p>Branch tables and models come from the broadcast side ({@link PathReferenceData}): program
 * models and the model topic, where this job's own models come back as they reach devices. A report
 * whose table is not known yet, or that names a model version newer than any received (a device
 * fetched it before the job's side input did), waits for it at most the table wait of wall-clock
 * time, at most {@code maxWaiting} per subtask over all app versions; if it then decodes after its
 * window closed, its counts go to the merge on their own and count in the next model. What cannot
 * be used becomes a dead letter with its reason: LATE (a report whose window closed more than the
 * allowed lateness before it arrived; a later one counts in the next model), UNKNOWN_APP_VERSION,
 * UNKNOWN_MODEL_VERSION (evicted, or never came), MODEL_CONFLICT, UNDECODABLE, PENDING_LIMIT.
 */
public final class CountPathEdges
        extends KeyedBroadcastProcessFunction<
                String, PathReportEnvelope, PathSideInput, ShardEdgeCounts> {
    private static final long serialVersionUID = 1L;

    /** Event time that only the final watermark reaches: the input has ended. */
    static final long END_OF_INPUT = Long.MAX_VALUE - 1;

    static final MapStateDescriptor<Long, byte[]> COUNTS =
            new MapStateDescriptor<>(
                    "window-edge-counts",
                    Types.LONG,
                    PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO);

    static final MapStateDescriptor<Long, Long> REPORTS =
            new MapStateDescriptor<>("window-reports-counted", Types.LONG, Types.LONG);

    static final ListStateDescriptor<PathReportEnvelope> WAITING =
            new ListStateDescriptor<>(
                    "reports-waiting-for-table-or-model",
                    TypeInformation.of(PathReportEnvelope.class));

    private final Map<String, String> overrides;
    private final long windowMillis;
    private final boolean processingTime;
    private final int keepVersions;
    private final long waitMillis;
    private final int maxWaiting;
    private final long allowedLatenessMillis;
    private transient PathReferenceData reference;
    private transient PathRecording scratch;
    private transient Counter decoded;

    /**
     * Reports waiting in this subtask, over all its keys: the bound that fake app versions cannot
     * multiply. Not checkpointed: after a restore the restored waits are not counted until they
     * end, so for at most the table wait a subtask may hold up to twice the bound.
     */
    private transient long waitingHere;

    /**
     * @param overrides app version → branch description text that wins over the program model's
     * @param window tumbling window size, > 0
     * @param processingTime windows on processing time instead of the records' event time
     * @param keepVersions model versions kept decodable per app version (besides version 0)
     * @param wait how long (wall clock) a report may wait for its table or model
     * @param maxWaiting reports that may wait at once in one subtask, over all app versions; more
     *     are PENDING_LIMIT letters
     * @param allowedLateness how long after its window closed a report still counts (in the window
     *     open when it arrives); later ones are LATE letters
     */
    public CountPathEdges(
            Map<String, String> overrides,
            Duration window,
            boolean processingTime,
            int keepVersions,
            Duration wait,
            int maxWaiting,
            Duration allowedLateness) {
        this.overrides = new TreeMap<>(overrides);
        this.windowMillis = window.toMillis();
        this.processingTime = processingTime;
        this.keepVersions = keepVersions;
        this.waitMillis = wait.toMillis();
        this.maxWaiting = maxWaiting;
        this.allowedLatenessMillis = allowedLateness.toMillis();
    }

    @Override
    public void open(OpenContext context) {
        reference = new PathReferenceData(overrides, keepVersions);
        scratch = new PathRecording();
        decoded = getRuntimeContext().getMetricGroup().counter("pathReportsDecoded");
    }

    @Override
    public void processElement(
            PathReportEnvelope report, ReadOnlyContext ctx, Collector<ShardEdgeCounts> out)
            throws Exception {
        long time =
                processingTime
                        ? ctx.timerService().currentProcessingTime()
                        : ctx.timestamp() == null ? report.raw.timestamp : ctx.timestamp();
        long end = TimeWindow.getWindowStartWithOffset(time, 0, windowMillis) + windowMillis;
        long watermark = ctx.timerService().currentWatermark();
        if (!processingTime && end - 1 <= watermark) {
            if (end - 1 + allowedLatenessMillis <= watermark) {
                ctx.output(
                        PathDeadLetters.TAG,
                        PathDeadLetters.of(
                                report.raw,
                                DeadLetterReason.LATE,
                                "late: record time "
                                        + time
                                        + " is in a window that closed at "
                                        + end
                                        + ", beyond the allowed lateness"));
                return;
            }
            // Within the allowed lateness: counted in the window that is open now (the next
            // model), as a report that waited for its table is.
            end =
                    TimeWindow.getWindowStartWithOffset(watermark + 1, 0, windowMillis)
                            + windowMillis;
        }
        report.windowEnd = end;
        if (processingTime) {
            ctx.timerService().registerProcessingTimeTimer(end - 1);
        } else {
            ctx.timerService().registerEventTimeTimer(end - 1);
        }
        Attempt attempt =
                attempt(
                        report,
                        ctx.getBroadcastState(PathReferenceData.BRANCHES),
                        ctx.getBroadcastState(PathReferenceData.PLANS),
                        ctx.getBroadcastState(PathReferenceData.MODELS),
                        ctx.getCurrentKey(),
                        ctx.timerService().currentWatermark(),
                        out,
                        letter -> ctx.output(PathDeadLetters.TAG, letter));
        if (attempt != Attempt.WAIT) {
            return;
        }
        if (waitingHere >= maxWaiting) {
            ctx.output(
                    PathDeadLetters.TAG,
                    PathDeadLetters.of(
                            report.raw,
                            DeadLetterReason.PENDING_LIMIT,
                            waitingHere
                                    + " reports already wait for a branch table or an edge model"
                                    + " in this subtask (--max-waiting)"));
            return;
        }
        report.waitUntil = ctx.timerService().currentProcessingTime() + waitMillis;
        getRuntimeContext().getListState(WAITING).add(report);
        waitingHere++;
        ctx.timerService().registerProcessingTimeTimer(report.waitUntil);
        if (!processingTime) {
            // A bounded run ends without firing processing-time timers.
            ctx.timerService().registerEventTimeTimer(END_OF_INPUT);
        }
    }

    @Override
    public void processBroadcastElement(
            PathSideInput input, Context ctx, Collector<ShardEdgeCounts> out) throws Exception {
        reference.apply(
                input,
                ctx.getBroadcastState(PathReferenceData.BRANCHES),
                ctx.getBroadcastState(PathReferenceData.PLANS),
                ctx.getBroadcastState(PathReferenceData.MODELS));
        // Reports that waited for this table or model: try them again.
        String prefix = input.appVersion + "\n";
        long watermark = ctx.currentWatermark();
        ctx.applyToKeyedState(
                WAITING,
                (key, waiting) -> {
                    if (!key.startsWith(prefix)) {
                        return;
                    }
                    List<PathReportEnvelope> still = new ArrayList<>();
                    for (PathReportEnvelope r : waiting.get()) {
                        Attempt a =
                                attempt(
                                        r,
                                        ctx.getBroadcastState(PathReferenceData.BRANCHES),
                                        ctx.getBroadcastState(PathReferenceData.PLANS),
                                        ctx.getBroadcastState(PathReferenceData.MODELS),
                                        key,
                                        watermark,
                                        out,
                                        letter -> ctx.output(PathDeadLetters.TAG, letter));
                        if (a == Attempt.WAIT) {
                            still.add(r);
                        }
                    }
                    waitingHere -= countOf(waiting.get()) - still.size();
                    waiting.update(still);
                });
    }

    private static int countOf(Iterable<?> items) {
        int n = 0;
        for (Object ignored : items) {
            n++;
        }
        return n;
    }

    private enum Attempt {
        COUNTED,
        REJECTED,
        WAIT
    }

    /**
     * Decodes the report into its window's counts if its table and model are held; a report whose
     * window has closed meanwhile goes to the merge on its own.
     */
    private Attempt attempt(
            PathReportEnvelope report,
            ReadOnlyBroadcastState<String, String> branches,
            ReadOnlyBroadcastState<String, String> plans,
            ReadOnlyBroadcastState<String, byte[]> models,
            String key,
            long watermark,
            Collector<ShardEdgeCounts> out,
            java.util.function.Consumer<EncodedRecord> deadLetters)
            throws Exception {
        String app = report.appVersion;
        ArrayBranchTable table = reference.table(app, branches);
        if (table == null) {
            return Attempt.WAIT;
        }
        PathDecoder decoder;
        try {
            decoder =
                    reference.decoder(app, report.modelVersion, report.modelWriter, table, models);
        } catch (PathReferenceData.ModelConflict conflict) {
            deadLetters.accept(
                    PathDeadLetters.of(
                            report.raw, DeadLetterReason.MODEL_CONFLICT, conflict.getMessage()));
            return Attempt.REJECTED;
        }
        if (decoder == null) {
            List<EdgeModel> held = reference.models(app, table, models);
            long newest = held.isEmpty() ? 0 : held.get(held.size() - 1).version();
            if (report.modelVersion > newest) {
                return Attempt.WAIT; // published, not received yet
            }
            deadLetters.accept(unknownModel(report, app, held));
            return Attempt.REJECTED;
        }
        PathReportHeader header;
        try {
            scratch.clear();
            header = decoder.decode(report.coded, scratch);
        } catch (InvalidPathReportException e) {
            deadLetters.accept(
                    PathDeadLetters.of(
                            report.raw,
                            DeadLetterReason.UNDECODABLE,
                            "path report "
                                    + report.reportId
                                    + " does not decode with edge model "
                                    + report.modelVersion
                                    + ": "
                                    + e.getMessage()));
            return Attempt.REJECTED;
        }
        String outside = reference.outsideVariant(app, report.variant, scratch, plans);
        if (outside != null) {
            deadLetters.accept(
                    PathDeadLetters.of(
                            report.raw,
                            DeadLetterReason.INVALID,
                            "path report " + report.reportId + ": " + outside));
            return Attempt.REJECTED;
        }
        decoded.inc();
        boolean closed = report.windowEnd - 1 <= watermark && !processingTime;
        MapState<Long, byte[]> counts = getRuntimeContext().getMapState(COUNTS);
        MapState<Long, Long> reports = getRuntimeContext().getMapState(REPORTS);
        byte[] before = closed ? null : counts.get(report.windowEnd);
        EdgeCounter counter =
                before == null ? new EdgeCounter(table) : EdgeCounter.fromBytes(table, before);
        counter.begin(header);
        scratch.replay(counter);
        if (closed) {
            out.collect(
                    new ShardEdgeCounts(
                            app,
                            shardOf(key),
                            report.windowEnd,
                            EdgeModel.branchFingerprint(table),
                            1,
                            counter.toBytes()));
        } else {
            counts.put(report.windowEnd, counter.toBytes());
            Long n = reports.get(report.windowEnd);
            reports.put(report.windowEnd, n == null ? 1 : n + 1);
        }
        return Attempt.COUNTED;
    }

    private static EncodedRecord unknownModel(
            PathReportEnvelope report, String app, List<EdgeModel> held) {
        List<String> kept = new ArrayList<>();
        kept.add("0");
        for (EdgeModel m : held) {
            kept.add(m.writer().isEmpty() ? "" + m.version() : m.version() + "/" + m.writer());
        }
        return PathDeadLetters.of(
                report.raw,
                DeadLetterReason.UNKNOWN_MODEL_VERSION,
                "edge model version "
                        + report.modelVersion
                        + (report.modelWriter.isEmpty() ? "" : " of writer " + report.modelWriter)
                        + " of "
                        + app
                        + " is not kept (kept: "
                        + String.join(", ", kept)
                        + ")");
    }

    private static int shardOf(String key) {
        return Integer.parseInt(key.substring(key.lastIndexOf('\n') + 1));
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<ShardEdgeCounts> out)
            throws Exception {
        boolean windowTime = processingTime == (ctx.timeDomain() == TimeDomain.PROCESSING_TIME);
        String key = ctx.getCurrentKey();
        if (windowTime) {
            emitClosedWindows(
                    timestamp, key, ctx.getBroadcastState(PathReferenceData.BRANCHES), out);
        }
        boolean ended = ctx.timeDomain() == TimeDomain.EVENT_TIME && timestamp == END_OF_INPUT;
        if (ended || ctx.timeDomain() == TimeDomain.PROCESSING_TIME) {
            expireWaiting(ended ? Long.MAX_VALUE : timestamp, ended, ctx);
        }
    }

    private void emitClosedWindows(
            long timestamp,
            String key,
            ReadOnlyBroadcastState<String, String> branches,
            Collector<ShardEdgeCounts> out)
            throws Exception {
        MapState<Long, byte[]> counts = getRuntimeContext().getMapState(COUNTS);
        MapState<Long, Long> reports = getRuntimeContext().getMapState(REPORTS);
        TreeMap<Long, byte[]> due = new TreeMap<>();
        for (Map.Entry<Long, byte[]> e : counts.entries()) {
            if (e.getKey() - 1 <= timestamp) {
                due.put(e.getKey(), e.getValue());
            }
        }
        String app = key.substring(0, key.lastIndexOf('\n'));
        ArrayBranchTable table = reference.table(app, branches);
        for (Map.Entry<Long, byte[]> e : due.entrySet()) {
            out.collect(
                    new ShardEdgeCounts(
                            app,
                            shardOf(key),
                            e.getKey(),
                            EdgeModel.branchFingerprint(table),
                            reports.get(e.getKey()),
                            e.getValue()));
            counts.remove(e.getKey());
            reports.remove(e.getKey());
        }
    }

    /** Dead-letters the waiting reports whose wait is over, or all once the input has ended. */
    private void expireWaiting(long now, boolean ended, OnTimerContext ctx) throws Exception {
        ListState<PathReportEnvelope> waiting = getRuntimeContext().getListState(WAITING);
        List<PathReportEnvelope> still = new ArrayList<>();
        for (PathReportEnvelope r : waiting.get()) {
            if (r.waitUntil > now) {
                still.add(r);
                continue;
            }
            ArrayBranchTable table =
                    reference.table(
                            r.appVersion, ctx.getBroadcastState(PathReferenceData.BRANCHES));
            String when =
                    ended
                            ? " before the input ended"
                            : " within " + Duration.ofMillis(waitMillis) + " (--table-wait)";
            ctx.output(
                    PathDeadLetters.TAG,
                    table == null
                            ? PathDeadLetters.of(
                                    r.raw,
                                    DeadLetterReason.UNKNOWN_APP_VERSION,
                                    "no branch table for app version "
                                            + r.appVersion
                                            + when
                                            + ": no program model with CFGs and no --branches")
                            : PathDeadLetters.of(
                                    r.raw,
                                    DeadLetterReason.UNKNOWN_MODEL_VERSION,
                                    "edge model version "
                                            + r.modelVersion
                                            + " of "
                                            + r.appVersion
                                            + " did not reach the job"
                                            + when));
        }
        waitingHere -= countOf(waiting.get()) - still.size();
        waiting.update(still);
    }
}
