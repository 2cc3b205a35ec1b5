package dev.fieldprof.jobs.paths;

import dev.fieldprof.jobs.io.RawRecord;
import dev.fieldprof.paths.InvalidPathReportException;
import dev.fieldprof.paths.PathDecoder;
import dev.fieldprof.paths.PathReportHeader;
import dev.fieldprof.schemas.DeadLetterReason;
import dev.fieldprof.schemas.PathReport;
import dev.fieldprof.schemas.RecordCodec;
import dev.fieldprof.schemas.RecordDecodingException;
import java.nio.ByteBuffer;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Decodes raw path report records and checks what can be checked without a model: the Avro record
 * (else UNDECODABLE) and a coded header that agrees with the record's model version and event count
 * (else INVALID, with the reason). Whether its app version has a branch table is known only where
 * the program models are broadcast ({@link CountPathEdges}).
 */
public final class DecodePathReports extends ProcessFunction<RawRecord, PathReportEnvelope> {
    private static final long serialVersionUID = 1L;
    private static final RecordCodec<PathReport> CODEC = RecordCodec.of(PathReport.class);

    @Override
    public void processElement(RawRecord raw, Context ctx, Collector<PathReportEnvelope> out) {
        PathReport report;
        try {
            if (raw.value == null) {
                throw new RecordDecodingException("record has no value");
            }
            report = CODEC.decode(raw.value);
        } catch (RecordDecodingException e) {
            ctx.output(
                    PathDeadLetters.TAG,
                    PathDeadLetters.of(raw, DeadLetterReason.UNDECODABLE, e.getMessage()));
            return;
        }
        String app = report.getAppVersion().toString();
        byte[] coded = bytes(report.getCoded());
        PathReportHeader header;
        try {
            header = PathDecoder.readHeader(coded);
        } catch (InvalidPathReportException e) {
            ctx.output(
                    PathDeadLetters.TAG,
                    PathDeadLetters.of(
                            raw, DeadLetterReason.UNDECODABLE, "coded path: " + e.getMessage()));
            return;
        }
        if (header.modelVersion() != report.getModelVersion()
                || header.eventCount() != report.getEvents()) {
            ctx.output(
                    PathDeadLetters.TAG,
                    PathDeadLetters.of(
                            raw,
                            DeadLetterReason.INVALID,
                            "record names model "
                                    + report.getModelVersion()
                                    + " and "
                                    + report.getEvents()
                                    + " events, its coded header model "
                                    + header.modelVersion()
                                    + " and "
                                    + header.eventCount()
                                    + " events"));
            return;
        }
        PathReportEnvelope envelope =
                new PathReportEnvelope(
                        app,
                        report.getReportId().toString(),
                        report.getDeviceId().toString(),
                        report.getModelVersion(),
                        report.getModelWriter().toString(),
                        coded,
                        raw);
        envelope.variant = report.getVariant();
        out.collect(envelope);
    }

    static byte[] bytes(ByteBuffer buffer) {
        byte[] out = new byte[buffer.remaining()];
        buffer.duplicate().get(out);
        return out;
    }
}
