package dev.fieldprof.client;

/**
 * What {@link PathProbes} hands each path probe event to: the {@link
 * dev.fieldprof.client.tracing.PathTracer} in production; benchmarks install baseline encoders
 * (BLPP, PAP) on the same probes. Called on the traced thread; must not throw.
 */
public interface PathProbeHandler {
    void enter(int methodId);

    void branch(int methodId, int blockId, int edgeIndex);

    void exit(int methodId);

    void exitExceptionally(int methodId);
}
