package dev.fieldprof.jobs.shuffle;

import dev.fieldprof.jobs.io.DeadLetterRecords;
import dev.fieldprof.jobs.io.EncodedRecord;
import dev.fieldprof.jobs.io.RawRecord;
import dev.fieldprof.schemas.DeadLetterReason;
import org.apache.flink.util.OutputTag;

/**
 * Turns a record the shuffler cannot forward into a DeadLetter. A shuffler's dead letter keeps the
 * SealedReport whole (its device id and sequence too), so it belongs on a topic of the shuffler's
 * operator, never on one the analyst reads.
 */
public final class ShufflerDeadLetters {
    /** The job name written into every dead letter. */
    public static final String JOB = "fieldprof-shuffler";

    /** The side output every function of the job sends its dead letters to. */
    public static final OutputTag<EncodedRecord> TAG =
            new OutputTag<>("shuffler-dead-letters") {
                private static final long serialVersionUID = 1L;
            };

    private ShufflerDeadLetters() {}

    /** The dead letter of {@code raw}, keyed like it. */
    public static EncodedRecord of(RawRecord raw, DeadLetterReason reason, String message) {
        return DeadLetterRecords.of(JOB, raw, reason, message);
    }
}
