package dev.fieldprof.jobs.frequency.records;

import dev.fieldprof.jobs.io.RawRecord;
import java.io.Serializable;

/**
 * A decoded FrequencyReport (plain fields, so that Flink serializes it as a POJO rather than an
 * Avro object through Kryo) with the raw record it came from, for dead-lettering.
 */
public class ReportRecord implements Serializable {
    private static final long serialVersionUID = 1L;

    public String reportId;
    public String deviceId;
    public String appVersion;
    public String configId;
    public int k;
    public int[] counts;

    /**
     * A user-level report's subset (the oracle's output, increasing method ids); empty for ε-t
     * reports. It stays a list of ids through validation and is summed as the 0/1 indicator vector
     * over {@link #methods} methods, so a report costs its own size, not the program's.
     */
    public int[] subset = new int[0];

    /**
     * |V| of the program a valid user-level report was validated against (0 before validation and
     * for ε-t reports, whose {@link #counts} have that length).
     */
    public int methods;

    public RawRecord raw;

    /**
     * The {@code ProgramShape} generation the report was validated against (0 before validation):
     * it is summed only with reports of the same generation.
     */
    public long generation;

    /** The report's number among its device's reports of this app version; 0: unnumbered (v1). */
    public long sequence;

    /** The ε the device randomized with; 0: not stated (a device before FrequencyReport v4). */
    public double epsilon;

    /** The t the device randomized with; 0: not stated. */
    public int t;

    /**
     * The shuffled batch the report was opened from (the shuffled mode); null for a report read
     * straight from the reports topic.
     */
    public String batchId;

    /**
     * The size its shuffled batch declares; 0 for a report read straight from the reports topic.
     */
    public int batchSize;

    public ReportRecord() {}

    public ReportRecord(
            String reportId,
            String deviceId,
            String appVersion,
            String configId,
            int k,
            int[] counts,
            RawRecord raw) {
        this.reportId = reportId;
        this.deviceId = deviceId;
        this.appVersion = appVersion;
        this.configId = configId;
        this.k = k;
        this.counts = counts;
        this.raw = raw;
    }

    /** The shard of this report among {@code shards}: a stable hash of the report id. */
    public int shard(int shards) {
        return Math.floorMod(reportId.hashCode(), shards);
    }
}
