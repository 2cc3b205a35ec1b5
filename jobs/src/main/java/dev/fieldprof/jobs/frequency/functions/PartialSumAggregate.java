package dev.fieldprof.jobs.frequency.functions;

import dev.fieldprof.jobs.estimation.PartialSum;
import org.apache.flink.api.common.functions.AggregateFunction;

/**
 * A window aggregate whose accumulator and result are a {@link PartialSum}; subclasses say only how
 * one input adds to it.
 */
abstract class PartialSumAggregate<IN> implements AggregateFunction<IN, PartialSum, PartialSum> {
    private static final long serialVersionUID = 1L;

    @Override
    public final PartialSum createAccumulator() {
        return new PartialSum();
    }

    @Override
    public final PartialSum getResult(PartialSum sum) {
        return sum;
    }

    @Override
    public final PartialSum merge(PartialSum a, PartialSum b) {
        return a.merge(b);
    }
}
