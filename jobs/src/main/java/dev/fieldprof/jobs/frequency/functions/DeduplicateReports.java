package dev.fieldprof.jobs.frequency.functions;

import dev.fieldprof.jobs.frequency.DeadLetters;
import dev.fieldprof.jobs.frequency.SequenceWindow;
import dev.fieldprof.jobs.frequency.records.ReportRecord;
import dev.fieldprof.schemas.DeadLetterReason;
import java.time.Duration;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.StateTtlConfig;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Counts every report once, although devices re-send reports whose acknowledgement they missed.
 * Keyed by {@link Keys.Sender}: a numbered report (FrequencyReport v2, {@code sequence} ≥ 1) is
 * checked against its device and app version's {@link SequenceWindow}, state that stays at one
 * entry per device and never expires, so a re-send counts once after an outage of any length. An
 * unnumbered report (v1 devices) is remembered by its report id until the TTL passes, which must
 * exceed the longest re-send delay.
 */
public final class DeduplicateReports
        extends KeyedProcessFunction<String, ReportRecord, ReportRecord> {
    private static final long serialVersionUID = 1L;

    private final Duration ttl;
    private transient ValueState<long[]> sequences;
    private transient ValueState<Boolean> seen;
    private transient Counter duplicates;

    /**
     * @param ttl how long the id of an unnumbered report is remembered
     */
    public DeduplicateReports(Duration ttl) {
        this.ttl = ttl;
    }

    @Override
    public void open(OpenContext context) {
        sequences =
                getRuntimeContext()
                        .getState(
                                new ValueStateDescriptor<>(
                                        "report-sequences",
                                        PrimitiveArrayTypeInfo.LONG_PRIMITIVE_ARRAY_TYPE_INFO));
        ValueStateDescriptor<Boolean> descriptor =
                new ValueStateDescriptor<>("report-seen", Types.BOOLEAN);
        descriptor.enableTimeToLive(
                StateTtlConfig.newBuilder(ttl)
                        .setUpdateType(StateTtlConfig.UpdateType.OnCreateAndWrite)
                        .setStateVisibility(StateTtlConfig.StateVisibility.NeverReturnExpired)
                        .build());
        seen = getRuntimeContext().getState(descriptor);
        duplicates = getRuntimeContext().getMetricGroup().counter("duplicateReports");
    }

    @Override
    public void processElement(ReportRecord report, Context ctx, Collector<ReportRecord> out)
            throws Exception {
        if (report.sequence < 1) {
            if (seen.value() != null) {
                duplicates.inc();
                return;
            }
            seen.update(Boolean.TRUE);
            out.collect(report);
            return;
        }
        SequenceWindow window = SequenceWindow.of(sequences.value());
        switch (window.offer(report.sequence)) {
            case NEW -> {
                sequences.update(window.toState());
                out.collect(report);
            }
            case DUPLICATE -> duplicates.inc();
            case TOO_OLD ->
                    ctx.output(
                            DeadLetters.TAG,
                            DeadLetters.of(
                                    report.raw,
                                    DeadLetterReason.SEQUENCE_TOO_OLD,
                                    "report "
                                            + report.sequence
                                            + " of device "
                                            + report.deviceId
                                            + " is more than "
                                            + SequenceWindow.SIZE
                                            + " behind its latest, "
                                            + window.latest()
                                            + ": whether it was counted is no longer known"));
        }
    }
}
