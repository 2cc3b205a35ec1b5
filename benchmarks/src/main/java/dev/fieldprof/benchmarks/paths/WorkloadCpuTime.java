package dev.fieldprof.benchmarks.paths;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Method;
import java.util.Arrays;

/**
 * CPU time of one workload run on the running thread: on a machine shared with other work, wall
 * time includes time spent descheduled and JIT or GC threads' work, this thread's CPU time does
 * not.
 */
public final class WorkloadCpuTime {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    /** Keeps the workloads' results alive so that the JIT cannot drop the work. */
    static volatile long sink;

    private WorkloadCpuTime() {}

    /** CPU milliseconds of {@code run.invoke(null, seed, rounds)} on this thread. */
    public static double millis(Method run, long seed, int rounds) throws Exception {
        long start = THREADS.getCurrentThreadCpuTime();
        Object result = run.invoke(null, seed, rounds);
        long end = THREADS.getCurrentThreadCpuTime();
        sink += result instanceof Long l ? l : 0;
        return (end - start) / 1e6;
    }

    /** CPU milliseconds of {@code work.run()} on this thread. */
    public static double millis(Runnable work) {
        long start = THREADS.getCurrentThreadCpuTime();
        work.run();
        return (THREADS.getCurrentThreadCpuTime() - start) / 1e6;
    }

    /** The median of {@code values} (the mean of the two middle values if their count is even). */
    public static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int mid = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    }
}
