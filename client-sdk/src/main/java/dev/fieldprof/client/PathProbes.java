package dev.fieldprof.client;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The static entry of path probes that {@code PathProbeInstrumenter} inserts (DESIGN.md "Paths"):
 * {@code enter}, {@code branch} on each out-edge of a branch node, {@code exit} before returns and
 * {@code exitExceptionally} from a catch-all handler. Path tracing is opt-in: until a {@link
 * PathProbeHandler} is {@link #install installed} every probe returns at once. A probe never throws
 * into the host and does not allocate per event (beyond the encoder's own growth).
 */
public final class PathProbes {
    private static volatile PathProbeHandler tracer;
    private static final AtomicLong FAILURES = new AtomicLong();

    private PathProbes() {}

    /**
     * Starts tracing into {@code t} (replacing any handler installed before), usually a {@link
     * dev.fieldprof.client.tracing.PathTracer}.
     */
    public static void install(PathProbeHandler t) {
        tracer = t;
    }

    /** Stops tracing; returns the handler that was installed, or null. */
    public static PathProbeHandler uninstall() {
        PathProbeHandler t = tracer;
        tracer = null;
        return t;
    }

    /** The installed handler, or null when path tracing is off. */
    public static PathProbeHandler tracer() {
        return tracer;
    }

    /** Probe calls that failed inside the tracer (swallowed so the host never sees them). */
    public static long failures() {
        return FAILURES.get();
    }

    public static void enter(int methodId) {
        PathProbeHandler t = tracer;
        if (t != null) {
            try {
                t.enter(methodId);
            } catch (Throwable e) {
                FAILURES.incrementAndGet();
            }
        }
    }

    public static void branch(int methodId, int blockId, int edgeIndex) {
        PathProbeHandler t = tracer;
        if (t != null) {
            try {
                t.branch(methodId, blockId, edgeIndex);
            } catch (Throwable e) {
                FAILURES.incrementAndGet();
            }
        }
    }

    public static void exit(int methodId) {
        PathProbeHandler t = tracer;
        if (t != null) {
            try {
                t.exit(methodId);
            } catch (Throwable e) {
                FAILURES.incrementAndGet();
            }
        }
    }

    public static void exitExceptionally(int methodId) {
        PathProbeHandler t = tracer;
        if (t != null) {
            try {
                t.exitExceptionally(methodId);
            } catch (Throwable e) {
                FAILURES.incrementAndGet();
            }
        }
    }
}
