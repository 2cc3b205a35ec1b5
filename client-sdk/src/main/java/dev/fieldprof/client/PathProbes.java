package dev.fieldprof.client;

import dev.fieldprof.client.probe.PathProbeHandle;
import dev.fieldprof.client.probe.PathProbeHandler;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The static entry of path probes that {@code PathProbeInstrumenter} inserts (docs/architecture.md,
 * "Paths"): {@code enter}, {@code branch} on each out-edge of a branch node, {@code exit} before
 * returns and {@code exitExceptionally} from a catch-all handler. The entry probe looks the calling
 * thread up once and returns its {@link PathProbeHandle}, which the method keeps in a local
 * variable and which its other probes pass back, so they reach the thread's tracer without a
 * lookup. Path tracing is opt-in: until a {@link PathProbeHandler} is {@link #install installed}
 * every entry returns null and every other probe returns at once. A probe never throws into the
 * host and does not allocate per event (beyond the encoder's own growth).
 *
 * <p>With a probe plan, a device traces only the methods of its variant (docs/architecture.md,
 * "Probe plans" over variants"): the entry probe of any other method returns null after one array
 * load, before the tracer is called, so an untraced method costs its entry counter and that check.
 * An invocation entered while a handler was installed sends its remaining events to that handler's
 * handle even if another is installed meanwhile, so no handler sees an exit without its entry.
 *
 * <p>Each probe is a null check that inlines into the instrumented method and, for a traced
 * invocation, a call of its traced body ({@code traceEnter}, {@code traceBranch} and so on), which
 * the first {@link #install} keeps out of line ({@link ProbeInlining}): one compiled copy of the
 * tracer for all probes, not one per probe. The entry's mask check ({@code tracerOf}) inlines.
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
        if (t != null) {
            ProbeInlining.keepTracedBodiesOutOfLine();
        }
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

    /**
     * Entry probe of {@code methodId}: returns the calling thread's handle (a {@link
     * PathProbeHandle}, typed {@code Object} so that the host's bytecode names no class of ours
     * beyond the site) that the instrumented method keeps in a local variable and passes to the
     * branch and exit probes of this invocation; null when the method is not traced (tracing off,
     * or left out by the probe plan's variant), which makes those probes return at once.
     */
    public static Object enter(int methodId) {
        PathProbeHandler t = tracerOf(methodId);
        return t == null ? null : traceEnter(t, methodId);
    }

    /**
     * Branch probe of the invocation whose entry returned {@code handle}: out-edge {@code
     * edgeIndex} of block {@code blockId}, the method's local edge {@code localEdge}.
     */
    public static void branch(
            Object handle, int methodId, int blockId, int edgeIndex, int localEdge) {
        if (handle != null) {
            traceBranch(handle, methodId, blockId, edgeIndex, localEdge);
        }
    }

    /**
     * Branch probe of a jar instrumented before local edge numbers were passed: the handle looks
     * the edge up.
     */
    public static void branch(Object handle, int methodId, int blockId, int edgeIndex) {
        if (handle != null) {
            traceBranch(handle, methodId, blockId, edgeIndex);
        }
    }

    /** Exit probe (before a return) of the invocation whose entry returned {@code handle}. */
    public static void exit(Object handle, int methodId) {
        if (handle != null) {
            traceExit(handle, methodId);
        }
    }

    /** Catch-all exit probe of the invocation whose entry returned {@code handle}. */
    public static void exitExceptionally(Object handle, int methodId) {
        if (handle != null) {
            traceExitExceptionally(handle, methodId);
        }
    }

    private static Object traceEnter(PathProbeHandler t, int methodId) {
        try {
            return t.enter(methodId);
        } catch (Throwable e) {
            FAILURES.incrementAndGet();
            return null;
        }
    }

    private static void traceBranch(
            Object handle, int methodId, int blockId, int edgeIndex, int localEdge) {
        try {
            ((PathProbeHandle) handle).branch(methodId, blockId, edgeIndex, localEdge);
        } catch (Throwable e) {
            FAILURES.incrementAndGet();
        }
    }

    private static void traceBranch(Object handle, int methodId, int blockId, int edgeIndex) {
        try {
            ((PathProbeHandle) handle).branch(methodId, blockId, edgeIndex);
        } catch (Throwable e) {
            FAILURES.incrementAndGet();
        }
    }

    private static void traceExit(Object handle, int methodId) {
        try {
            ((PathProbeHandle) handle).exit(methodId);
        } catch (Throwable e) {
            FAILURES.incrementAndGet();
        }
    }

    private static void traceExitExceptionally(Object handle, int methodId) {
        try {
            ((PathProbeHandle) handle).exitExceptionally(methodId);
        } catch (Throwable e) {
            FAILURES.incrementAndGet();
        }
    }
}
