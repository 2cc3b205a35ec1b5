package dev.fieldprof.jobs.frequency.functions;

import dev.fieldprof.jobs.estimation.PartialSum;
import dev.fieldprof.jobs.frequency.records.WindowSum;

/** Merges the shard sums of one (app version, config) window into the window's one sum. */
public final class MergeShardSums extends PartialSumAggregate<WindowSum> {
    private static final long serialVersionUID = 1L;

    @Override
    public PartialSum add(WindowSum shard, PartialSum sum) {
        return sum.merge(shard.sum);
    }
}
