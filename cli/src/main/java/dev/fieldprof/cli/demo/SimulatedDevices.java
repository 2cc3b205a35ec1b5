package dev.fieldprof.cli.demo;

import dev.fieldprof.client.ClientConfig;
import dev.fieldprof.client.DeviceRuntime;
import dev.fieldprof.client.Probes;
import dev.fieldprof.client.ledger.PrivacyLedger;
import dev.fieldprof.client.privacy.ChaCha20RandomSource;
import dev.fieldprof.client.transport.ReportTransport;
import dev.fieldprof.schemas.PrivacyConfig;
import dev.fieldprof.schemas.ProgramModel;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * N simulated devices in one JVM: each is a thread with its own {@link DeviceRuntime} bound to it,
 * running user sessions of the instrumented sample program and ending an epoch after each session,
 * as one run of a program would on a real device. The devices share one transport.
 */
public final class SimulatedDevices implements AutoCloseable {
    private static final String SESSION_CLASS = "dev.fieldprof.samples.notes.UserSession";
    private static final int DEMO_REPORTS_PER_DAY = 1_000_000;

    private final List<Thread> threads = new ArrayList<>();
    private final List<DeviceRuntime> runtimes = new ArrayList<>();
    private final AtomicLong sessions = new AtomicLong();
    private final AtomicLong reports = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    private final InstrumentedProgramLoader loader;
    private volatile boolean stopping;

    /**
     * @param count devices, at least 1
     * @param sessionCap sessions per device before it stops; 0 for no cap
     * @param commandsPerSession user commands in one session (program run)
     * @param pause wait between one device's sessions
     */
    public SimulatedDevices(
            ProgramModel model,
            Path instrumentedJar,
            Path stateRoot,
            ReportTransport transport,
            int count,
            int sessionCap,
            int commandsPerSession,
            Duration pause) {
        if (count < 1) {
            throw new IllegalArgumentException("device count must be >= 1, got " + count);
        }
        this.loader = new InstrumentedProgramLoader(instrumentedJar, getClass().getClassLoader());
        PrivacyConfig privacy = model.getPrivacyConfigs().get(0);
        try {
            Class<?> sessionClass = Class.forName(SESSION_CLASS, true, loader);
            Constructor<?> newSession = sessionClass.getConstructor(long.class, long.class);
            Method run = sessionClass.getMethod("run", int.class);
            for (int i = 0; i < count; i++) {
                String deviceId = String.format("demo-device-%03d", i);
                ClientConfig config =
                        ClientConfig.builder()
                                .appVersion(model.getAppVersion())
                                .deviceId(deviceId)
                                .methodCount(model.getMethods().size())
                                .privacy(
                                        privacy.getConfigId(),
                                        privacy.getEpsilon(),
                                        privacy.getT(),
                                        privacy.getK())
                                .stateDir(stateRoot.resolve(deviceId))
                                // A demo device compresses weeks of use into minutes: the
                                // default cap (24 reports a day) would silence it at once.
                                .reportsPerDayCap(DEMO_REPORTS_PER_DAY)
                                .build();
                DeviceRuntime runtime =
                        DeviceRuntime.start(
                                config, transport, new ChaCha20RandomSource(), Clock.systemUTC());
                runtimes.add(runtime);
                long userSeed = i;
                Thread thread =
                        new Thread(
                                () ->
                                        runDevice(
                                                runtime,
                                                newSession,
                                                run,
                                                userSeed,
                                                sessionCap,
                                                commandsPerSession,
                                                pause),
                                deviceId);
                thread.setDaemon(true);
                threads.add(thread);
            }
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("the sample program has no " + SESSION_CLASS, e);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create device state in " + stateRoot, e);
        }
    }

    public void start() {
        threads.forEach(Thread::start);
    }

    private void runDevice(
            DeviceRuntime runtime,
            Constructor<?> newSession,
            Method run,
            long userSeed,
            int sessionCap,
            int commands,
            Duration pause) {
        Probes.bindCurrentThread(runtime);
        try {
            for (long session = 0;
                    !stopping && (sessionCap == 0 || session < sessionCap);
                    session++) {
                try {
                    run.invoke(newSession.newInstance(userSeed, session), commands);
                } catch (InvocationTargetException
                        | InstantiationException
                        | IllegalAccessException e) {
                    failures.incrementAndGet();
                }
                sessions.incrementAndGet();
                if (runtime.endEpoch().outcome() == DeviceRuntime.Outcome.REPORTED) {
                    reports.incrementAndGet();
                }
                if (!pause.isZero()) {
                    Thread.sleep(pause.toMillis());
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            Probes.unbindCurrentThread();
        }
    }

    /** Waits until every device has run its capped sessions (only with a session cap). */
    public void awaitFinished() throws InterruptedException {
        for (Thread thread : threads) {
            thread.join();
        }
    }

    public long sessions() {
        return sessions.get();
    }

    /** Reports handed to the transport. */
    public long reports() {
        return reports.get();
    }

    /** The ledger of the device that has reported most: the largest privacy loss so far. */
    public PrivacyLedger.Entry mostExposedLedger() {
        PrivacyLedger.Entry most = null;
        for (DeviceRuntime runtime : runtimes) {
            PrivacyLedger.Entry entry = runtime.ledger();
            if (most == null || entry.userLevelEpsilon() > most.userLevelEpsilon()) {
                most = entry;
            }
        }
        return most;
    }

    /** Sessions in which the sample program threw (it should not). */
    public long failures() {
        return failures.get();
    }

    @Override
    public void close() throws InterruptedException {
        stopping = true;
        for (Thread thread : threads) {
            thread.interrupt();
        }
        for (Thread thread : threads) {
            thread.join(5_000);
        }
        for (DeviceRuntime runtime : runtimes) {
            runtime.close();
        }
        try {
            loader.close();
        } catch (IOException e) {
            // Nothing to lose: the loader only read the jar.
        }
    }
}
