package dev.fieldprof.analysis.phases;

/**
 * What one phase of the analysis cost.
 *
 * @param name the phase, e.g. {@code soot.bodies}
 * @param wallSeconds elapsed time
 * @param cpuSeconds CPU time of the whole JVM process during the phase (every thread, so garbage
 *     collection and the JIT compiler count)
 * @param threadCpuSeconds CPU time of the thread that ran the phase: the analysis's own work,
 *     without the collector's and the compiler's threads
 * @param heapPeakMb the sum of the heap memory pools' peak usage during the phase, in MiB: an upper
 *     bound of the heap's peak, since the pools may peak at different moments
 * @param heapUsedMb heap in use at the phase's end, in MiB (garbage not yet collected included)
 */
public record Phase(
        String name,
        double wallSeconds,
        double cpuSeconds,
        double threadCpuSeconds,
        double heapPeakMb,
        double heapUsedMb) {}
