package dev.fieldprof.jobs.frequency.records;

import dev.fieldprof.jobs.estimation.PartialSum;
import java.io.Serializable;

/**
 * The sum of the reports of one (app version, config) in one window, or of one shard of it before
 * the shards are merged.
 */
public class WindowSum implements Serializable {
    private static final long serialVersionUID = 1L;

    public String appVersion;
    public String configId;
    public int shard;
    public long windowStart;
    public long windowEnd;
    public PartialSum sum;

    public WindowSum() {}

    public WindowSum(
            String appVersion,
            String configId,
            int shard,
            long windowStart,
            long windowEnd,
            PartialSum sum) {
        this.appVersion = appVersion;
        this.configId = configId;
        this.shard = shard;
        this.windowStart = windowStart;
        this.windowEnd = windowEnd;
        this.sum = sum;
    }
}
