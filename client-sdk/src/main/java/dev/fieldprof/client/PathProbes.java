package dev.fieldprof.client;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The static entry of path probes that {@code PathProbeInstrumenter} inserts (DESIGN.md "Paths"):
 * {@code enter}, {@code branch} on each out-edge of a branch node, {@code exit} before returns and
 * {@code exitExceptionally} from a catch-all handler. Path tracing is opt-in: until a {@link
 * PathProbeHandler} is {@link #install installed} every probe returns at once. A probe never throws
 * into the host and does not allocate per event (beyond the encoder's own growth).
 *
 * <p>With a probe plan, a device traces only the methods of its variant (DESIGN.md "Probes spread
 * over variants"): the probe of any other method returns after one array load, before the tracer is
 * called, so an untraced method costs its entry counter and that check.
 */
public final class PathProbes {
    /** The handler and the methods it traces (null: all), read with one volatile load. */
    private record Installed(PathProbeHandler tracer, boolean[] traced) {}

    private static volatile Installed installed;
    private static final AtomicLong FAILURES = new AtomicLong();

    private PathProbes() {}

    /**
     * Starts tracing every method into {@code t} (replacing any handler installed before), usually
     * a {@link dev.fieldprof.client.tracing.PathTracer}.
     */
    public static void install(PathProbeHandler t) {
        install(t, null);
    }

    /**
     * Starts tracing into {@code t} the methods whose {@code traced[methodId]} is true (the
     * device's variant of a probe plan); null traces every method. The array is not copied: do not
     * change it afterwards.
     */
    public static void install(PathProbeHandler t, boolean[] traced) {
        installed = t == null ? null : new Installed(t, traced);
    }

    /** Stops tracing; returns the handler that was installed, or null. */
    public static PathProbeHandler uninstall() {
        Installed i = installed;
        installed = null;
        return i == null ? null : i.tracer;
    }

    /** The installed handler, or null when path tracing is off. */
    public static PathProbeHandler tracer() {
        Installed i = installed;
        return i == null ? null : i.tracer;
    }

    /** The handler if it traces {@code methodId}, else null. */
    private static PathProbeHandler tracerOf(int methodId) {
        Installed i = installed;
        if (i == null) {
            return null;
        }
        boolean[] traced = i.traced;
        if (traced != null && (methodId < 0 || methodId >= traced.length || !traced[methodId])) {
            return null;
        }
        return i.tracer;
    }

    /** Probe calls that failed inside the tracer (swallowed so the host never sees them). */
    public static long failures() {
        return FAILURES.get();
    }

    public static void enter(int methodId) {
        PathProbeHandler t = tracerOf(methodId);
        if (t != null) {
            try {
                t.enter(methodId);
            } catch (Throwable e) {
                FAILURES.incrementAndGet();
            }
        }
    }

    public static void branch(int methodId, int blockId, int edgeIndex) {
        PathProbeHandler t = tracerOf(methodId);
        if (t != null) {
            try {
                t.branch(methodId, blockId, edgeIndex);
            } catch (Throwable e) {
                FAILURES.incrementAndGet();
            }
        }
    }

    public static void exit(int methodId) {
        PathProbeHandler t = tracerOf(methodId);
        if (t != null) {
            try {
                t.exit(methodId);
            } catch (Throwable e) {
                FAILURES.incrementAndGet();
            }
        }
    }

    public static void exitExceptionally(int methodId) {
        PathProbeHandler t = tracerOf(methodId);
        if (t != null) {
            try {
                t.exitExceptionally(methodId);
            } catch (Throwable e) {
                FAILURES.incrementAndGet();
            }
        }
    }
}
