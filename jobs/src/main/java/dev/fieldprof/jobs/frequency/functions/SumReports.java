package dev.fieldprof.jobs.frequency.functions;

import dev.fieldprof.jobs.estimation.PartialSum;
import dev.fieldprof.jobs.frequency.records.ReportRecord;
import org.apache.flink.api.common.functions.AggregateFunction;

/** Sums the reports of one (app version, config, shard) window incrementally. */
public final class SumReports implements AggregateFunction<ReportRecord, PartialSum, PartialSum> {
    private static final long serialVersionUID = 1L;

    @Override
    public PartialSum createAccumulator() {
        return new PartialSum();
    }

    @Override
    public PartialSum add(ReportRecord report, PartialSum sum) {
        return sum.add(report.counts);
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
