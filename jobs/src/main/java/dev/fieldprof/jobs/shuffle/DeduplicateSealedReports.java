package dev.fieldprof.jobs.shuffle;

import dev.fieldprof.jobs.frequency.core.SequenceWindow;
import dev.fieldprof.schemas.DeadLetterReason;
import java.time.Duration;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.StateTtlConfig;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Forwards each (device id, app version, sequence) once, although devices re-send reports whose
 * acknowledgement they missed: a batch must hold distinct reports, or its size would overstate the
 * crowd a report hides in. Keyed by {@link ShufflerKeys.Sender}; each device and app version has a
 * {@link SequenceWindow} (16 bytes) that lives until the device has sent no new report for the
 * device TTL (processing time): the state stays bounded by the devices active within it. A report
 * more than {@link SequenceWindow#SIZE} behind its device's latest is a SEQUENCE_TOO_OLD dead
 * letter (whether it was forwarded is no longer known); a re-send after the TTL is forwarded again.
 */
public final class DeduplicateSealedReports
        extends KeyedProcessFunction<Tuple2<String, String>, SealedRecord, SealedRecord> {
    private static final long serialVersionUID = 1L;

    private final String inputTopic;
    private final Duration deviceTtl;
    private transient ValueState<long[]> sequences;
    private transient Counter duplicates;

    /**
     * @param inputTopic the topic the reports were read from, named in dead letters
     * @param deviceTtl how long the sequence window of a device that sends no new report is kept
     */
    public DeduplicateSealedReports(String inputTopic, Duration deviceTtl) {
        this.inputTopic = inputTopic;
        this.deviceTtl = deviceTtl;
    }

    @Override
    public void open(OpenContext context) {
        ValueStateDescriptor<long[]> windows =
                new ValueStateDescriptor<>(
                        "sealed-report-sequences",
                        PrimitiveArrayTypeInfo.LONG_PRIMITIVE_ARRAY_TYPE_INFO);
        // Refreshed by each new report (a write), not by duplicates: silence is what expires it.
        windows.enableTimeToLive(
                StateTtlConfig.newBuilder(deviceTtl)
                        .setUpdateType(StateTtlConfig.UpdateType.OnCreateAndWrite)
                        .setStateVisibility(StateTtlConfig.StateVisibility.NeverReturnExpired)
                        .build());
        sequences = getRuntimeContext().getState(windows);
        duplicates = getRuntimeContext().getMetricGroup().counter("duplicateSealedReports");
    }

    @Override
    public void processElement(SealedRecord report, Context ctx, Collector<SealedRecord> out)
            throws Exception {
        SequenceWindow window = SequenceWindow.of(sequences.value());
        switch (window.offer(report.sequence)) {
            case NEW -> {
                sequences.update(window.toState());
                out.collect(report);
            }
            case DUPLICATE -> duplicates.inc();
            case TOO_OLD ->
                    ctx.output(
                            ShufflerDeadLetters.TAG,
                            ShufflerDeadLetters.of(
                                    report.held.toRaw(inputTopic),
                                    DeadLetterReason.SEQUENCE_TOO_OLD,
                                    "report "
                                            + report.sequence
                                            + " is more than "
                                            + SequenceWindow.SIZE
                                            + " behind its device's latest, "
                                            + window.latest()
                                            + ": whether it was forwarded is no longer known"));
        }
    }
}
