package dev.fieldprof.client.tracing;

import dev.fieldprof.paths.CallSitePathEncoder;
import dev.fieldprof.paths.EdgeModel;
import dev.fieldprof.paths.PathRecording;
import dev.fieldprof.schemas.PathReport;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Where both path tracers cut a thread's encoder into a {@link PathReport} and hand it to the sink:
 * what a report says of its device, program, thread and time, and the counts of what went out. A
 * sink that throws is counted, never passed to the traced program.
 */
final class PathReportOutlet {
    private final String deviceId;
    private final String appVersion;
    private final int variant;
    private final EdgeModelStore models;
    private final PathReportSink sink;
    private final AtomicLong reports = new AtomicLong();
    private final AtomicLong reportBytes = new AtomicLong();
    private final AtomicLong reportEvents = new AtomicLong();
    private final AtomicLong sinkFailures = new AtomicLong();

    PathReportOutlet(
            String deviceId,
            String appVersion,
            int variant,
            EdgeModelStore models,
            PathReportSink sink) {
        this.deviceId = deviceId;
        this.appVersion = appVersion;
        this.variant = variant;
        this.models = models;
        this.sink = sink;
    }

    /**
     * Finishes {@code encoder}'s report and sends it, unless it holds no event; a newer model in
     * the store takes effect from the next report on. The debug {@code recording} (null when off)
     * is emptied into the report.
     *
     * @return whether a report went out, so that the thread's {@code sequence} was used
     */
    boolean cut(CallSitePathEncoder encoder, PathRecording recording, int thread, long sequence) {
        EdgeModel latest = models.current();
        if (latest.version() > encoder.model().version()) {
            encoder.useModel(latest);
        }
        long events = encoder.eventsInReport();
        long version = encoder.model().version();
        String writer = encoder.model().writer();
        byte[] coded = encoder.finishReport();
        byte[] raw = null;
        if (recording != null) {
            raw = recording.toBytes();
            recording.clear();
        }
        if (events == 0) {
            return false; // nothing to say; the next report's header carries the open frames
        }
        PathReport report =
                PathReport.newBuilder()
                        .setReportId(UUID.randomUUID().toString())
                        .setDeviceId(deviceId)
                        .setAppVersion(appVersion)
                        .setVariant(variant)
                        .setThread(thread)
                        .setSequence(sequence)
                        .setModelVersion(version)
                        .setModelWriter(writer)
                        .setEvents(events)
                        .setCreatedAtMillis(dayOf(System.currentTimeMillis()))
                        .setCoded(ByteBuffer.wrap(coded))
                        .setRaw(raw == null ? null : ByteBuffer.wrap(raw))
                        .build();
        reports.incrementAndGet();
        reportBytes.addAndGet(coded.length);
        reportEvents.addAndGet(events);
        try {
            sink.send(report);
        } catch (RuntimeException e) {
            sinkFailures.incrementAndGet();
        }
        return true;
    }

    /** Counts a failure of the tracer's own that must not reach the host. */
    void failed() {
        sinkFailures.incrementAndGet();
    }

    long reports() {
        return reports.get();
    }

    long reportBytes() {
        return reportBytes.get();
    }

    long reportEvents() {
        return reportEvents.get();
    }

    long sinkFailures() {
        return sinkFailures.get();
    }

    /**
     * The start (00:00 UTC) of the day of {@code millis}: what a path report says of when it was
     * cut, as a frequency report does. No job reads the field (windows use the Kafka record
     * timestamp); the exact time would tell the collector when each epoch of the program ended.
     */
    static Instant dayOf(long millis) {
        return Instant.ofEpochMilli(millis).truncatedTo(ChronoUnit.DAYS);
    }
}
