package dev.fieldprof.jobs.frequency.functions;

import dev.fieldprof.jobs.frequency.core.DeadLetters;
import dev.fieldprof.jobs.frequency.core.SequenceWindow;
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
 * checked against its device and app version's {@link SequenceWindow}, one entry of 16 bytes per
 * device that lives until the device has sent no new report for the device TTL ({@link
 * #DEFAULT_DEVICE_TTL}, 90 days): a backlog re-sent after an outage shorter than that counts once;
 * the state of a device silent for longer (one that left, or an id sent once and never again) is
 * dropped, and a re-send arriving after that is counted again. An unnumbered report (v1 devices) is
 * remembered by its report id until the TTL passes, which must exceed the longest re-send delay.
 * Both times are processing time.
 */
public final class DeduplicateReports
        extends KeyedProcessFunction<String, ReportRecord, ReportRecord> {
    private static final long serialVersionUID = 1L;

    /** How long the sequence window of a device that sends nothing new is kept. */
    public static final Duration DEFAULT_DEVICE_TTL = Duration.ofDays(90);

    private final Duration ttl;
    private final Duration deviceTtl;
    private transient ValueState<long[]> sequences;
    private transient ValueState<Boolean> seen;
    private transient Counter duplicates;

    /**
     * @param ttl how long the id of an unnumbered report is remembered
     */
    public DeduplicateReports(Duration ttl) {
        this(ttl, DEFAULT_DEVICE_TTL);
    }

    /**
     * @param ttl how long the id of an unnumbered report is remembered
     * @param deviceTtl how long the sequence window of a device that sends no new report is kept
     */
    public DeduplicateReports(Duration ttl, Duration deviceTtl) {
        this.ttl = ttl;
        this.deviceTtl = deviceTtl;
    }

    @Override
    public void open(OpenContext context) {
        ValueStateDescriptor<long[]> windows =
                new ValueStateDescriptor<>(
                        "report-sequences", PrimitiveArrayTypeInfo.LONG_PRIMITIVE_ARRAY_TYPE_INFO);
        // Refreshed by each new report (a write), not by duplicates: silence is what expires it.
        windows.enableTimeToLive(expiringAfter(deviceTtl));
        sequences = getRuntimeContext().getState(windows);
        ValueStateDescriptor<Boolean> descriptor =
                new ValueStateDescriptor<>("report-seen", Types.BOOLEAN);
        descriptor.enableTimeToLive(expiringAfter(ttl));
        seen = getRuntimeContext().getState(descriptor);
        duplicates = getRuntimeContext().getMetricGroup().counter("duplicateReports");
    }

    private static StateTtlConfig expiringAfter(Duration ttl) {
        return StateTtlConfig.newBuilder(ttl)
                .setUpdateType(StateTtlConfig.UpdateType.OnCreateAndWrite)
                .setStateVisibility(StateTtlConfig.StateVisibility.NeverReturnExpired)
                .build();
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
