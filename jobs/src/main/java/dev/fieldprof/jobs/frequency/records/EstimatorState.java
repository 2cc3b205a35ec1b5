package dev.fieldprof.jobs.frequency.records;

import dev.fieldprof.estimation.PartialSum;
import java.io.Serializable;

/**
 * Keyed state of the estimating operator for one (app version, config): the cumulative sum since
 * the job started and window sums that arrived before the operator saw their program model. One
 * object, so that a newly broadcast model can update all of it for every key at once.
 */
public class EstimatorState implements Serializable {
    private static final long serialVersionUID = 1L;

    public PartialSum cumulative;
    public long cumulativeStart;
    public long cumulativeEnd;

    /** How many times the cumulative estimate was published: its latest revision. */
    public int cumulativeRevision;

    public WindowSum[] waiting;

    /** The shuffled batches whose reports the cumulative sum holds; empty for local-only ones. */
    public ShuffledBatches cumulativeBatches = new ShuffledBatches();

    public EstimatorState() {
        this.cumulative = new PartialSum();
        this.cumulativeStart = Long.MAX_VALUE;
        this.cumulativeEnd = Long.MIN_VALUE;
        this.waiting = new WindowSum[0];
    }
}
