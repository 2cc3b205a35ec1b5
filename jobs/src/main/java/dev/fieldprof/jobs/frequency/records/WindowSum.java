package dev.fieldprof.jobs.frequency.records;

import dev.fieldprof.estimation.PartialSum;
import java.io.Serializable;

/**
 * The sum of the reports of one (app version, config) in one window, or of one shard of it before
 * the shards are merged.
 */
public class WindowSum implements Serializable {
    private static final long serialVersionUID = 1L;

    public String appVersion;
    public String configId;

    /** The program model generation of every report in the sum ({@code ProgramShape}). */
    public long generation;

    public int shard;
    public long windowStart;
    public long windowEnd;
    public PartialSum sum;

    public WindowSum() {}

    public WindowSum(
            String appVersion,
            String configId,
            long generation,
            int shard,
            long windowStart,
            long windowEnd,
            PartialSum sum) {
        this.appVersion = appVersion;
        this.configId = configId;
        this.generation = generation;
        this.shard = shard;
        this.windowStart = windowStart;
        this.windowEnd = windowEnd;
        this.sum = sum;
    }
}
