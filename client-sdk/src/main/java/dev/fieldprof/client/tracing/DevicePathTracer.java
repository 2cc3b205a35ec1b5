package dev.fieldprof.client.tracing;

import dev.fieldprof.client.probe.PathProbeHandler;

/**
 * A device's path tracer, whichever way it codes: {@link PathTracer} codes each probe event on the
 * traced thread at once (path format version 3), {@link StagedPathTracer} appends raw events to a
 * buffer per thread and codes them in batches (version 4). Both code per thread with the {@link
 * EdgeModelStore}'s model and cut reports through one {@link PathReportOutlet}; what the device
 * runtime, its JMX view and the tests read of either is here.
 */
public abstract sealed class DevicePathTracer implements PathProbeHandler
        permits PathTracer, StagedPathTracer {
    final EdgeModelStore models;
    final PathReportSink sink;
    final PathReportOutlet outlet;
    final int maxReportBytes;
    final boolean debug;

    DevicePathTracer(
            String deviceId,
            String appVersion,
            int variant,
            EdgeModelStore models,
            PathReportSink sink,
            int maxReportBytes,
            boolean debug) {
        if (maxReportBytes < 16) {
            throw new IllegalArgumentException(
                    "maxReportBytes must be >= 16, got " + maxReportBytes);
        }
        this.models = models;
        this.sink = sink;
        this.outlet = new PathReportOutlet(deviceId, appVersion, variant, models, sink);
        this.maxReportBytes = maxReportBytes;
        this.debug = debug;
    }

    /**
     * Ends the epoch: the calling thread's report and those of ended threads are cut now; every
     * other traced thread's at its next method exit.
     */
    public abstract void endEpoch();

    /** Cuts the calling thread's report now (if it holds any event). */
    public abstract void cutCurrentThread();

    /** Probe events the encoders dropped (they did not fit the branch table or the frames). */
    public abstract long droppedEvents();

    /**
     * Whole segments of raw events dropped because the coder was behind; 0 for a tracer that codes
     * each event at once.
     */
    public long droppedSegments() {
        return 0;
    }

    /** Bytes of raw-event buffers the tracer holds now; 0 for a tracer that keeps none. */
    public long bufferBytesHeld() {
        return 0;
    }

    /** Stops the tracer's own threads, if it has any; reports already cut are not touched. */
    public void close() {}

    /** Reports handed to the sink. */
    public final long reports() {
        return outlet.reports();
    }

    /** Sum of the coded sizes of the reports handed to the sink. */
    public final long reportBytes() {
        return outlet.reportBytes();
    }

    /** Sum of the events coded in the reports handed to the sink. */
    public final long reportEvents() {
        return outlet.reportEvents();
    }

    /** Exceptions the sink or the coding threw (swallowed). */
    public final long sinkFailures() {
        return outlet.sinkFailures();
    }

    public final EdgeModelStore models() {
        return models;
    }

    /** Whether reports also carry the raw events. */
    public final boolean debug() {
        return debug;
    }

    /**
     * Cuts {@code t}'s report and sends it, unless {@code t} is cutting already: the sink itself
     * may run traced code on the thread, whose probes must not cut inside the cut.
     */
    final void cut(TracedThread t) {
        if (t.cutting) {
            return;
        }
        t.cutting = true;
        try {
            if (outlet.cut(t.encoder, t.recording, t.number, t.sequence)) {
                t.sequence++;
            }
        } finally {
            t.cutting = false;
        }
    }

    /** Flushes the sink at an epoch's end; what it throws is counted, never passed on. */
    final void flushSink() {
        try {
            sink.flush();
        } catch (RuntimeException e) {
            outlet.failed();
        }
    }
}
