package dev.fieldprof.jobs.frequency.functions;

import dev.fieldprof.jobs.frequency.core.DeadLetters;
import dev.fieldprof.jobs.frequency.core.ReportValidation;
import dev.fieldprof.jobs.frequency.records.ReportRecord;
import dev.fieldprof.jobs.io.RawRecord;
import dev.fieldprof.schemas.DeadLetterReason;
import dev.fieldprof.schemas.RecordDecodingException;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Decodes raw report records; bytes that are no FrequencyReport become UNDECODABLE dead letters.
 * Every byte is checked here, but the counts and ids stay in the bytes until validation reads them
 * ({@link ReportValidation#decodeEnvelope}).
 */
public final class DecodeReports extends ProcessFunction<RawRecord, ReportRecord> {
    private static final long serialVersionUID = 1L;

    private transient org.apache.flink.metrics.Counter decoded;

    @Override
    public void open(org.apache.flink.api.common.functions.OpenContext context) {
        // Reports in/s: the reporter's rate of this counter, or Flink's numRecordsInPerSecond.
        decoded = getRuntimeContext().getMetricGroup().counter("reportsDecoded");
    }

    @Override
    public void processElement(RawRecord raw, Context ctx, Collector<ReportRecord> out) {
        ReportRecord report;
        try {
            report = ReportValidation.decodeEnvelope(raw);
        } catch (RecordDecodingException e) {
            ctx.output(
                    DeadLetters.TAG,
                    DeadLetters.of(raw, DeadLetterReason.UNDECODABLE, e.getMessage()));
            return;
        }
        decoded.inc();
        out.collect(report);
    }
}
