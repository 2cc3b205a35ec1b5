package dev.fieldprof.jobs.shuffle;

import dev.fieldprof.jobs.io.RawRecord;
import dev.fieldprof.schemas.RecordCodec;
import dev.fieldprof.schemas.SealedReport;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/** SealedReports for the shuffler's tests: opaque payloads that name their device and sequence. */
final class SealedReports {
    static final RecordCodec<SealedReport> CODEC = RecordCodec.of(SealedReport.class);
    static final String TOPIC = "shuffler-input";

    private SealedReports() {}

    /**
     * The payload of a device's report: opaque to the shuffler, recognisable to the test, without
     * the device id itself ({@code device-a}'s first is {@code sealed(a#1)}).
     */
    static byte[] payload(String device, long sequence) {
        String name = device.substring(device.indexOf('-') + 1);
        return ("sealed(" + name + "#" + sequence + ")").getBytes(StandardCharsets.UTF_8);
    }

    static byte[] bytes(ByteBuffer buffer) {
        ByteBuffer copy = buffer.duplicate();
        byte[] bytes = new byte[copy.remaining()];
        copy.get(bytes);
        return bytes;
    }

    static SealedReport report(String device, String app, String config, long sequence) {
        return SealedReport.newBuilder()
                .setDeviceId(device)
                .setAppVersion(app)
                .setConfigId(config)
                .setSequence(sequence)
                .setSealed(ByteBuffer.wrap(payload(device, sequence)))
                .build();
    }

    static RawRecord raw(SealedReport report, long offset) {
        return new RawRecord(
                TOPIC,
                0,
                offset,
                1_000 + offset,
                report.getDeviceId().getBytes(StandardCharsets.UTF_8),
                CODEC.encode(report));
    }

    /** The decoded record of a device's report, read at {@code offset}. */
    static SealedRecord record(
            String device, String app, String config, long sequence, long offset) {
        SealedReport report = report(device, app, config, sequence);
        return new SealedRecord(device, app, config, sequence, HeldReport.of(raw(report, offset)));
    }

    static String text(ByteBuffer buffer) {
        return new String(bytes(buffer), StandardCharsets.UTF_8);
    }
}
