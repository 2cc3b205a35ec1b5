package dev.fieldprof.jobs.frequency;

import dev.fieldprof.jobs.frequency.records.EncodedRecord;
import dev.fieldprof.jobs.frequency.records.RawRecord;
import dev.fieldprof.jobs.io.DeadLetterRecords;
import dev.fieldprof.schemas.DeadLetterReason;
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
}
