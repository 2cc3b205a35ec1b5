package dev.fieldprof.benchmarks.estimation;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;

/**
 * The JMH ingest figure timed by the measuring thread's CPU time instead of the wall clock: on a
 * machine shared with other work the wall clock also counts time spent descheduled, CPU time does
 * not. Reports per CPU-second is the per-core rate.
 */
final class IngestCpuTime {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static volatile long sink;

    private IngestCpuTime() {}

    /**
     * Reports per CPU-second of one thread: the median of {@code rounds} rounds of {@code calls}
     * reports each, after one warm-up round.
     */
    static double reportsPerCpuSecond(int methods, int calls, int rounds) {
        return reportsPerCpuSecond(new ReportIngest(methods, 256, 5), calls, rounds);
    }

    /** The same over a given ring of reports. */
    static double reportsPerCpuSecond(ReportIngest ingest, int calls, int rounds) {
        for (int i = 0; i < calls; i++) {
            sink += ingest.ingestNext();
        }
        double[] rates = new double[rounds];
        for (int r = 0; r < rounds; r++) {
            long start = THREADS.getCurrentThreadCpuTime();
            long acc = 0;
            for (int i = 0; i < calls; i++) {
                acc += ingest.ingestNext();
            }
            rates[r] = calls / ((THREADS.getCurrentThreadCpuTime() - start) / 1e9);
            sink += acc;
        }
        Arrays.sort(rates);
        return rates[rounds / 2];
    }
}
