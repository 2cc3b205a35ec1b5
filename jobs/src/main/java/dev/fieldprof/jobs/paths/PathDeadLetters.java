package dev.fieldprof.jobs.paths;

import dev.fieldprof.jobs.frequency.records.EncodedRecord;
import dev.fieldprof.jobs.frequency.records.RawRecord;
import dev.fieldprof.schemas.DeadLetter;
import dev.fieldprof.schemas.DeadLetterReason;
import dev.fieldprof.schemas.RecordCodec;
import java.nio.ByteBuffer;
import java.time.Instant;
import org.apache.flink.util.OutputTag;

/** Dead letters of the {@link PathModelJob}: the rejected record whole, with the reason. */
public final class PathDeadLetters {
    /** The job name written into every dead letter. */
    public static final String JOB = "fieldprof-path-model";

    /** The side output every function of the job sends its dead letters to. */
    public static final OutputTag<EncodedRecord> TAG =
            new OutputTag<>("path-dead-letters") {
                private static final long serialVersionUID = 1L;
            };

    private static final RecordCodec<DeadLetter> CODEC = RecordCodec.of(DeadLetter.class);

    private PathDeadLetters() {}

    /** The dead letter of {@code raw}, keyed like it. */
    public static EncodedRecord of(RawRecord raw, DeadLetterReason reason, String message) {
        DeadLetter letter =
                DeadLetter.newBuilder()
                        .setSourceTopic(raw.topic == null ? "" : raw.topic)
                        .setPartition(raw.partition)
                        .setOffset(raw.offset)
                        .setRecordTimestampMillis(Instant.ofEpochMilli(raw.timestamp))
                        .setKey(raw.key == null ? null : ByteBuffer.wrap(raw.key))
                        .setValue(raw.value == null ? null : ByteBuffer.wrap(raw.value))
                        .setReasonCode(reason)
                        .setReason(message)
                        .setJob(JOB)
                        .setDetectedAtMillis(Instant.now())
                        .build();
        return new EncodedRecord(raw.key, CODEC.encode(letter));
    }
}
