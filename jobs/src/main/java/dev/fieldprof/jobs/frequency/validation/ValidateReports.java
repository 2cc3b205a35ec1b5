package dev.fieldprof.jobs.frequency.validation;

import dev.fieldprof.jobs.frequency.DeadLetters;
import dev.fieldprof.jobs.frequency.ProgramCache;
import dev.fieldprof.jobs.frequency.ProgramIndex;
import dev.fieldprof.jobs.frequency.ReportValidation;
import dev.fieldprof.jobs.frequency.records.EncodedRecord;
import dev.fieldprof.jobs.frequency.records.ProgramUpdate;
import dev.fieldprof.jobs.frequency.records.ReportRecord;
import dev.fieldprof.schemas.DeadLetterReason;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.runtime.state.VoidNamespace;
import org.apache.flink.runtime.state.VoidNamespaceSerializer;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedMultiInput;
import org.apache.flink.streaming.api.operators.InternalTimer;
import org.apache.flink.streaming.api.operators.InternalTimerService;
import org.apache.flink.streaming.api.operators.Triggerable;
import org.apache.flink.streaming.api.operators.TwoInputStreamOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.runtime.watermarkstatus.WatermarkStatus;

/**
 * Validates reports against the program model of their app version, and holds event time back while
 * reports wait for a model that has not arrived.
 *
 * <p>Input 1: reports keyed by (app version, shard). Input 2: program models, one copy per (app
 * version, shard) ({@link CopyProgramToShards}), so each key keeps the model it validates against.
 * A report whose model is unknown waits in keyed state until the model arrives, or for at most the
 * model wait of processing time (then MODEL_WAIT_EXPIRED); at most {@code maxPending} wait per key.
 * The wait is wall-clock time because it covers how long models take to be published and read,
 * which has nothing to do with the reports' timestamps: read from a backlog, hours of event time
 * pass in seconds. When both inputs end (bounded runs), reports still waiting are dead-lettered.
 *
 * <p>Why an operator and not a process function: while a report waits, the watermark this operator
 * emits stays below the report's timestamp ({@link WatermarkHold}), so when its model arrives the
 * report still counts in its own window, whenever the model was published and whether or not
 * reports are flowing. The program models never take part in event time (their source is idle; see
 * {@code EventTime.ofReferenceData}): a model stamped after its reports cannot close their windows.
 * The cost: while some report waits, windows close up to the model wait later.
 */
public final class ValidateReports extends AbstractStreamOperator<ReportRecord>
        implements TwoInputStreamOperator<ReportRecord, ProgramUpdate, ReportRecord>,
                Triggerable<Tuple2<String, Integer>, VoidNamespace>,
                BoundedMultiInput {
    private static final long serialVersionUID = 1L;

    private static final ValueStateDescriptor<byte[]> MODEL =
            new ValueStateDescriptor<>(
                    "program-model", PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO);
    private static final ListStateDescriptor<WaitingReport> PENDING =
            new ListStateDescriptor<>(
                    "reports-waiting-for-model", TypeInformation.of(WaitingReport.class));
    private static final ValueStateDescriptor<Integer> PENDING_COUNT =
            new ValueStateDescriptor<>("reports-waiting-count", Types.INT);

    private final long modelWaitMillis;
    private final int maxPending;

    private transient ValueState<byte[]> model;
    private transient ListState<WaitingReport> pending;
    private transient ValueState<Integer> pendingCount;
    private transient InternalTimerService<VoidNamespace> modelWaitTimers;
    private transient ProgramCache cache;
    private transient WatermarkHold hold;
    private transient long inputWatermark;
    private transient long emittedWatermark;
    private transient int endedInputs;

    /**
     * @param modelWait how long (processing time) a report waits for its program model
     * @param maxPending how many reports may wait per key
     */
    public ValidateReports(Duration modelWait, int maxPending) {
        if (maxPending < 0) {
            throw new IllegalArgumentException("maxPending must be >= 0, got " + maxPending);
        }
        if (modelWait.isNegative()) {
            throw new IllegalArgumentException("modelWait must be >= 0, got " + modelWait);
        }
        this.modelWaitMillis = modelWait.toMillis();
        this.maxPending = maxPending;
    }

    @Override
    public void open() throws Exception {
        super.open();
        model = getPartitionedState(MODEL);
        pending = getPartitionedState(PENDING);
        pendingCount = getPartitionedState(PENDING_COUNT);
        modelWaitTimers =
                getInternalTimerService("model-wait", VoidNamespaceSerializer.INSTANCE, this);
        cache = new ProgramCache();
        inputWatermark = Long.MIN_VALUE;
        emittedWatermark = Long.MIN_VALUE;
        // The hold is not state of its own: after a restore it is rebuilt from the waiting reports.
        hold = new WatermarkHold();
        getKeyedStateBackend()
                .applyToAllKeys(
                        VoidNamespace.INSTANCE,
                        VoidNamespaceSerializer.INSTANCE,
                        PENDING,
                        (key, reports) -> {
                            for (WaitingReport waiting : waiting(reports)) {
                                hold.add(waiting.report.raw.timestamp);
                            }
                        });
    }

    @Override
    public void processElement1(StreamRecord<ReportRecord> element) throws Exception {
        ReportRecord report = element.getValue();
        ProgramIndex index = cache.get(report.appVersion, model.value());
        if (index != null) {
            check(report, index);
            return;
        }
        int waiting = pendingCount.value() == null ? 0 : pendingCount.value();
        if (waiting >= maxPending) {
            deadLetter(
                    report,
                    DeadLetterReason.MODEL_WAIT_EXPIRED,
                    "no program model for "
                            + report.appVersion
                            + " and "
                            + maxPending
                            + " reports already wait for it");
            return;
        }
        long deadline = getProcessingTimeService().getCurrentProcessingTime() + modelWaitMillis;
        pending.add(new WaitingReport(deadline, report));
        pendingCount.update(waiting + 1);
        hold.add(report.raw.timestamp);
        modelWaitTimers.registerProcessingTimeTimer(VoidNamespace.INSTANCE, deadline);
    }

    @Override
    public void processElement2(StreamRecord<ProgramUpdate> element) throws Exception {
        ProgramUpdate update = element.getValue();
        byte[] previous = model.value();
        if (previous != null && Arrays.equals(previous, update.model)) {
            return;
        }
        model.update(update.model);
        ProgramIndex index = cache.get(update.appVersion, update.model);
        for (WaitingReport waiting : waiting(pending)) {
            hold.remove(waiting.report.raw.timestamp);
            check(waiting.report, index);
        }
        pending.clear();
        pendingCount.clear();
        // Timers of released reports stay registered and find nothing to expire.
        emitAllowedWatermark();
    }

    @Override
    public void onProcessingTime(InternalTimer<Tuple2<String, Integer>, VoidNamespace> timer)
            throws Exception {
        List<WaitingReport> keep = new ArrayList<>();
        for (WaitingReport waiting : waiting(pending)) {
            if (waiting.deadline <= timer.getTimestamp()) {
                expire(
                        waiting.report,
                        "no program model for app version '"
                                + waiting.report.appVersion
                                + "' within "
                                + Duration.ofMillis(modelWaitMillis)
                                + " of the report's arrival");
            } else {
                keep.add(waiting);
            }
        }
        pending.update(keep);
        if (keep.isEmpty()) {
            pendingCount.clear();
        } else {
            pendingCount.update(keep.size());
        }
        emitAllowedWatermark();
    }

    @Override
    public void onEventTime(InternalTimer<Tuple2<String, Integer>, VoidNamespace> timer) {}

    /** Once both inputs ended no model can come: the reports still waiting are dead letters. */
    @Override
    public void endInput(int inputId) throws Exception {
        if (++endedInputs < 2) {
            return;
        }
        getKeyedStateBackend()
                .applyToAllKeys(
                        VoidNamespace.INSTANCE,
                        VoidNamespaceSerializer.INSTANCE,
                        PENDING,
                        (key, reports) -> {
                            for (WaitingReport waiting : waiting(reports)) {
                                expire(
                                        waiting.report,
                                        "the input ended before the program model of app"
                                                + " version '"
                                                + waiting.report.appVersion
                                                + "' arrived");
                            }
                            reports.clear();
                        });
        getKeyedStateBackend()
                .applyToAllKeys(
                        VoidNamespace.INSTANCE,
                        VoidNamespaceSerializer.INSTANCE,
                        PENDING_COUNT,
                        (key, count) -> count.clear());
        emitAllowedWatermark();
    }

    private void expire(ReportRecord report, String message) {
        hold.remove(report.raw.timestamp);
        deadLetter(report, DeadLetterReason.MODEL_WAIT_EXPIRED, message);
    }

    /** The combined input watermark: emit what the hold allows of it. */
    @Override
    public void processWatermark(Watermark mark) throws Exception {
        inputWatermark = mark.getTimestamp();
        if (getTimeServiceManager().isPresent()) {
            getTimeServiceManager().get().advanceWatermark(mark);
        }
        emitAllowedWatermark();
    }

    private void emitAllowedWatermark() {
        long allowed = hold.allowed(inputWatermark);
        if (allowed <= emittedWatermark) {
            return;
        }
        emittedWatermark = allowed;
        if (combinedWatermark.isIdle()) {
            // The hold lifted while every input is idle (a model arrived after the reports
            // stopped): an idle output drops watermarks, so turn active for this one.
            output.emitWatermarkStatus(WatermarkStatus.ACTIVE);
            output.emitWatermark(new Watermark(allowed));
            output.emitWatermarkStatus(WatermarkStatus.IDLE);
        } else {
            output.emitWatermark(new Watermark(allowed));
        }
    }

    /** The reports in {@code state}; Flink answers null rather than an empty list. */
    private static Iterable<WaitingReport> waiting(ListState<WaitingReport> state)
            throws Exception {
        Iterable<WaitingReport> reports = state.get();
        return reports == null ? List.of() : reports;
    }

    private void check(ReportRecord report, ProgramIndex index) {
        ReportValidation.Failure failure = ReportValidation.check(report, index);
        if (failure == null) {
            // The report's own time, also for one released by a model record.
            output.collect(new StreamRecord<>(report, report.raw.timestamp));
        } else {
            deadLetter(report, failure.reason(), failure.message());
        }
    }

    private void deadLetter(ReportRecord report, DeadLetterReason reason, String message) {
        EncodedRecord letter = DeadLetters.of(report.raw, reason, message);
        output.collect(DeadLetters.TAG, new StreamRecord<>(letter, report.raw.timestamp));
    }
}
