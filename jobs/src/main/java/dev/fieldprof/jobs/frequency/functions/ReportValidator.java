package dev.fieldprof.jobs.frequency.functions;

import dev.fieldprof.jobs.estimation.PrivacyParameters;
import dev.fieldprof.jobs.frequency.ProgramIndex;
import dev.fieldprof.jobs.frequency.records.ReportRecord;
import dev.fieldprof.schemas.DeadLetterReason;

/** The checks a report must pass against its program model (issue 5, DESIGN.md "Privacy"). */
final class ReportValidator {
    /** Why a report failed, or null from {@link #check} when it passed. */
    record Failure(DeadLetterReason reason, String message) {}

    private ReportValidator() {}

    static Failure check(ReportRecord report, ProgramIndex model) {
        PrivacyParameters config = model.config(report.configId);
        if (config == null) {
            return new Failure(
                    DeadLetterReason.UNKNOWN_PRIVACY_CONFIG,
                    "configId '"
                            + report.configId
                            + "' is not a privacy config of "
                            + report.appVersion);
        }
        if (report.k != config.k()) {
            return new Failure(
                    DeadLetterReason.WRONG_TRACE_LENGTH,
                    "k = "
                            + report.k
                            + " but config '"
                            + report.configId
                            + "' has k = "
                            + config.k());
        }
        if (report.counts.length != model.methodCount()) {
            return new Failure(
                    DeadLetterReason.WRONG_VECTOR_LENGTH,
                    "counts has length "
                            + report.counts.length
                            + " but "
                            + report.appVersion
                            + " has |V| = "
                            + model.methodCount());
        }
        for (int v = 0; v < report.counts.length; v++) {
            int count = report.counts[v];
            if (count < 0 || count > report.k) {
                return new Failure(
                        DeadLetterReason.COUNT_OUT_OF_RANGE,
                        "counts[" + v + "] = " + count + " is outside [0, k = " + report.k + "]");
            }
        }
        return null;
    }
}
