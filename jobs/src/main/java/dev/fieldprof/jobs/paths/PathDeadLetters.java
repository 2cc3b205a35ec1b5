package dev.fieldprof.jobs.paths;

import dev.fieldprof.jobs.io.DeadLetterRecords;
import dev.fieldprof.jobs.io.EncodedRecord;
import dev.fieldprof.jobs.io.RawRecord;
import dev.fieldprof.schemas.DeadLetterReason;
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

    private PathDeadLetters() {}

    /** The dead letter of {@code raw}, keyed like it. */
    public static EncodedRecord of(RawRecord raw, DeadLetterReason reason, String message) {
        return DeadLetterRecords.of(JOB, raw, reason, message);
    }
}
