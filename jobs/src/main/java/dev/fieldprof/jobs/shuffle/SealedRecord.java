package dev.fieldprof.jobs.shuffle;

import java.io.Serializable;

/**
 * A decoded SealedReport with where it came from: what deduplication and batching need. Its device
 * id, sequence and arrival time stay inside the job. A Flink POJO.
 */
public class SealedRecord implements Serializable {
    private static final long serialVersionUID = 1L;

    public String deviceId;
    public String appVersion;
    public String configId;
    public long sequence;

    /** The record as read: its SealedReport bytes are what a dead letter of it keeps. */
    public HeldReport held;

    public SealedRecord() {}

    public SealedRecord(
            String deviceId, String appVersion, String configId, long sequence, HeldReport held) {
        this.deviceId = deviceId;
        this.appVersion = appVersion;
        this.configId = configId;
        this.sequence = sequence;
        this.held = held;
    }
}
