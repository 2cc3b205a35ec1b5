package dev.fieldprof.jobs.frequency.records;

import dev.fieldprof.estimation.PartialSum;
import java.io.Serializable;

/**
 * The shards' sums of one window merged so far, with the shuffled batches their reports came in:
 * the accumulator of the merge. A Flink POJO; not thread-safe.
 */
public class BatchedSum implements Serializable {
    private static final long serialVersionUID = 1L;

    public PartialSum sum = new PartialSum();
    public ShuffledBatches batches = new ShuffledBatches();

    public BatchedSum() {}

    /** Adds a shard's sum and its batches, and returns this. */
    public BatchedSum add(WindowSum shard) {
        sum.merge(shard.sum);
        batches.merge(shard.batches);
        return this;
    }

    /** Adds another accumulator's sum and batches, and returns this. */
    public BatchedSum merge(BatchedSum other) {
        sum.merge(other.sum);
        batches.merge(other.batches);
        return this;
    }
}
