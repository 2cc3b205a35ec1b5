package dev.fieldprof.jobs.frequency.records;

import dev.fieldprof.estimation.PartialSum;
import java.io.Serializable;

/**
 * The sum of the reports of one (app version, config) in one window, or of one shard of it before
 * the shards are merged. A shard's sum holds the reports that arrived since its previous one (a
 * window fires again for late reports); a merged sum holds every report of the window so far, as
 * its {@link #revision}-th publication, and {@link #added} the reports new since the previous
 * revision.
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

    /** Merged sums: the reports not in the previous revision (all of them in revision 1). */
    public PartialSum added;

    /** Merged sums: 1 for the window's first publication, one more for each later one. */
    public int revision;

    /**
     * The shuffled batches whose reports {@link #sum} holds (all of the window's so far, for a
     * merged sum); empty for local-only reports.
     */
    public ShuffledBatches batches = new ShuffledBatches();

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
        this.added = sum;
        this.revision = 1;
    }

    /** A merged window sum: every report of the window so far, its revision and what it added. */
    public static WindowSum revision(
            String appVersion,
            String configId,
            long generation,
            long windowStart,
            long windowEnd,
            PartialSum total,
            PartialSum added,
            int revision) {
        WindowSum sum =
                new WindowSum(appVersion, configId, generation, -1, windowStart, windowEnd, total);
        sum.added = added;
        sum.revision = revision;
        return sum;
    }
}
