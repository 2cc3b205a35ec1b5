package dev.fieldprof.jobs.frequency.core;

import dev.fieldprof.jobs.frequency.records.WindowSum;
import dev.fieldprof.jobs.io.DeadLetterRecords;
import dev.fieldprof.jobs.io.EncodedRecord;
import dev.fieldprof.jobs.io.RawRecord;
import dev.fieldprof.schemas.DeadLetterReason;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.apache.flink.util.OutputTag;

/** Turns a record the job cannot use into a DeadLetter for {@code fieldprof.dead-letters}. */
public final class DeadLetters {
    /** The job name written into every dead letter. */
    public static final String JOB = "fieldprof-frequency-estimation";

    /** The side output every function of the job sends its dead letters to. */
    public static final OutputTag<EncodedRecord> TAG =
            new OutputTag<>("dead-letters") {
                private static final long serialVersionUID = 1L;
            };

    private DeadLetters() {}

    /** The dead letter of {@code raw}, keyed like it. */
    public static EncodedRecord of(RawRecord raw, DeadLetterReason reason, String message) {
        return DeadLetterRecords.of(JOB, raw, reason, message);
    }

    /**
     * A dead letter standing for the reports of a window sum: no single record to keep, so it names
     * the window, the shard and the report count.
     */
    public static EncodedRecord ofWindowSum(
            String reportsTopic, WindowSum sum, DeadLetterReason reason, String why) {
        RawRecord origin =
                new RawRecord(
                        reportsTopic,
                        -1,
                        -1,
                        sum.windowStart,
                        sum.appVersion.getBytes(StandardCharsets.UTF_8),
                        null);
        return of(
                origin,
                reason,
                "the sum of "
                        + sum.sum.getReports()
                        + " reports of "
                        + sum.appVersion
                        + " (config "
                        + sum.configId
                        + ", model generation "
                        + Long.toHexString(sum.generation)
                        + (sum.shard >= 0 ? ", shard " + sum.shard : "")
                        + ") for window ["
                        + Instant.ofEpochMilli(sum.windowStart)
                        + ", "
                        + Instant.ofEpochMilli(sum.windowEnd)
                        + ") "
                        + why);
    }
}
