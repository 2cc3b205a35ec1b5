package dev.fieldprof.jobs.frequency.functions;

import dev.fieldprof.jobs.frequency.DeadLetters;
import dev.fieldprof.jobs.frequency.ProgramIndex;
import dev.fieldprof.jobs.frequency.ReportValidation;
import dev.fieldprof.jobs.frequency.records.EncodedRecord;
import dev.fieldprof.jobs.frequency.records.ProgramUpdate;
import dev.fieldprof.jobs.frequency.records.ReportRecord;
import dev.fieldprof.schemas.DeadLetterReason;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.streaming.api.functions.co.KeyedBroadcastProcessFunction;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;
import org.apache.flink.util.Collector;

/**
 * Validates reports against the program model of their app version, broadcast from {@code
 * fieldprof.programs}. A report whose model has not arrived waits in keyed state until the
 * watermark passes its timestamp plus the model wait (event time, so a replay decides the same),
 * and at most {@code maxPending} wait per key; then it becomes a MODEL_WAIT_EXPIRED dead letter.
 * Keyed by (app version, shard) so that one popular app version spreads over subtasks.
 */
public final class ValidateReports
        extends KeyedBroadcastProcessFunction<
                Tuple2<String, Integer>, ReportRecord, ProgramUpdate, ReportRecord> {
    private static final long serialVersionUID = 1L;

    /** Program model bytes by app version; the same descriptor serves every broadcast of them. */
    public static final MapStateDescriptor<String, byte[]> PROGRAMS =
            new MapStateDescriptor<>(
                    "program-models",
                    Types.STRING,
                    PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO);

    private static final ListStateDescriptor<ReportRecord> PENDING =
            new ListStateDescriptor<>(
                    "reports-waiting-for-model", TypeInformation.of(ReportRecord.class));
    private static final ValueStateDescriptor<Integer> PENDING_COUNT =
            new ValueStateDescriptor<>("reports-waiting-count", Types.INT);

    private final long modelWaitMillis;
    private final int maxPending;
    private final long windowMillis;
    private transient ProgramCache cache;
    private transient ListState<ReportRecord> pending;
    private transient ValueState<Integer> pendingCount;

    /**
     * @param modelWait how long (event time) a report waits for its program model
     * @param maxPending how many reports may wait per key
     * @param window the size of the tumbling windows downstream, to dead-letter a released report
     *     whose window has already closed
     */
    public ValidateReports(Duration modelWait, int maxPending, Duration window) {
        if (maxPending < 0) {
            throw new IllegalArgumentException("maxPending must be >= 0, got " + maxPending);
        }
        this.modelWaitMillis = modelWait.toMillis();
        this.maxPending = maxPending;
        this.windowMillis = window.toMillis();
    }

    @Override
    public void open(OpenContext context) {
        cache = new ProgramCache();
        pending = getRuntimeContext().getListState(PENDING);
        pendingCount = getRuntimeContext().getState(PENDING_COUNT);
    }

    @Override
    public void processElement(
            ReportRecord report, ReadOnlyContext ctx, Collector<ReportRecord> out)
            throws Exception {
        ProgramIndex model =
                cache.get(
                        report.appVersion, ctx.getBroadcastState(PROGRAMS).get(report.appVersion));
        if (model != null) {
            check(report, model, out, letter -> ctx.output(DeadLetters.TAG, letter));
            return;
        }
        int waiting = pendingCount.value() == null ? 0 : pendingCount.value();
        if (waiting >= maxPending) {
            ctx.output(
                    DeadLetters.TAG,
                    DeadLetters.of(
                            report.raw,
                            DeadLetterReason.MODEL_WAIT_EXPIRED,
                            "no program model for "
                                    + report.appVersion
                                    + " and "
                                    + maxPending
                                    + " reports already wait for it"));
            return;
        }
        pending.add(report);
        pendingCount.update(waiting + 1);
        ctx.timerService().registerEventTimeTimer(report.raw.timestamp + modelWaitMillis);
    }

    @Override
    public void processBroadcastElement(
            ProgramUpdate update, Context ctx, Collector<ReportRecord> out) throws Exception {
        ctx.getBroadcastState(PROGRAMS).put(update.appVersion, update.model);
        ProgramIndex model = cache.get(update.appVersion, update.model);
        ctx.applyToKeyedState(
                PENDING,
                (key, state) -> {
                    if (key.f0.equals(update.appVersion)) {
                        for (ReportRecord report : state.get()) {
                            long windowEnd =
                                    TimeWindow.getWindowStartWithOffset(
                                                    report.raw.timestamp, 0, windowMillis)
                                            + windowMillis;
                            if (windowEnd - 1 <= ctx.currentWatermark()) {
                                ctx.output(
                                        DeadLetters.TAG,
                                        DeadLetters.of(
                                                report.raw,
                                                DeadLetterReason.OTHER,
                                                "late: its program model arrived after its"
                                                        + " window closed"));
                            } else {
                                check(
                                        report,
                                        model,
                                        out,
                                        letter -> ctx.output(DeadLetters.TAG, letter));
                            }
                        }
                        state.clear();
                    }
                });
        ctx.applyToKeyedState(
                PENDING_COUNT,
                (key, state) -> {
                    if (key.f0.equals(update.appVersion)) {
                        state.clear();
                    }
                });
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<ReportRecord> out)
            throws Exception {
        List<ReportRecord> keep = new ArrayList<>();
        for (ReportRecord report : pending.get()) {
            if (report.raw.timestamp + modelWaitMillis <= timestamp) {
                ctx.output(
                        DeadLetters.TAG,
                        DeadLetters.of(
                                report.raw,
                                DeadLetterReason.MODEL_WAIT_EXPIRED,
                                "no program model for app version '"
                                        + report.appVersion
                                        + "' within "
                                        + Duration.ofMillis(modelWaitMillis)
                                        + " of the report"));
            } else {
                keep.add(report);
            }
        }
        pending.update(keep);
        if (keep.isEmpty()) {
            pendingCount.clear();
        } else {
            pendingCount.update(keep.size());
        }
    }

    private static void check(
            ReportRecord report,
            ProgramIndex model,
            Collector<ReportRecord> out,
            Consumer<EncodedRecord> deadLetters) {
        ReportValidation.Failure failure = ReportValidation.check(report, model);
        if (failure == null) {
            out.collect(report);
        } else {
            deadLetters.accept(DeadLetters.of(report.raw, failure.reason(), failure.message()));
        }
    }
}
