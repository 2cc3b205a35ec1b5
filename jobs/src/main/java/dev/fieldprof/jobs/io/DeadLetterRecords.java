package dev.fieldprof.jobs.io;

import dev.fieldprof.schemas.DeadLetter;
import dev.fieldprof.schemas.DeadLetterReason;
import dev.fieldprof.schemas.RecordCodec;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.Arrays;

/**
 * Turns a record a job cannot use into a DeadLetter for {@code fieldprof.dead-letters}.
 *
 * <p>A dead letter keeps the record's key and value, cut to {@link #MAX_KEPT_KEY_BYTES} and {@link
 * #MAX_KEPT_VALUE_BYTES}, and a reason cut to {@link #MAX_REASON_CHARS}: the rejected record may be
 * as large as its topic allows (64 MiB on the programs topic), and a dead letter larger than the
 * dead-letter topic's 1 MiB limit (or the producer's) would fail the job's sink, so that one
 * hostile record would stop the job after all. The reason says when the value was cut.
 */
public final class DeadLetterRecords {
    /** The most of a rejected record's key a dead letter keeps (also its own Kafka key). */
    public static final int MAX_KEPT_KEY_BYTES = 64 * 1024;

    /** The most of a rejected record's value a dead letter keeps. */
    public static final int MAX_KEPT_VALUE_BYTES = 512 * 1024;

    /** The longest reason a dead letter carries (a reason may quote a field of the record). */
    public static final int MAX_REASON_CHARS = 8 * 1024;

    private static final RecordCodec<DeadLetter> CODEC = RecordCodec.of(DeadLetter.class);

    private DeadLetterRecords() {}

    /** The dead letter of {@code raw}, keyed like it, naming the rejecting {@code job}. */
    public static EncodedRecord of(
            String job, RawRecord raw, DeadLetterReason reason, String message) {
        byte[] key = cut(raw.key, MAX_KEPT_KEY_BYTES);
        byte[] value = cut(raw.value, MAX_KEPT_VALUE_BYTES);
        String reasonText = message == null ? "" : message;
        if (reasonText.length() > MAX_REASON_CHARS) {
            reasonText = reasonText.substring(0, MAX_REASON_CHARS) + "...";
        }
        if (value != raw.value) {
            reasonText +=
                    " (value cut to its first "
                            + value.length
                            + " of "
                            + raw.value.length
                            + " bytes)";
        }
        DeadLetter letter =
                DeadLetter.newBuilder()
                        .setSourceTopic(raw.topic == null ? "" : raw.topic)
                        .setPartition(raw.partition)
                        .setOffset(raw.offset)
                        .setRecordTimestampMillis(Instant.ofEpochMilli(raw.timestamp))
                        .setKey(key == null ? null : ByteBuffer.wrap(key))
                        .setValue(value == null ? null : ByteBuffer.wrap(value))
                        .setReasonCode(reason)
                        .setReason(reasonText)
                        .setJob(job)
                        .setDetectedAtMillis(Instant.now())
                        .build();
        return new EncodedRecord(key, CODEC.encode(letter));
    }

    /** {@code bytes} itself when within {@code limit}, else its first {@code limit} bytes. */
    private static byte[] cut(byte[] bytes, int limit) {
        return bytes == null || bytes.length <= limit ? bytes : Arrays.copyOf(bytes, limit);
    }
}
