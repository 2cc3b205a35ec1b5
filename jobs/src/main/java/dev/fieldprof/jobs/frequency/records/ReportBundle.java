package dev.fieldprof.jobs.frequency.records;

import java.io.Serializable;

/**
 * The validated reports of one (app version, shard, window) that arrived since the last checkpoint,
 * summed in memory: what {@code bundle-reports} hands the window sum instead of each report. A
 * Flink POJO; not thread-safe.
 */
public class ReportBundle implements Serializable {
    private static final long serialVersionUID = 1L;

    public String appVersion;
    public int shard;

    /** The window's start (its end is the start plus the window's length). */
    public long windowStart;

    /** The reports' sums, one per (privacy config, model generation), as the window keeps them. */
    public ShardWindowSums sums = new ShardWindowSums();

    public ReportBundle() {}

    public ReportBundle(String appVersion, int shard, long windowStart) {
        this.appVersion = appVersion;
        this.shard = shard;
        this.windowStart = windowStart;
    }

    /** How many longs the bundle's sums hold: the memory it takes, in units of 8 bytes. */
    public long cells() {
        long cells = 0;
        for (var sum : sums.sums) {
            cells += sum.width();
        }
        return cells;
    }

    /** How many reports the bundle holds. */
    public long reports() {
        long reports = 0;
        for (var sum : sums.sums) {
            reports += sum.getReports();
        }
        return reports;
    }
}
