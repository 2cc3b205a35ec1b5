package dev.fieldprof.client.tracing;

import dev.fieldprof.client.probe.PathProbeHandle;
import dev.fieldprof.paths.CallSitePathEncoder;
import dev.fieldprof.paths.EdgeModel;
import dev.fieldprof.paths.PathRecording;

/**
 * What either path tracer keeps of one traced thread to cut its reports: its encoder (the concrete
 * class, so the probe path calls it directly), its raw recording in debug mode, its number and
 * report sequence, the epoch it last cut in, and whether a cut is under way. It is also the
 * thread's {@link PathProbeHandle}: the tracer's entry probe returns it and the invocation's other
 * probes call it, so only the entry looks the thread up.
 */
abstract class TracedThread extends PathProbeHandle {
    final Thread owner;
    final int number;
    final CallSitePathEncoder encoder;
    final PathRecording recording;
    long sequence;
    long epoch;
    boolean cutting;

    /**
     * @param formatVersion the path format the encoder writes (3 or 4)
     * @param debug whether the thread's reports carry its raw events
     */
    TracedThread(
            Thread owner,
            int number,
            EdgeModel model,
            int formatVersion,
            boolean debug,
            long epoch) {
        this.owner = owner;
        this.number = number;
        this.encoder = new CallSitePathEncoder(model);
        encoder.writeFormat(formatVersion);
        this.recording = debug ? new PathRecording() : null;
        encoder.record(recording);
        this.epoch = epoch;
    }
}
