package dev.fieldprof.jobs.frequency.functions;

import dev.fieldprof.jobs.frequency.records.ReportRecord;
import dev.fieldprof.jobs.frequency.records.ShardWindowSums;
import org.apache.flink.api.common.functions.AggregateFunction;

/** Sums a shard's validated reports in its window, per privacy config and model generation. */
public final class SumReports
        implements AggregateFunction<ReportRecord, ShardWindowSums, ShardWindowSums> {
    private static final long serialVersionUID = 1L;

    @Override
    public ShardWindowSums createAccumulator() {
        return new ShardWindowSums();
    }

    @Override
    public ShardWindowSums add(ReportRecord report, ShardWindowSums sums) {
        return sums.add(report);
    }

    @Override
    public ShardWindowSums getResult(ShardWindowSums sums) {
        return sums;
    }

    @Override
    public ShardWindowSums merge(ShardWindowSums a, ShardWindowSums b) {
        return a.merge(b);
    }
}
