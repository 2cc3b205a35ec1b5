package dev.fieldprof.jobs.shuffle;

import dev.fieldprof.jobs.io.RawRecord;
import java.io.Serializable;

/**
 * One report a group holds until its batch is released or its wait expires: the SealedReport's
 * bytes as they were read and where they were read (for a dead letter), nothing decoded twice. The
 * topic is the job's input topic, so it is not kept per report. A Flink POJO.
 */
public class HeldReport implements Serializable {
    private static final long serialVersionUID = 1L;

    public int partition;
    public long offset;

    /** The input record's Kafka timestamp: kept for a dead letter only, never released. */
    public long timestamp;

    public byte[] key;

    /** The SealedReport as encoded by the device. */
    public byte[] value;

    public HeldReport() {}

    public static HeldReport of(RawRecord raw) {
        HeldReport held = new HeldReport();
        held.partition = raw.partition;
        held.offset = raw.offset;
        held.timestamp = raw.timestamp;
        held.key = raw.key;
        held.value = raw.value;
        return held;
    }

    /** The record as read from {@code topic}, for a dead letter. */
    public RawRecord toRaw(String topic) {
        return new RawRecord(topic, partition, offset, timestamp, key, value);
    }
}
