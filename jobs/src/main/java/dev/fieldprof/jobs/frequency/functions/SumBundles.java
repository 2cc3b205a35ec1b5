package dev.fieldprof.jobs.frequency.functions;

import dev.fieldprof.jobs.frequency.records.ReportBundle;
import dev.fieldprof.jobs.frequency.records.ShardWindowSums;
import org.apache.flink.api.common.functions.AggregateFunction;

/**
 * Sums a shard's bundles of validated reports in their window ({@link BundleReports}), per privacy
 * config and model generation.
 */
public final class SumBundles
        implements AggregateFunction<ReportBundle, ShardWindowSums, ShardWindowSums> {
    private static final long serialVersionUID = 1L;

    @Override
    public ShardWindowSums createAccumulator() {
        return new ShardWindowSums();
    }

    @Override
    public ShardWindowSums add(ReportBundle bundle, ShardWindowSums sums) {
        return sums.merge(bundle.sums);
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
