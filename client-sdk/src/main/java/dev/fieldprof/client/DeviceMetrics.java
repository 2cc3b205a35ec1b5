package dev.fieldprof.client;

import dev.fieldprof.client.tracing.DevicePathTracer;
import dev.fieldprof.client.transport.DropReason;
import dev.fieldprof.client.transport.TransportCounters;
import java.lang.management.ManagementFactory;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * A device runtime's counters for JMX ({@code dev.fieldprof:type=DeviceRuntime,app=...}), so an
 * operator's usual tools (jconsole, a JMX exporter) see what the SDK does inside the program. What
 * happened to epochs and reports only: no event count, no share, nothing of what the program ran.
 * Registered at start and unregistered at close; a failure to register leaves the runtime working
 * without it.
 */
public final class DeviceMetrics implements DeviceMetricsMXBean {
    private final DeviceRuntime runtime;

    private DeviceMetrics(DeviceRuntime runtime) {
        this.runtime = runtime;
    }

    /** The JMX name of the runtime of {@code appVersion} on this JVM. */
    public static ObjectName name(String appVersion) throws javax.management.JMException {
        return new ObjectName(
                "dev.fieldprof:type=DeviceRuntime,app=" + ObjectName.quote(appVersion));
    }

    /** Registers the runtime's counters; returns the name, or null if JMX refused. */
    static ObjectName register(DeviceRuntime runtime, String appVersion) {
        try {
            MBeanServer server = ManagementFactory.getPlatformMBeanServer();
            ObjectName name = name(appVersion);
            if (server.isRegistered(name)) {
                return null; // another runtime of the same app version in this JVM: the first
            }
            server.registerMBean(new DeviceMetrics(runtime), name);
            return name;
        } catch (Exception | LinkageError e) {
            return null;
        }
    }

    static void unregister(ObjectName name) {
        if (name == null) {
            return;
        }
        try {
            ManagementFactory.getPlatformMBeanServer().unregisterMBean(name);
        } catch (Exception | LinkageError e) {
            // already gone
        }
    }

    @Override
    public long getReportsMade() {
        return runtime.counters(false).reportsMade();
    }

    @Override
    public long getEpochsCarried() {
        return runtime.counters(false).epochsCarried();
    }

    @Override
    public long getEpochsSkippedByCap() {
        return runtime.ledger().epochsSkippedByCap();
    }

    @Override
    public long getEpochsSkippedByBudget() {
        return runtime.ledger().epochsSkippedByBudget();
    }

    @Override
    public long getStateWriteFailures() {
        return runtime.counters(false).stateWriteFailures();
    }

    @Override
    public long getStateLockTimeouts() {
        return runtime.counters(false).stateLockTimeouts();
    }

    @Override
    public long getPathReportsSent() {
        return runtime.pathReportCounters().sent();
    }

    @Override
    public long getPathReportsSpooled() {
        return runtime.pathReportCounters().spooledNow();
    }

    @Override
    public long getPathReportsDropped() {
        return runtime.pathReportsDropped();
    }

    @Override
    public long getPathReportsQueueFull() {
        return runtime.pathReportCounters().dropped(DropReason.QUEUE_FULL);
    }

    @Override
    public long getPathReportsSpoolFull() {
        return runtime.pathReportCounters().dropped(DropReason.SPOOL_FULL);
    }

    @Override
    public long getPathSegmentsDropped() {
        return runtime.pathTracer().map(DevicePathTracer::droppedSegments).orElse(0L);
    }

    @Override
    public long getPathBufferBytes() {
        return runtime.pathTracer().map(DevicePathTracer::bufferBytesHeld).orElse(0L);
    }

    @Override
    public long getBackgroundFailures() {
        return runtime.backgroundFailures();
    }

    @Override
    public long getEpochFailures() {
        return runtime.counters(false).epochFailures();
    }

    @Override
    public double getUserLevelEpsilonInBudgetPeriod() {
        return runtime.budget().spentWithin(java.time.Instant.now());
    }

    @Override
    public long getStartsWithoutConnection() {
        return runtime.startedWithoutConnection() ? 1 : 0;
    }

    @Override
    public long getReportsSent() {
        return runtime.transportCounters().sent();
    }

    @Override
    public long getReportsSpooled() {
        return runtime.transportCounters().spooledNow();
    }

    @Override
    public long getReportsUnsealable() {
        return runtime.transportCounters().dropped(DropReason.UNSEALABLE);
    }

    @Override
    public long getReportsDropped() {
        TransportCounters c = runtime.transportCounters();
        long dropped = 0;
        for (DropReason reason : DropReason.values()) {
            dropped += c.dropped(reason);
        }
        return dropped;
    }

    @Override
    public long getKafkaAuthenticationFailures() {
        return runtime.transportCounters().authenticationFailures();
    }

    @Override
    public boolean isPathTracing() {
        return runtime.pathTracer().isPresent();
    }

    @Override
    public String getPathProbeInlining() {
        return ProbeInlining.outcome();
    }

    @Override
    public long getClassesInstrumentedAtLoad() {
        return LoadTimeInstrumentation.classesInstrumented();
    }

    @Override
    public long getClassesLeftUninstrumentedAtLoad() {
        return LoadTimeInstrumentation.classesLeftAsTheyWere();
    }
}
