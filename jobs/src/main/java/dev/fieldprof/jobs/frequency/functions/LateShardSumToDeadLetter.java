package dev.fieldprof.jobs.frequency.functions;

import dev.fieldprof.jobs.frequency.DeadLetters;
import dev.fieldprof.jobs.frequency.records.EncodedRecord;
import dev.fieldprof.jobs.frequency.records.RawRecord;
import dev.fieldprof.jobs.frequency.records.WindowSum;
import dev.fieldprof.schemas.DeadLetterReason;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
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
        // No single record to keep: the letter names the window, the shard and the report count.
        RawRecord origin =
                new RawRecord(
                        reportsTopic,
                        -1,
                        -1,
                        late.windowStart,
                        late.appVersion.getBytes(StandardCharsets.UTF_8),
                        null);
        return DeadLetters.of(
                origin,
                DeadLetterReason.WINDOW_DROPPED,
                "the sum of "
                        + late.sum.getReports()
                        + " reports of "
                        + late.appVersion
                        + " (config "
                        + late.configId
                        + ", shard "
                        + late.shard
                        + ") for window ["
                        + Instant.ofEpochMilli(late.windowStart)
                        + ", "
                        + Instant.ofEpochMilli(late.windowEnd)
                        + ") arrived after that window was estimated");
    }
}
