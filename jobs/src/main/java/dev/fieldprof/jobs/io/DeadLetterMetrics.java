package dev.fieldprof.jobs.io;

import dev.fieldprof.schemas.DeadLetter;
import dev.fieldprof.schemas.RecordCodec;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.metrics.Counter;

/**
 * Counts the dead letters on their way to the dead-letter topic, one counter {@code deadLetters}
 * per reason (a {@code reason} metric variable, so operators see them per reason in any metrics
 * reporter without a metric per reason string). Passes every record on unchanged. Dead letters are
 * rare, so decoding each one's reason costs nothing that matters.
 */
public final class DeadLetterMetrics extends RichMapFunction<EncodedRecord, EncodedRecord> {
    private static final long serialVersionUID = 1L;
    private static final RecordCodec<DeadLetter> CODEC = RecordCodec.of(DeadLetter.class);

    private transient Map<String, Counter> byReason;

    @Override
    public void open(OpenContext context) {
        byReason = new HashMap<>();
    }

    @Override
    public EncodedRecord map(EncodedRecord letter) {
        String reason;
        try {
            reason = CODEC.decode(letter.value).getReasonCode().name();
        } catch (RuntimeException e) {
            reason = "OTHER";
        }
        byReason.computeIfAbsent(
                        reason,
                        r ->
                                getRuntimeContext()
                                        .getMetricGroup()
                                        .addGroup("reason", r)
                                        .counter("deadLetters"))
                .inc();
        return letter;
    }
}
