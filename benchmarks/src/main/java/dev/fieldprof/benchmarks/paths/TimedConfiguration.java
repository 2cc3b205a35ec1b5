package dev.fieldprof.benchmarks.paths;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * What one child JVM of the path timings measures ({@link PathTimingChild}). The first five time
 * the library's workload; the last two replay the workload's recorded path events through {@link
 * dev.fieldprof.client.PathProbes}, into a handler that does nothing (the dispatch) or into the
 * tracer, so that the tracer's cost per event can be taken net of the dispatch ({@link
 * PathTimings}).
 */
enum TimedConfiguration {
    ORIGINAL("original", "original", true),
    PROBES_OFF("probes-off", "probes, tracing off", true),
    TRACER("tracer", "arithmetic tracer", true),
    BLPP("blpp", "BLPP on the probes", true),
    PAP("pap", "PAP on the probes", true),
    EVENTS_DISPATCH("events-dispatch", "recorded events into a no-op handler", false),
    EVENTS_TRACER("events-tracer", "recorded events into the tracer", false);

    /** The name on a child's command line and in its timing lines. */
    final String id;

    final String label;

    /** True if the configuration times the workload, false if it replays recorded events. */
    final boolean workload;

    TimedConfiguration(String id, String label, boolean workload) {
        this.id = id;
        this.label = label;
        this.workload = workload;
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
