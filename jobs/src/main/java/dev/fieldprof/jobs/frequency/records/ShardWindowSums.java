package dev.fieldprof.jobs.frequency.records;

import dev.fieldprof.estimation.PartialSum;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The sums of one (app version, shard) window, one per (privacy config, model generation) its
 * reports were validated against: the window is keyed like validation, so that reports reach it
 * without crossing the network again, and sums of different parameters stay apart. Almost always
 * one entry. A Flink POJO (arrays, no collections).
 */
public class ShardWindowSums implements Serializable {
    private static final long serialVersionUID = 1L;

    public String[] configIds = new String[0];
    public long[] generations = new long[0];
    public PartialSum[] sums = new PartialSum[0];

    /** {@code batches[i]}: the shuffled batches whose reports {@code sums[i]} holds. */
    public ShuffledBatches[] batches = new ShuffledBatches[0];

    public ShardWindowSums() {}

    /**
     * Adds a validated report to the sum of its config and generation: its counts, or a user-level
     * report's subset as its indicator vector (without building that vector).
     */
    public ShardWindowSums add(ReportRecord report) {
        int i = indexOf(report.configId, report.generation);
        PartialSum sum = sums[i];
        if (report.batchId != null) {
            batches[i].add(report.batchId, report.batchSize);
        }
        if (report.subset != null && report.subset.length != 0) {
            sum.addSubset(report.subset, report.methods);
        } else {
            sum.add(report.counts);
        }
        return this;
    }

    /** Adds every sum of {@code other}. */
    public ShardWindowSums merge(ShardWindowSums other) {
        for (int i = 0; i < other.sums.length; i++) {
            int at = indexOf(other.configIds[i], other.generations[i]);
            sums[at].merge(other.sums[i]);
            if (i < other.batches.length) {
                batches[at].merge(other.batches[i]);
            }
        }
        return this;
    }

    /**
     * One WindowSum per (config, generation), labelled with the app version, the shard and the
     * window's bounds; each carries its own copy of the batches, and this object's sums.
     */
    public List<WindowSum> windowSums(
            String appVersion, int shard, long windowStart, long windowEnd) {
        List<WindowSum> out = new ArrayList<>(sums.length);
        for (int i = 0; i < sums.length; i++) {
            WindowSum sum =
                    new WindowSum(
                            appVersion,
                            configIds[i],
                            generations[i],
                            shard,
                            windowStart,
                            windowEnd,
                            sums[i]);
            if (i < batches.length) {
                sum.batches = batches[i].copy();
            }
            out.add(sum);
        }
        return out;
    }

    private int indexOf(String configId, long generation) {
        if (batches.length < sums.length) {
            // Restored from state written before the shuffled mode: no batches.
            ShuffledBatches[] all = Arrays.copyOf(batches, sums.length);
            for (int i = batches.length; i < all.length; i++) {
                all[i] = new ShuffledBatches();
            }
            batches = all;
        }
        for (int i = 0; i < sums.length; i++) {
            if (generations[i] == generation && configIds[i].equals(configId)) {
                return i;
            }
        }
        int n = sums.length;
        configIds = Arrays.copyOf(configIds, n + 1);
        generations = Arrays.copyOf(generations, n + 1);
        sums = Arrays.copyOf(sums, n + 1);
        batches = Arrays.copyOf(batches, n + 1);
        configIds[n] = configId;
        generations[n] = generation;
        sums[n] = new PartialSum();
        batches[n] = new ShuffledBatches();
        return n;
    }
}
