package dev.fieldprof.jobs.io;

import org.apache.flink.api.common.eventtime.SerializableTimestampAssigner;

/**
 * Event time is the Kafka record timestamp, set when the report is sent, never the device clock
 * (docs/architecture.md, "Topics and records").
 */
public final class RecordTimestamp implements SerializableTimestampAssigner<RawRecord> {
    private static final long serialVersionUID = 1L;

    @Override
    public long extractTimestamp(RawRecord record, long previous) {
        return record.timestamp;
    }
}
