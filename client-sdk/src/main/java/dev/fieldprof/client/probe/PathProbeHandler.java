package dev.fieldprof.client.probe;

/**
 * What {@code PathProbes} hands each method entry to: the device's {@code PathTracer} in
 * production; benchmarks install baseline encoders (BLPP, PAP) on the same probes. The entry
 * returns the calling thread's {@link PathProbeHandle}, which receives the rest of that
 * invocation's events (branches and its exit) without a second lookup. Called on the traced thread;
 * must not throw.
 */
public interface PathProbeHandler {
    /**
     * Method {@code methodId} is entered on the calling thread.
     *
     * @return the calling thread's own handle for this invocation's branch and exit events, or null
     *     to receive none of them
     */
    PathProbeHandle enter(int methodId);
}
