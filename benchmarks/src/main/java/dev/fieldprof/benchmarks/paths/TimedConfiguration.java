package dev.fieldprof.benchmarks.paths;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * What one child JVM of the path timings measures ({@link PathTimingChild}). The first nine time
 * the library's workload; the last four replay the workload's recorded path events through {@link
 * dev.fieldprof.client.PathProbes}, into a handler that does nothing (the dispatch), into the
 * tracer, the staged tracer or PAP, so that the tracer's and PAP's costs per event can be taken net
 * of the dispatch, side by side ({@link PathTimings}). The tracer codes with the learned model M3,
 * as a device does once the paths job has sent it a model (the reports whose sizes the benchmark
 * gives), except {@link #TRACER_UNIFORM}: a device's first contact, before any model. The staged
 * configurations run the staged tracer (raw events buffered on the traced thread, coded in batches
 * into format version 4) with its coder thread ({@link #STAGED}, {@link #EVENTS_STAGED}) or coding
 * each full buffer on the traced thread ({@link #STAGED_INLINE}); {@link #RAW_CAPTURE} is their
 * traced thread's work alone, nothing coded ({@link RawCaptureHandler}).
 */
enum TimedConfiguration {
    ORIGINAL("original", "original", true, false),
    PROBES_OFF("probes-off", "probes, tracing off", true, false),
    TRACER("tracer", "arithmetic tracer, M3", true, true),
    TRACER_UNIFORM("tracer-uniform", "tracer, uniform model", true, false),
    BLPP("blpp", "BLPP on the probes", true, false),
    PAP("pap", "PAP on the probes", true, false),
    STAGED("staged", "staged, coder thread, M3", true, true),
    STAGED_INLINE("staged-inline", "staged, coded on thread, M3", true, true),
    RAW_CAPTURE("raw-capture", "staged probes, nothing coded", true, false),
    EVENTS_DISPATCH("events-dispatch", "recorded events into a no-op handler", false, false),
    EVENTS_TRACER("events-tracer", "recorded events into the tracer, M3", false, true),
    EVENTS_PAP("events-pap", "recorded events into PAP", false, false),
    EVENTS_STAGED(
            "events-staged",
            "recorded events into the staged tracer (coder thread), M3",
            false,
            true);

    /** The name on a child's command line and in its timing lines. */
    final String id;

    final String label;

    /** True if the configuration times the workload, false if it replays recorded events. */
    final boolean workload;

    /** True if the tracer codes with the learned model, which the child is given as a file. */
    final boolean learnedModel;

    TimedConfiguration(String id, String label, boolean workload, boolean learnedModel) {
        this.id = id;
        this.label = label;
        this.workload = workload;
        this.learnedModel = learnedModel;
    }

    /**
     * Timing lines a child prints: one per workload (two for a staged tracer: also the process
     * stream), two per replay (all events, calls only).
     */
    int timingLines() {
        return !workload ? 2 : this == STAGED || this == STAGED_INLINE ? 2 : 1;
    }

    static TimedConfiguration of(String id) {
        for (TimedConfiguration c : values()) {
            if (c.id.equals(id)) {
                return c;
            }
        }
        throw new IllegalArgumentException(
                "unknown timed configuration '"
                        + id
                        + "'; expected one of "
                        + Arrays.stream(values()).map(c -> c.id).collect(Collectors.joining(", ")));
    }
}
