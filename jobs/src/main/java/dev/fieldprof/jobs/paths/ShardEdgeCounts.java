package dev.fieldprof.jobs.paths;

import java.io.Serializable;

/**
 * The edge counts of one shard of an app version's path reports in one window, on their way to the
 * merge that derives the next model: counts, not reports, so what crosses the network and waits in
 * state is bounded by the branch table, whatever the reports' volume. A Flink POJO.
 */
public class ShardEdgeCounts implements Serializable {
    private static final long serialVersionUID = 1L;

    public String appVersion;
    public int shard;

    /** End (exclusive, ms) of the window the reports belong to. */
    public long windowEnd;

    /** EdgeModel.branchFingerprint of the table the counts are for. */
    public long branchFingerprint;

    /** Reports decoded into the counts. */
    public long reports;

    /** EdgeCounter.toBytes(). */
    public byte[] counts;

    /** Wall-clock deadline (ms) while the counts wait in the merge for their branch table. */
    public long waitUntil;

    public ShardEdgeCounts() {}

    public ShardEdgeCounts(
            String appVersion,
            int shard,
            long windowEnd,
            long branchFingerprint,
            long reports,
            byte[] counts) {
        this.appVersion = appVersion;
        this.shard = shard;
        this.windowEnd = windowEnd;
        this.branchFingerprint = branchFingerprint;
        this.reports = reports;
        this.counts = counts;
    }
}
