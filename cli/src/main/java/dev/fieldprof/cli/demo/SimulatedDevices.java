package dev.fieldprof.cli.demo;

import dev.fieldprof.cli.options.DurationConverter;
import dev.fieldprof.client.ClientConfig;
import dev.fieldprof.client.DeviceRuntime;
import dev.fieldprof.client.Probes;
import dev.fieldprof.client.ledger.PrivacyLedger;
import dev.fieldprof.client.transport.ReportTransport;
import dev.fieldprof.ldp.ChaCha20RandomSource;
import dev.fieldprof.schemas.PrivacyConfig;
import dev.fieldprof.schemas.PrivacyMode;
import dev.fieldprof.schemas.ProgramModel;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * N simulated devices in one JVM: each is a thread with its own {@link DeviceRuntime} bound to it,
 * running user sessions of the instrumented sample program and ending an epoch after each session,
 * as one run of a program would on a real device. Each device's clock moves on by a span of use per
 * session ({@link SimulatedUseClock}), so its budget and daily cap act as over days of use. The
 * devices share one transport.
 */
public final class SimulatedDevices implements AutoCloseable {
    private static final String SESSION_CLASS = "dev.fieldprof.samples.notes.UserSession";

    private final List<Thread> threads = new ArrayList<>();
    private final List<DeviceRuntime> runtimes = new ArrayList<>();
    private final List<SimulatedUseClock> clocks = new ArrayList<>();
    private final DemoPrivacy budget;
    private final AtomicLong sessions = new AtomicLong();
    private final AtomicLong reports = new AtomicLong();
    private final AtomicLong refusedByBudget = new AtomicLong();
    private final AtomicLong refusedByCap = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    private final InstrumentedProgramLoader loader;
    private volatile boolean stopping;

    /**
     * What the simulated devices do.
     *
     * @param devices devices, at least 1
     * @param sessionCap sessions (program runs) per device before it stops; 0 for no cap
     * @param commandsPerSession user commands in one session
     * @param pause real time between one device's sessions
     * @param runEvery the span of use one session stands for on the device's clock (its budget and
     *     daily cap see this time pass)
     */
    public record DeviceUse(
            int devices,
            int sessionCap,
            int commandsPerSession,
            Duration pause,
            Duration runEvery) {

        /**
         * @throws IllegalArgumentException naming the value out of range
         */
        public DeviceUse {
            if (devices < 1) {
                throw new IllegalArgumentException("device count must be >= 1, got " + devices);
            }
            if (sessionCap < 0 || commandsPerSession < 1) {
                throw new IllegalArgumentException(
                        "sessionCap must be >= 0 and commandsPerSession >= 1, got "
                                + sessionCap
                                + " and "
                                + commandsPerSession);
            }
            if (runEvery.isNegative() || runEvery.isZero()) {
                throw new IllegalArgumentException("runEvery must be > 0, got " + runEvery);
            }
        }
    }

    /**
     * @param model the program model, with the privacy configuration devices report under (its
     *     first)
     * @param privacy the budget every device enforces
     */
    public SimulatedDevices(
            ProgramModel model,
            Path instrumentedJar,
            Path stateRoot,
            ReportTransport transport,
            DeviceUse use,
            DemoPrivacy privacy) {
        this.loader = new InstrumentedProgramLoader(instrumentedJar, getClass().getClassLoader());
        this.budget = privacy;
        PrivacyConfig config = model.getPrivacyConfigs().get(0);
        Instant start = Instant.now();
        try {
            Class<?> sessionClass = Class.forName(SESSION_CLASS, true, loader);
            Constructor<?> newSession = sessionClass.getConstructor(long.class, long.class);
            Method run = sessionClass.getMethod("run", int.class);
            for (int i = 0; i < use.devices(); i++) {
                String deviceId = String.format("demo-device-%03d", i);
                ClientConfig.Builder builder =
                        ClientConfig.builder()
                                .appVersion(model.getAppVersion())
                                .deviceId(deviceId)
                                .methodCount(model.getMethods().size())
                                .stateDir(stateRoot.resolve(deviceId))
                                .budget(privacy.budget().epsilon(), privacy.budget().period())
                                .privacy(config);
                SimulatedUseClock clock = new SimulatedUseClock(start, use.runEvery());
                DeviceRuntime runtime =
                        DeviceRuntime.start(
                                builder.build(), transport, new ChaCha20RandomSource(), clock);
                runtimes.add(runtime);
                clocks.add(clock);
                long userSeed = i;
                Thread thread =
                        new Thread(
                                () ->
                                        runDevice(
                                                runtime,
                                                clock,
                                                newSession,
                                                run,
                                                userSeed,
                                                use.sessionCap(),
                                                use.commandsPerSession(),
                                                use.pause()),
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
            SimulatedUseClock clock,
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
                switch (runtime.endEpoch().outcome()) {
                    case REPORTED -> reports.incrementAndGet();
                    case SKIPPED_BY_BUDGET -> refusedByBudget.incrementAndGet();
                    case SKIPPED_BY_CAP -> refusedByCap.incrementAndGet();
                    default -> {}
                }
                clock.runEnded();
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

    /** Program runs whose report the device's budget refused. */
    public long refusedByBudget() {
        return refusedByBudget.get();
    }

    /** Program runs whose report the device's reports-per-day cap refused. */
    public long refusedByCap() {
        return refusedByCap.get();
    }

    /**
     * What the device that has reported most has spent: the largest privacy loss so far, in total
     * and within its budget's current period.
     */
    public Exposure mostExposed() {
        int most = 0;
        PrivacyLedger.Entry mostLedger = runtimes.get(0).ledger();
        for (int i = 1; i < runtimes.size(); i++) {
            PrivacyLedger.Entry ledger = runtimes.get(i).ledger();
            if (ledger.userLevelEpsilon() > mostLedger.userLevelEpsilon()) {
                most = i;
                mostLedger = ledger;
            }
        }
        SimulatedUseClock clock = clocks.get(most);
        return new Exposure(
                mostLedger,
                runtimes.get(most).budget().spentWithin(clock.latestRun()),
                budget,
                clock.elapsed());
    }

    /**
     * One device's privacy loss.
     *
     * @param ledger its ledger: reports, events and the user-level ε of all its reports
     * @param spentInPeriod user-level ε spent within the budget's period that ends at the device's
     *     latest run
     * @param privacy the budget it enforces
     * @param simulatedUse the span of use its runs stand for
     */
    public record Exposure(
            PrivacyLedger.Entry ledger,
            double spentInPeriod,
            DemoPrivacy privacy,
            Duration simulatedUse) {

        /**
         * Two lines for the view: what one report protects and costs, the budget, and what the
         * device has spent in the period and over its whole history. No count of the device's
         * events appears.
         */
        public List<String> describe() {
            String guarantee =
                    privacy.mode() == PrivacyMode.USER_LEVEL
                            ? String.format(
                                    Locale.ROOT,
                                    "privacy (user-level): each report protects a device's whole"
                                            + " run at eps %.3f",
                                    ledger.epsilon())
                            : String.format(
                                    Locale.ROOT,
                                    "privacy (epsilon-t): each report protects any %d of its %d"
                                            + " events at eps %.3f, all of them at eps %.4g",
                                    ledger.t(),
                                    ledger.k(),
                                    ledger.epsilon(),
                                    ledger.epsilon() * ledger.k() / ledger.t());
            String period = DurationConverter.format(privacy.budget().period());
            String budget =
                    privacy.unbounded()
                            ? "no budget: devices spend without bound"
                            : String.format(
                                    Locale.ROOT,
                                    "budget eps %.3f per %s",
                                    privacy.budget().epsilon(),
                                    period);
            String spent =
                    String.format(
                            Locale.ROOT,
                            "most-reporting device %s: %d reports in %s of simulated use, eps %.4g"
                                + " spent in the %s up to its latest run, eps %.4g over its whole"
                                + " history",
                            ledger.deviceId(),
                            ledger.reports(),
                            DurationConverter.format(simulatedUse),
                            spentInPeriod,
                            period,
                            ledger.userLevelEpsilon());
            return List.of(guarantee + "; " + budget, spent);
        }
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
