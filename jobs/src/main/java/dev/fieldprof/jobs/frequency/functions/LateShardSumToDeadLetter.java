package dev.fieldprof.jobs.frequency.functions;

import dev.fieldprof.jobs.frequency.core.DeadLetters;
import dev.fieldprof.jobs.frequency.records.WindowSum;
import dev.fieldprof.jobs.io.EncodedRecord;
import dev.fieldprof.schemas.DeadLetterReason;
import org.apache.flink.api.common.functions.MapFunction;

/**
 * A shard's sum that reached the merge after its window had been estimated: a WINDOW_DROPPED dead
 * letter that says how many reports it stands for, never a silent drop. Event time that follows the
 * wall clock (no idle channels) keeps this from happening; this is the guard that would show it if
 * it did.
 */
public final class LateShardSumToDeadLetter implements MapFunction<WindowSum, EncodedRecord> {
    private static final long serialVersionUID = 1L;

    private final String reportsTopic;

    /**
     * @param reportsTopic the topic the summed reports were read from
     */
    public LateShardSumToDeadLetter(String reportsTopic) {
        this.reportsTopic = reportsTopic;
    }

    @Override
    public EncodedRecord map(WindowSum late) {
        return DeadLetters.ofWindowSum(
                reportsTopic,
                late,
                DeadLetterReason.WINDOW_DROPPED,
                "arrived after that window was estimated");
    }
}
