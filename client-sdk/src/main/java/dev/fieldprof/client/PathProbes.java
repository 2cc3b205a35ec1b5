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

    /**
     * The probe site of method {@code methodId}, called once from its class's static initializer
     * (the path instrumenter puts the call there). The device's configuration is settled first
     * (lazy configuration, as the first entry probe would do): when path tracing is on with a probe
     * plan whose variant leaves the method out, or off on a configured device, the site does
     * nothing; otherwise it dispatches every event. Never throws.
     */
    public static PathProbeSite site(int methodId) {
        try {
            Installed i = installed;
            if (i == null) {
                DeviceRuntime runtime = Probes.configured();
                i = installed;
                if (i == null) {
                    return runtime != null && runtime.pathTracer().isEmpty()
                            ? PathProbeSite.UNTRACED // this device does not trace paths this run
                            : new PathProbeSite.Dispatching(methodId);
                }
            }
            boolean[] traced = i.traced;
            boolean untraced =
                    traced != null
                            && (methodId < 0 || methodId >= traced.length || !traced[methodId]);
            return untraced ? PathProbeSite.UNTRACED : new PathProbeSite.Dispatching(methodId);
        } catch (Throwable e) {
            FAILURES.incrementAndGet();
            return new PathProbeSite.Dispatching(methodId);
        }
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
