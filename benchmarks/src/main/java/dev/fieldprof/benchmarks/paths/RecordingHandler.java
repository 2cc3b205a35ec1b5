package dev.fieldprof.benchmarks.paths;

import dev.fieldprof.client.probe.PathProbeHandle;
import dev.fieldprof.client.probe.PathProbeHandler;
import dev.fieldprof.paths.PathRecording;

/**
 * Records a workload's path events as the probes report them, without the tracer: the runs the
 * benchmarks replay are recorded through it, so that recording leaves no trace in the JIT's profile
 * of the encoder that the benchmarks then time (a debug-mode tracer records through the encoder,
 * whose recording branch, never taken on a device, would then be compiled in). The workloads run on
 * one thread; events of any other thread are counted and refused.
 */
final class RecordingHandler extends PathProbeHandle implements PathProbeHandler {
    private final Thread owner = Thread.currentThread();
    private final PathRecording recording = new PathRecording();
    private long foreignEvents;

    @Override
    public PathProbeHandle enter(int methodId) {
        if (Thread.currentThread() != owner) {
            foreignEvents++;
            return null;
        }
        recording.enter(methodId);
        return this;
    }

    @Override
    public void branch(int methodId, int blockId, int edgeIndex, int localEdge) {
        recording.branch(methodId, blockId, edgeIndex);
    }

    @Override
    public void branch(int methodId, int blockId, int edgeIndex) {
        recording.branch(methodId, blockId, edgeIndex);
    }

    @Override
    public void exit(int methodId) {
        recording.exit(methodId, false);
    }

    @Override
    public void exitExceptionally(int methodId) {
        recording.exit(methodId, true);
    }

    /** The recorded events; fails if another thread ran traced code. */
    PathRecording recording() {
        if (foreignEvents != 0) {
            throw new IllegalStateException(
                    foreignEvents + " invocations on other threads than the workload's");
        }
        return recording;
    }
}
