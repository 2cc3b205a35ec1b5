package dev.fieldprof.jobs.frequency.validation;

import dev.fieldprof.jobs.frequency.records.ReportRecord;
import java.io.Serializable;

/** A report waiting for its program model, until {@code deadline} (processing time). A POJO. */
public class WaitingReport implements Serializable {
    private static final long serialVersionUID = 1L;

    /** When the report is dead-lettered MODEL_WAIT_EXPIRED if its model has not come. */
    public long deadline;

    /** Until when the report holds the watermark back (processing time); at most the deadline. */
    public long holdUntil;

    /** Whether the report still holds the watermark back. */
    public boolean held;

    public ReportRecord report;

    public WaitingReport() {}

    public WaitingReport(long deadline, long holdUntil, ReportRecord report) {
        this.deadline = deadline;
        this.holdUntil = holdUntil;
        this.held = true;
        this.report = report;
    }
}
