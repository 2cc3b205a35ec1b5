package dev.fieldprof.jobs.frequency.functions;

import dev.fieldprof.estimation.PartialSum;
import dev.fieldprof.jobs.frequency.records.WindowSum;
import org.apache.flink.api.common.functions.AggregateFunction;

/** Merges the shards' sums of one (app version, config, generation) window. */
public final class MergeShardSums implements AggregateFunction<WindowSum, PartialSum, PartialSum> {
    private static final long serialVersionUID = 1L;

    @Override
    public PartialSum createAccumulator() {
        return new PartialSum();
    }

    @Override
    public PartialSum add(WindowSum shard, PartialSum sum) {
        return sum.merge(shard.sum);
    }

    @Override
    public PartialSum getResult(PartialSum sum) {
        return sum;
    }

    @Override
    public PartialSum merge(PartialSum a, PartialSum b) {
        return a.merge(b);
    }
}
