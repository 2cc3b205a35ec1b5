package dev.fieldprof.jobs.frequency;

import dev.fieldprof.client.privacy.PrivacyParameters;
import dev.fieldprof.jobs.frequency.records.RawRecord;
import dev.fieldprof.jobs.frequency.records.ReportRecord;
import dev.fieldprof.schemas.DeadLetterReason;
import dev.fieldprof.schemas.FrequencyReport;
import dev.fieldprof.schemas.RecordCodec;
import java.util.List;

/**
 * Decoding and the checks a report must pass against its program model (issue 5, DESIGN.md
 * "Privacy"): Flink-free, so that the job's functions and the benchmarks share them. Thread-safe.
 */
public final class ReportValidation {
    private static final RecordCodec<FrequencyReport> CODEC = RecordCodec.of(FrequencyReport.class);

    /** Why a report failed, or null from {@link #check} when it passed. */
    public record Failure(DeadLetterReason reason, String message) {}

    private ReportValidation() {}

    /**
     * Decodes a raw report record.
     *
     * @throws dev.fieldprof.schemas.RecordDecodingException when the bytes are no FrequencyReport
     */
    public static ReportRecord decode(RawRecord raw) {
        ReportRecord fast = FastReportDecoder.decode(raw);
        if (fast != null) {
            return fast;
        }
        FrequencyReport report = CODEC.decode(raw.value);
        List<Integer> counts = report.getCounts();
        int[] vector = new int[counts.size()];
        for (int v = 0; v < vector.length; v++) {
            vector[v] = counts.get(v);
        }
        ReportRecord record =
                new ReportRecord(
                        report.getReportId(),
                        report.getDeviceId(),
                        report.getAppVersion(),
                        report.getConfigId(),
                        report.getK(),
                        vector,
                        raw);
        record.sequence = report.getSequence();
        return record;
    }

    /** The first check {@code report} fails against {@code model}, or null when it passes. */
    public static Failure check(ReportRecord report, ProgramShape model) {
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
