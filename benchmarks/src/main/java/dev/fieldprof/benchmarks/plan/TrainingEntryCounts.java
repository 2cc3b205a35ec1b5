package dev.fieldprof.benchmarks.plan;

import dev.fieldprof.benchmarks.paths.LibraryProgram;
import dev.fieldprof.benchmarks.paths.WorkloadLoader;
import dev.fieldprof.client.probe.PathProbeHandle;
import dev.fieldprof.client.probe.PathProbeHandler;
import java.nio.file.Path;

/**
 * Per-method entry counts of one training run of a library's workload, the stand-in for the field's
 * frequency estimates when {@link VariantOverhead} plans by call rates: the path-probed jar in its
 * own loader with a handler that only counts entries, run once with a seed the timed runs never use
 * (so the plan is trained on other inputs than it is measured on).
 */
final class TrainingEntryCounts {

    private TrainingEntryCounts() {}

    /** Counts {@code enter} per method id; single-threaded like the workloads. */
    private static final class EntryCounter implements PathProbeHandler {
        final long[] counts;
        long outOfRange;

        EntryCounter(int methods) {
            counts = new long[methods];
        }

        /** Counts the entry and asks for none of the invocation's other events. */
        @Override
        public PathProbeHandle enter(int methodId) {
            if (methodId >= 0 && methodId < counts.length) {
                counts[methodId]++;
            } else {
                outOfRange++;
            }
            return null;
        }
    }

    /**
     * @param probedJar the library with path probes in every method (ids 0..methods-1)
     * @return entries per method id in one run of {@code p.rounds()} rounds with {@code seed}
     */
    static long[] record(LibraryProgram p, Path probedJar, int methods, long seed)
            throws Exception {
        EntryCounter counter = new EntryCounter(methods);
        try (WorkloadLoader loader = new WorkloadLoader(probedJar, true)) {
            loader.installProbes(counter, null);
            p.runMethod(loader).invoke(null, seed, p.rounds());
            loader.installProbes(null, null);
            if (loader.probeFailures() != 0 || counter.outOfRange != 0) {
                throw new IllegalStateException(
                        p.name() + ": training run's probes failed or named unknown methods");
            }
        }
        return counter.counts;
    }
}
