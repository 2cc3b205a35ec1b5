package dev.fieldprof.benchmarks.paths;

import dev.fieldprof.client.probe.PathProbeHandle;
import dev.fieldprof.client.probe.PathProbeHandler;

/**
 * A path probe handler that does nothing: installed in {@link dev.fieldprof.client.PathProbes}, the
 * time of a probe stream is the probe dispatch (and the driver's own loop) alone, which {@link
 * PathTimings} subtracts from the same stream into the tracer. Like {@link BaselineRuntime} it
 * follows {@link PathProbeHandler}'s methods and nothing else, and is its own handle.
 */
final class NoOpProbeHandler extends PathProbeHandle implements PathProbeHandler {
    @Override
    public PathProbeHandle enter(int methodId) {
        return this;
    }

    @Override
    public void branch(int methodId, int blockId, int edgeIndex, int localEdge) {}

    @Override
    public void branch(int methodId, int blockId, int edgeIndex) {}

    @Override
    public void exit(int methodId) {}

    @Override
    public void exitExceptionally(int methodId) {}
}
