package dev.fieldprof.jobs.shuffle;

import dev.fieldprof.jobs.io.RawRecord;
import dev.fieldprof.schemas.DeadLetterReason;
import dev.fieldprof.schemas.RecordCodec;
import dev.fieldprof.schemas.RecordDecodingException;
import dev.fieldprof.schemas.SealedReport;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Decodes the input records into SealedReports, never opening their payloads. A record that is no
 * SealedReport is an UNDECODABLE dead letter; one numbered below 1 (it cannot be deduplicated) or
 * whose payload could never fit a released part is an INVALID one. The job goes on either way.
 */
public final class DecodeSealedReports extends ProcessFunction<RawRecord, SealedRecord> {
    private static final long serialVersionUID = 1L;
    private static final RecordCodec<SealedReport> CODEC = RecordCodec.of(SealedReport.class);

    private final BatchParts parts;
    private transient Counter decoded;

    /**
     * @param parts the splitting of released batches, which a payload must fit alone
     */
    public DecodeSealedReports(BatchParts parts) {
        this.parts = parts;
    }

    @Override
    public void open(OpenContext context) {
        decoded = getRuntimeContext().getMetricGroup().counter("sealedReportsDecoded");
    }

    @Override
    public void processElement(RawRecord raw, Context ctx, Collector<SealedRecord> out) {
        SealedReport report;
        try {
            report = CODEC.decode(raw.value);
        } catch (RecordDecodingException e) {
            ctx.output(
                    ShufflerDeadLetters.TAG,
                    ShufflerDeadLetters.of(raw, DeadLetterReason.UNDECODABLE, e.getMessage()));
            return;
        }
        if (report.getSequence() < 1) {
            ctx.output(
                    ShufflerDeadLetters.TAG,
                    ShufflerDeadLetters.of(
                            raw,
                            DeadLetterReason.INVALID,
                            "sequence "
                                    + report.getSequence()
                                    + " is below 1: a report must be numbered to be forwarded"
                                    + " once"));
            return;
        }
        int sealedBytes = report.getSealed().remaining();
        if (!parts.fitsAlone(report.getAppVersion(), report.getConfigId(), sealedBytes)) {
            ctx.output(
                    ShufflerDeadLetters.TAG,
                    ShufflerDeadLetters.of(
                            raw,
                            DeadLetterReason.INVALID,
                            "a sealed payload of "
                                    + sealedBytes
                                    + " bytes does not fit a released batch record"));
            return;
        }
        decoded.inc();
        out.collect(
                new SealedRecord(
                        report.getDeviceId(),
                        report.getAppVersion(),
                        report.getConfigId(),
                        report.getSequence(),
                        HeldReport.of(raw)));
    }
}
