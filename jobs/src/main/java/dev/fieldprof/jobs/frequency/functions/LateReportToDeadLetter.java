package dev.fieldprof.jobs.frequency.functions;

import dev.fieldprof.jobs.frequency.core.DeadLetters;
import dev.fieldprof.jobs.frequency.records.ReportRecord;
import dev.fieldprof.jobs.io.EncodedRecord;
import dev.fieldprof.schemas.DeadLetterReason;
import org.apache.flink.api.common.functions.MapFunction;

/**
 * A report that arrived after its window's allowed lateness had passed (the window's state is
 * gone): kept as a dead letter, not lost. A validated report no longer carries its bytes, so the
 * letter names where it is in Kafka.
 */
public final class LateReportToDeadLetter implements MapFunction<ReportRecord, EncodedRecord> {
    private static final long serialVersionUID = 1L;

    @Override
    public EncodedRecord map(ReportRecord report) {
        return DeadLetters.of(
                report.raw,
                DeadLetterReason.LATE,
                "late: report "
                        + report.reportId
                        + " of device "
                        + report.deviceId
                        + " has record time "
                        + report.raw.timestamp
                        + ", in a window whose allowed lateness had passed; the report is at "
                        + report.raw.topic
                        + "-"
                        + report.raw.partition
                        + " offset "
                        + report.raw.offset);
    }
}
