package dev.fieldprof.jobs.shuffle;

import org.apache.flink.api.common.eventtime.SerializableTimestampAssigner;

/**
 * Stamps each released part with its batch's release time, which the Kafka sink writes as the
 * record's timestamp: otherwise a part released on a new report's arrival would carry that report's
 * broker time.
 */
public final class StampReleaseTime implements SerializableTimestampAssigner<ReleasedPart> {
    private static final long serialVersionUID = 1L;

    @Override
    public long extractTimestamp(ReleasedPart part, long recordTimestamp) {
        return part.releasedAtMillis;
    }
}
