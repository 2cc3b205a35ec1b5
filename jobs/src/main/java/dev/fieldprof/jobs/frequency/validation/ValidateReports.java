package dev.fieldprof.jobs.frequency.validation;

import dev.fieldprof.jobs.frequency.core.DeadLetters;
import dev.fieldprof.jobs.frequency.core.ProgramShape;
import dev.fieldprof.jobs.frequency.core.ReportValidation;
import dev.fieldprof.jobs.frequency.records.ProgramUpdate;
import dev.fieldprof.jobs.frequency.records.ReportRecord;
import dev.fieldprof.jobs.io.EncodedRecord;
import dev.fieldprof.schemas.DeadLetterReason;
import dev.fieldprof.schemas.RecordDecodingException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
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
 * version, shard) ({@link CopyProgramToShards}), so that a model reaches every key whose reports
 * may wait for it. What validation needs of a model (its {@link ProgramShape}: |V| and the privacy
 * configurations, the latest generations first) is held in memory per instance ({@link
 * KnownPrograms}) and saved in union operator state: the per-report work reads no state and no
 * model, and after a restore with another shard count or parallelism every instance knows every
 * model at once.
 *
 * <p>A report is validated against the latest generation of its app version's model; one that fits
 * only an earlier generation (sent by a device of before the model's republication) counts under
 * that generation, and one that fits none is dead-lettered MODEL_CHANGED. Downstream, sums and
 * cumulative estimates are kept per generation, so parameters never mix.
 *
 * <p>A report whose model is unknown waits in keyed state until the model arrives, or for at most
 * the model wait of processing time (then MODEL_WAIT_EXPIRED). The wait is wall-clock time because
 * it covers how long models take to be published and read, which has nothing to do with the
 * reports' timestamps. At most {@code maxPending} reports wait in one instance, whatever their app
 * versions (then PENDING_LIMIT). When both inputs end (bounded runs), reports still waiting are
 * dead-lettered.
 *
 * <p>Why an operator and not a process function: while a report waits, the watermark this operator
 * emits stays below the report's timestamp ({@link WatermarkHold}), so when its model arrives the
 * report still counts in its own window. The hold of one report lasts at most {@code holdLimit}
 * (wall clock): an app version that is never published (misspelled, fake) delays the windows of
 * every other app on this instance by at most that much, however many such versions arrive. A
 * report whose model comes after its hold ended is still validated, and is a LATE dead letter if
 * its window has closed by then. The program models never take part in event time (their source is
 * idle; see {@code EventTime.ofReferenceData}).
 */
public final class ValidateReports extends AbstractStreamOperator<ReportRecord>
        implements TwoInputStreamOperator<ReportRecord, ProgramUpdate, ReportRecord>,
                Triggerable<Tuple2<String, Integer>, VoidNamespace>,
                BoundedMultiInput {
    private static final long serialVersionUID = 1L;

    private static final ListStateDescriptor<WaitingReport> PENDING =
            new ListStateDescriptor<>(
                    "reports-waiting-for-model", TypeInformation.of(WaitingReport.class));
    private static final ListStateDescriptor<byte[]> SHAPES =
            new ListStateDescriptor<>(
                    "program-shapes", PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO);

    private final long modelWaitMillis;
    private final long holdLimitMillis;
    private final int maxPending;

    private transient ListState<WaitingReport> pending;
    private transient ListState<byte[]> savedShapes;
    private transient KnownPrograms programs;
    private transient InternalTimerService<VoidNamespace> modelWaitTimers;
    private transient WatermarkHold hold;
    private transient int pendingCount;
    private transient long inputWatermark;
    private transient long emittedWatermark;
    private transient int endedInputs;

    /**
     * @param modelWait how long (processing time) a report waits for its program model
     * @param holdLimit how long (processing time) a waiting report holds the watermark back, at
     *     most the model wait
     * @param maxPending how many reports may wait in one operator instance, over all app versions
     */
    public ValidateReports(Duration modelWait, Duration holdLimit, int maxPending) {
        if (maxPending < 0) {
            throw new IllegalArgumentException("maxPending must be >= 0, got " + maxPending);
        }
        if (modelWait.isNegative() || holdLimit.isNegative()) {
            throw new IllegalArgumentException(
                    "modelWait and holdLimit must be >= 0, got " + modelWait + ", " + holdLimit);
        }
        this.modelWaitMillis = modelWait.toMillis();
        this.holdLimitMillis = Math.min(holdLimit.toMillis(), modelWaitMillis);
        this.maxPending = maxPending;
    }

    @Override
    public void initializeState(StateInitializationContext context) throws Exception {
        super.initializeState(context);
        programs = new KnownPrograms();
        savedShapes = context.getOperatorStateStore().getUnionListState(SHAPES);
        if (context.isRestored()) {
            programs.restore(savedShapes.get());
        }
    }

    @Override
    public void snapshotState(StateSnapshotContext context) throws Exception {
        super.snapshotState(context);
        savedShapes.update(programs.snapshot());
    }

    @Override
    public void open() throws Exception {
        super.open();
        pending = getPartitionedState(PENDING);
        modelWaitTimers =
                getInternalTimerService("model-wait", VoidNamespaceSerializer.INSTANCE, this);
        inputWatermark = Long.MIN_VALUE;
        emittedWatermark = Long.MIN_VALUE;
        // The hold and the count are not state of their own: they are rebuilt from the waiting
        // reports after a restore.
        hold = new WatermarkHold();
        pendingCount = 0;
        getMetricGroup().gauge("reportsWaitingForModel", () -> pendingCount);
        // How far the hold keeps event time behind the input (0 when nothing waits).
        getMetricGroup()
                .gauge(
                        "watermarkHoldLagMillis",
                        () ->
                                inputWatermark == Long.MIN_VALUE
                                                || emittedWatermark == Long.MIN_VALUE
                                        ? 0L
                                        : Math.max(0L, inputWatermark - emittedWatermark));
        getKeyedStateBackend()
                .applyToAllKeys(
                        VoidNamespace.INSTANCE,
                        VoidNamespaceSerializer.INSTANCE,
                        PENDING,
                        (key, reports) -> {
                            for (WaitingReport waiting : waiting(reports)) {
                                pendingCount++;
                                if (waiting.held) {
                                    hold.add(waiting.report.raw.timestamp);
                                }
                            }
                        });
    }

    @Override
    public void processElement1(StreamRecord<ReportRecord> element) throws Exception {
        ReportRecord report = element.getValue();
        List<ProgramShape> generations = programs.generations(report.appVersion);
        if (!generations.isEmpty()) {
            check(report, generations);
            return;
        }
        if (pendingCount >= maxPending) {
            deadLetter(
                    report,
                    DeadLetterReason.PENDING_LIMIT,
                    "no program model for "
                            + report.appVersion
                            + " and "
                            + maxPending
                            + " reports already wait for models in this instance (--max-pending)");
            return;
        }
        long now = getProcessingTimeService().getCurrentProcessingTime();
        WaitingReport waiting =
                new WaitingReport(now + modelWaitMillis, now + holdLimitMillis, report);
        pending.add(waiting);
        pendingCount++;
        hold.add(report.raw.timestamp);
        modelWaitTimers.registerProcessingTimeTimer(VoidNamespace.INSTANCE, waiting.deadline);
        if (waiting.holdUntil < waiting.deadline) {
            modelWaitTimers.registerProcessingTimeTimer(VoidNamespace.INSTANCE, waiting.holdUntil);
        }
    }

    @Override
    public void processElement2(StreamRecord<ProgramUpdate> element) throws Exception {
        ProgramUpdate update = element.getValue();
        programs.learn(ProgramShape.fromBytes(update.shape));
        List<ProgramShape> generations = programs.generations(update.appVersion);
        int released = 0;
        for (WaitingReport waiting : waiting(pending)) {
            release(waiting);
            check(waiting.report, generations);
            released++;
        }
        if (released > 0) {
            pending.clear();
            pendingCount -= released;
            // Timers of released reports stay registered and find nothing to expire.
            emitAllowedWatermark();
        }
    }

    @Override
    public void onProcessingTime(InternalTimer<Tuple2<String, Integer>, VoidNamespace> timer)
            throws Exception {
        long now = timer.getTimestamp();
        List<WaitingReport> keep = new ArrayList<>();
        boolean changed = false;
        for (WaitingReport waiting : waiting(pending)) {
            if (waiting.deadline <= now) {
                release(waiting);
                pendingCount--;
                changed = true;
                deadLetter(
                        waiting.report,
                        DeadLetterReason.MODEL_WAIT_EXPIRED,
                        "no program model for app version '"
                                + waiting.report.appVersion
                                + "' within "
                                + Duration.ofMillis(modelWaitMillis)
                                + " of the report's arrival");
                continue;
            }
            if (waiting.held && waiting.holdUntil <= now) {
                release(waiting);
                changed = true;
            }
            keep.add(waiting);
        }
        if (changed) {
            pending.update(keep);
            emitAllowedWatermark();
        }
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
                                release(waiting);
                                deadLetter(
                                        waiting.report,
                                        DeadLetterReason.MODEL_WAIT_EXPIRED,
                                        "the input ended before the program model of app"
                                                + " version '"
                                                + waiting.report.appVersion
                                                + "' arrived");
                            }
                            reports.clear();
                        });
        pendingCount = 0;
        emitAllowedWatermark();
    }

    /** Ends the report's hold on the watermark, if it still holds it. */
    private void release(WaitingReport waiting) {
        if (waiting.held) {
            hold.remove(waiting.report.raw.timestamp);
            waiting.held = false;
        }
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

    /**
     * Validates against the latest generation, then the earlier ones: the report counts under the
     * first it fits; one that fits none fails with the latest's reason, or MODEL_CHANGED when the
     * model was republished with other parameters.
     */
    private void check(ReportRecord report, List<ProgramShape> generations) {
        try {
            ReportValidation.readArrays(report);
        } catch (RecordDecodingException e) {
            deadLetter(report, DeadLetterReason.UNDECODABLE, e.getMessage());
            return;
        }
        ReportValidation.Failure latest = null;
        for (ProgramShape shape : generations) {
            ReportValidation.Failure failure = ReportValidation.check(report, shape);
            if (failure == null) {
                report.generation = shape.generation();
                if (report.subset.length != 0) {
                    // Summed as its indicator vector by the window, not expanded here: a dense
                    // vector of |V| ints per report would make its cost grow with the program.
                    report.methods = shape.methodCount();
                }
                // Valid: the counts are all that is summed; the bytes stay in Kafka.
                report.raw = report.raw.withoutBytes();
                // The report's own time, also for one released by a model record.
                output.collect(new StreamRecord<>(report, report.raw.timestamp));
                return;
            }
            if (latest == null) {
                latest = failure;
            }
        }
        if (generations.size() == 1) {
            deadLetter(report, latest.reason(), latest.message());
        } else {
            deadLetter(
                    report,
                    DeadLetterReason.MODEL_CHANGED,
                    latest.message()
                            + "; the model of "
                            + report.appVersion
                            + " was republished with other parameters and the report fits none of"
                            + " its last "
                            + generations.size()
                            + " generations (latest: "
                            + generations.get(0).describe()
                            + ")");
        }
    }

    private void deadLetter(ReportRecord report, DeadLetterReason reason, String message) {
        EncodedRecord letter = DeadLetters.of(report.raw, reason, message);
        output.collect(DeadLetters.TAG, new StreamRecord<>(letter, report.raw.timestamp));
    }
}
