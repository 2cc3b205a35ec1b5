package dev.fieldprof.jobs.frequency.functions;

import dev.fieldprof.jobs.frequency.records.BatchedSum;
import dev.fieldprof.jobs.frequency.records.WindowSum;
import org.apache.flink.api.common.functions.AggregateFunction;

/**
 * Merges the shards' sums of one (app version, config, generation) window, and the shuffled batches
 * their reports came in.
 */
public final class MergeShardSums implements AggregateFunction<WindowSum, BatchedSum, BatchedSum> {
    private static final long serialVersionUID = 1L;

    @Override
    public BatchedSum createAccumulator() {
        return new BatchedSum();
    }

    @Override
    public BatchedSum add(WindowSum shard, BatchedSum sum) {
        return sum.add(shard);
    }

    @Override
    public BatchedSum getResult(BatchedSum sum) {
        return sum;
    }

    @Override
    public BatchedSum merge(BatchedSum a, BatchedSum b) {
        return a.merge(b);
    }
}
