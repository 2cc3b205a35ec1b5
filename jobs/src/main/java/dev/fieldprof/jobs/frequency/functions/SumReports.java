package dev.fieldprof.jobs.frequency.functions;

import dev.fieldprof.jobs.estimation.PartialSum;
import dev.fieldprof.jobs.frequency.records.ReportRecord;

/** Sums the reports of one (app version, config, shard) window incrementally. */
public final class SumReports extends PartialSumAggregate<ReportRecord> {
    private static final long serialVersionUID = 1L;

    @Override
    public PartialSum add(ReportRecord report, PartialSum sum) {
        return sum.add(report.counts);
    }
}
