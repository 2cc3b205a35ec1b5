package dev.fieldprof.client;

import java.util.Optional;

/**
 * The entry point instrumented code calls: {@code INVOKESTATIC dev/fieldprof/client/Probes.enter
 * (I)V} at every method entry. Counting is a per-thread increment with no lock and no allocation
 * after a thread's first event; nothing is ever thrown into the host program. Events go to the
 * runtime bound to the current thread ({@link #bindCurrentThread}, for simulators running many
 * devices in one JVM), else to the process-wide runtime ({@link #install}, or configured lazily on
 * the first event from the classpath resource {@value ClientConfig#RESOURCE} and {@code
 * fieldprof.*} system properties). With neither, events are ignored. Lazy configuration does its
 * one-time file I/O (state directory, ledger) on the thread of that first event; a host that cannot
 * afford a few milliseconds there calls {@link #install} at startup instead.
 */
public final class Probes {
    /** System property that disables lazy configuration when set to {@code false}. */
    public static final String AUTO_CONFIGURE_PROPERTY = "fieldprof.autoconfigure";

    private static final ThreadLocal<ThreadState> STATE = ThreadLocal.withInitial(ThreadState::new);
    private static volatile DeviceRuntime installed;
    private static volatile boolean autoConfigurationDone;
    private static volatile String autoConfigurationFailure;

    private Probes() {}

    /** Per-thread binding and the cached counter stripe of the runtime last counted into. */
    private static final class ThreadState {
        DeviceRuntime bound;
        DeviceRuntime stripeRuntime;
        EventCounters.Stripe stripe;

        EventCounters.Stripe switchTo(DeviceRuntime runtime) {
            if (stripe != null) {
                stripe.abandon();
            }
            stripe = runtime.counters().register(Thread.currentThread());
            stripeRuntime = runtime;
            return stripe;
        }
    }

    /** Counts one entry of method {@code methodId}. Never throws, never blocks. */
    public static void enter(int methodId) {
        try {
            ThreadState state = STATE.get();
            DeviceRuntime runtime = state.bound;
            if (runtime == null) {
                runtime = installed;
                if (runtime == null) {
                    if (autoConfigurationDone) {
                        return;
                    }
                    runtime = autoConfigure();
                    if (runtime == null) {
                        return;
                    }
                }
            }
            EventCounters.Stripe stripe = state.stripe;
            if (state.stripeRuntime != runtime) {
                stripe = state.switchTo(runtime);
            }
            stripe.increment(methodId);
        } catch (Throwable ignored) {
            // The host program must never see a failure of the profiler (not even an Error
            // raised inside it, such as a StackOverflowError on a deep host stack).
        }
    }

    /** Counts into a specific runtime from the calling thread (used by {@link DeviceRuntime}). */
    static void enter(DeviceRuntime runtime, int methodId) {
        ThreadState state = STATE.get();
        EventCounters.Stripe stripe = state.stripe;
        if (state.stripeRuntime != runtime) {
            stripe = state.switchTo(runtime);
        }
        stripe.increment(methodId);
    }

    /**
     * Makes {@code runtime} the process-wide runtime (for threads not bound to their own) and
     * returns the previous one, or null. Lazy configuration is then skipped.
     */
    public static synchronized DeviceRuntime install(DeviceRuntime runtime) {
        DeviceRuntime previous = installed;
        installed = runtime;
        autoConfigurationDone = true;
        return previous;
    }

    /** The process-wide runtime, if any. */
    public static Optional<DeviceRuntime> installed() {
        return Optional.ofNullable(installed);
    }

    /** Routes the calling thread's events to {@code runtime} until unbound. */
    public static void bindCurrentThread(DeviceRuntime runtime) {
        if (runtime == null) {
            throw new IllegalArgumentException("runtime must not be null");
        }
        STATE.get().bound = runtime;
    }

    /** Returns the calling thread to the process-wide runtime. */
    public static void unbindCurrentThread() {
        ThreadState state = STATE.get();
        state.bound = null;
        if (state.stripe != null) {
            state.stripe.abandon();
            state.stripe = null;
            state.stripeRuntime = null;
        }
    }

    /** Forgets the process-wide runtime and allows lazy configuration again (tests only). */
    static synchronized void resetForTests() {
        installed = null;
        autoConfigurationDone = false;
        autoConfigurationFailure = null;
    }

    /** Why lazy configuration failed, if it was tried and failed. */
    public static Optional<String> autoConfigurationFailure() {
        return Optional.ofNullable(autoConfigurationFailure);
    }

    /**
     * The process-wide runtime after lazy configuration was tried (as the first entry probe would
     * try it), or null: for the path probes' sites, decided when an instrumented class initializes.
     */
    public static DeviceRuntime configured() {
        DeviceRuntime runtime = installed;
        if (runtime != null || autoConfigurationDone) {
            return runtime;
        }
        return autoConfigure();
    }

    private static synchronized DeviceRuntime autoConfigure() {
        if (autoConfigurationDone) {
            return installed;
        }
        autoConfigurationDone = true;
        try {
            if ("false".equalsIgnoreCase(System.getProperty(AUTO_CONFIGURE_PROPERTY))) {
                autoConfigurationFailure = AUTO_CONFIGURE_PROPERTY + "=false";
                return null;
            }
            // The device agent's description of the program, else the instrumented jar's.
            Optional<ClientConfig> config =
                    LoadTimeInstrumentation.described()
                            ? LoadTimeInstrumentation.config()
                            : ClientConfig.fromClasspathAndSystemProperties(
                                    Thread.currentThread().getContextClassLoader());
            if (config.isEmpty()) {
                autoConfigurationFailure = "no " + ClientConfig.RESOURCE + " on the classpath";
                return null;
            }
            DeviceRuntime runtime = DeviceRuntime.start(config.get());
            installed = runtime;
            return runtime;
        } catch (Throwable e) {
            autoConfigurationFailure = String.valueOf(e.getMessage());
            return null;
        }
    }
}
