package dev.fieldprof.jobs.io;

import java.time.Duration;
import org.apache.flink.api.common.eventtime.SerializableTimestampAssigner;

/**
 * The event time of a report: its Kafka record timestamp (the broker's append time on the report
 * topics), but never later than the job's wall clock plus the out-of-orderness bound. On a topic
 * that keeps the producer's time, a device clock set ahead would otherwise put its report into a
 * window that closes only in the future.
 */
public final class ReportTimestamp implements SerializableTimestampAssigner<RawRecord> {
    private static final long serialVersionUID = 1L;

    private final long toleranceMillis;

    /**
     * @param outOfOrderness how far ahead of the job's clock the broker's clock may be (≥ 0)
     */
    public ReportTimestamp(Duration outOfOrderness) {
        this.toleranceMillis = outOfOrderness.toMillis();
    }

    @Override
    public long extractTimestamp(RawRecord record, long previous) {
        return Math.min(record.timestamp, System.currentTimeMillis() + toleranceMillis);
    }
}
