package dev.fieldprof.analysis.phases;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.OperatingSystemMXBean;
import java.util.ArrayList;
import java.util.List;

/**
 * Measures consecutive phases: {@link #stop(String)} ends the running phase, records it, and starts
 * the next one. Heap peaks are the JVM's per-pool peaks, reset when a phase starts, so phases
 * measured by one meter must not overlap with another meter's.
 */
public final class PhaseMeter {

    private static final double MIB = 1024.0 * 1024.0;

    private final List<Phase> phases = new ArrayList<>();
    private long wallStart;
    private long cpuStart;

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
    }

    /** Ends the running phase under {@code name} and starts the next one. */
    public Phase stop(String name) {
        double wall = (System.nanoTime() - wallStart) / 1e9;
        long cpuNow = processCpuNanos();
        double cpu = cpuNow < 0 || cpuStart < 0 ? Double.NaN : (cpuNow - cpuStart) / 1e9;
        long peak = 0;
        long used = 0;
        for (MemoryPoolMXBean pool : heapPools()) {
            peak += pool.getPeakUsage().getUsed();
            used += pool.getUsage().getUsed();
        }
        Phase phase = new Phase(name, wall, cpu, peak / MIB, used / MIB);
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
