package dev.fieldprof.jobs.io;

import dev.fieldprof.schemas.DeadLetter;
import dev.fieldprof.schemas.DeadLetterReason;
import dev.fieldprof.schemas.RecordCodec;
import java.nio.ByteBuffer;
import java.time.Instant;

/** Turns a record a job cannot use into a DeadLetter for {@code fieldprof.dead-letters}. */
public final class DeadLetterRecords {
    private static final RecordCodec<DeadLetter> CODEC = RecordCodec.of(DeadLetter.class);

    private DeadLetterRecords() {}

    /** The dead letter of {@code raw}, keyed like it, naming the rejecting {@code job}. */
    public static EncodedRecord of(
            String job, RawRecord raw, DeadLetterReason reason, String message) {
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
                        .setJob(job)
                        .setDetectedAtMillis(Instant.now())
                        .build();
        return new EncodedRecord(raw.key, CODEC.encode(letter));
    }
}
