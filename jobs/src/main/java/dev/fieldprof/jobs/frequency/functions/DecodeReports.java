package dev.fieldprof.jobs.frequency.functions;

import dev.fieldprof.jobs.frequency.DeadLetters;
import dev.fieldprof.jobs.frequency.records.RawRecord;
import dev.fieldprof.jobs.frequency.records.ReportRecord;
import dev.fieldprof.schemas.DeadLetterReason;
import dev.fieldprof.schemas.FrequencyReport;
import dev.fieldprof.schemas.RecordCodec;
import dev.fieldprof.schemas.RecordDecodingException;
import java.util.List;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Decodes raw report records; bytes that are no FrequencyReport become UNDECODABLE dead letters.
 */
public final class DecodeReports extends ProcessFunction<RawRecord, ReportRecord> {
    private static final long serialVersionUID = 1L;
    private static final RecordCodec<FrequencyReport> CODEC = RecordCodec.of(FrequencyReport.class);

    @Override
    public void processElement(RawRecord raw, Context ctx, Collector<ReportRecord> out) {
        FrequencyReport report;
        try {
            report = CODEC.decode(raw.value);
        } catch (RecordDecodingException e) {
            ctx.output(
                    DeadLetters.TAG,
                    DeadLetters.of(raw, DeadLetterReason.UNDECODABLE, e.getMessage()));
            return;
        }
        List<Integer> counts = report.getCounts();
        int[] vector = new int[counts.size()];
        for (int v = 0; v < vector.length; v++) {
            vector[v] = counts.get(v);
        }
        out.collect(
                new ReportRecord(
                        report.getReportId(),
                        report.getDeviceId(),
                        report.getAppVersion(),
                        report.getConfigId(),
                        report.getK(),
                        vector,
                        raw));
    }
}
