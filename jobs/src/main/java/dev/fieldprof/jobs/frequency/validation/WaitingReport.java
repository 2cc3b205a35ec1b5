package dev.fieldprof.jobs.frequency.validation;

import dev.fieldprof.jobs.frequency.records.ReportRecord;
import java.io.Serializable;

/** A report waiting for its program model, and the processing time its wait ends at. */
public class WaitingReport implements Serializable {
    private static final long serialVersionUID = 1L;

    public long deadline;
    public ReportRecord report;

    public WaitingReport() {}

    public WaitingReport(long deadline, ReportRecord report) {
        this.deadline = deadline;
        this.report = report;
    }
}
