package dev.fieldprof.analysis.phases;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.OperatingSystemMXBean;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;

/**
 * Measures consecutive phases: {@link #stop(String)} ends the running phase, records it, and starts
 * the next one. Heap peaks are the JVM's per-pool peaks, reset when a phase starts, so phases
 * measured by one meter must not overlap with another meter's. A meter is used from the thread that
 * runs the phases: their thread CPU time is that thread's.
 */
public final class PhaseMeter {

    private static final double MIB = 1024.0 * 1024.0;

    private final List<Phase> phases = new ArrayList<>();
    private long wallStart;
    private long cpuStart;
    private long threadCpuStart;

    /** A meter whose first phase starts now. */
    public PhaseMeter() {
        start();
    }

    /** Restarts the running phase now (time spent since the last stop is not recorded). */
    public void start() {
        for (MemoryPoolMXBean pool : heapPools()) {
            pool.resetPeakUsage();
        }
        wallStart = System.nanoTime();
        cpuStart = processCpuNanos();
        threadCpuStart = threadCpuNanos();
    }

    /** Ends the running phase under {@code name} and starts the next one. */
    public Phase stop(String name) {
        double wall = (System.nanoTime() - wallStart) / 1e9;
        double cpu = seconds(cpuStart, processCpuNanos());
        double threadCpu = seconds(threadCpuStart, threadCpuNanos());
        long peak = 0;
        long used = 0;
        for (MemoryPoolMXBean pool : heapPools()) {
            peak += pool.getPeakUsage().getUsed();
            used += pool.getUsage().getUsed();
        }
        Phase phase = new Phase(name, wall, cpu, threadCpu, peak / MIB, used / MIB);
        phases.add(phase);
        start();
        return phase;
    }

    /** The phases recorded so far, in order. */
    public List<Phase> phases() {
        return List.copyOf(phases);
    }

    /** CPU time of the JVM process in nanoseconds, or -1 where the platform does not say. */
    public static long processCpuNanos() {
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.OperatingSystemMXBean hotspot) {
            return hotspot.getProcessCpuTime();
        }
        return -1;
    }

    /** CPU time of the calling thread in nanoseconds, or -1 where the JVM does not say. */
    public static long threadCpuNanos() {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        return threads.isCurrentThreadCpuTimeSupported() ? threads.getCurrentThreadCpuTime() : -1;
    }

    /** Seconds between two readings of a CPU clock, NaN when either is unknown. */
    public static double seconds(long startNanos, long endNanos) {
        return startNanos < 0 || endNanos < 0 ? Double.NaN : (endNanos - startNanos) / 1e9;
    }

    private static List<MemoryPoolMXBean> heapPools() {
        List<MemoryPoolMXBean> heap = new ArrayList<>();
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP && pool.isValid()) {
                heap.add(pool);
            }
        }
        return heap;
    }
}
