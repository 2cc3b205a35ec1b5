package dev.fieldprof.monitor;

import java.util.List;
import java.util.Map;

/**
 * The monitor page's data, as {@code /api/state.json} serves it and the page draws it. Values are
 * shares of all events (0.25 = 25%); times are epoch milliseconds. Immutable.
 *
 * @param streams one per app version and privacy configuration
 * @param deadLetters dead letters of every job, per reason and over time
 * @param edgeModels edge-model versions published, per app version
 * @param jobs the running Flink jobs' own gauges (n/a unless the monitor reads Flink's REST API)
 */
public record MonitorState(
        List<Stream> streams,
        DeadLetters deadLetters,
        List<EdgeModels> edgeModels,
        JobHealth jobs) {

    /**
     * One app version and privacy configuration.
     *
     * @param windows the last N tumbling windows, oldest first; every series is aligned with them
     * @param series per drawn method, ĝ with its 95% band, g* and the cumulative ĝ per window
     * @param hot the hot set of the newest window
     * @param hotChanges per window whose hot set differs from the one before, what entered and left
     * @param cumulative the newest cumulative estimate, or null
     */
    public record Stream(
            String app,
            String config,
            Privacy privacy,
            List<Window> windows,
            List<Series> series,
            List<Method> hot,
            List<HotChange> hotChanges,
            Cumulative cumulative) {}

    /**
     * The privacy parameters in force.
     *
     * @param userEpsilon the per-report user-level ε: ε·k/t (a report protects t changed events at
     *     ε, all k of its events at ε·k/t)
     * @param generation the program model generation the estimates were validated against
     */
    public record Privacy(double epsilon, int t, int k, double userEpsilon, long generation) {}

    /**
     * One tumbling window's health.
     *
     * @param standardError the largest standard error of the window's ĝ(v) (every method's in ε-t
     *     mode; in user-level mode a method's grows with its share, and this is the largest)
     * @param halfWidth95 1.96 × standardError: half the width of the window's widest band
     * @param lagMillis from the window's end to the record time of its estimate (or the job's emit
     *     time, when later)
     * @param revision 1 for the window's first estimate, higher when reports that arrived after it
     *     were added
     * @param centralEpsilon the shuffled mode's central ε the window holds; 0 for local-only
     * @param centralDelta the δ of that central guarantee; 0 for local-only
     */
    public record Window(
            long start,
            long end,
            long reports,
            double standardError,
            double halfWidth95,
            double solveMillis,
            double kktResidual,
            long lagMillis,
            List<Integer> hot,
            int revision,
            double centralEpsilon,
            double centralDelta) {}

    /**
     * One method's series; null where a window does not have the method.
     *
     * @param pinned whether the method search matched it
     * @param lower ĝ − 1.96·se(v) per window, se(v) the method's own standard error
     * @param upper ĝ + 1.96·se(v) per window
     * @param cumulative the cumulative estimate's ĝ at each window's end
     */
    public record Series(
            int id,
            String signature,
            boolean pinned,
            List<Double> normalized,
            List<Double> lower,
            List<Double> upper,
            List<Double> consistent,
            List<Double> cumulative) {}

    /** A method by id and signature ({@code #id} when no signature is known). */
    public record Method(int id, String signature) {}

    /** How the hot set changed at the window ending at {@code end}. */
    public record HotChange(long end, List<Method> entered, List<Method> left) {}

    /**
     * The newest cumulative estimate's top methods with their 95% intervals.
     *
     * @param standardError the estimate's largest standard error (see {@link Window})
     */
    public record Cumulative(
            long start,
            long end,
            long reports,
            double standardError,
            List<CumulativeMethod> methods) {}

    /** A method of the cumulative estimate: ĝ, its 95% interval ĝ ± 1.96·se(v) and g*. */
    public record CumulativeMethod(
            int id,
            String signature,
            double normalized,
            double lower,
            double upper,
            double share) {}

    /**
     * Dead letters.
     *
     * @param byReason totals per reason
     * @param bucketMillis width of the time buckets
     * @param buckets counts per reason per bucket start (by the time each letter was detected)
     */
    public record DeadLetters(
            long total,
            Map<String, Long> byReason,
            long bucketMillis,
            List<DeadLetterBucket> buckets) {}

    /** Dead letters per reason detected in the bucket starting at {@code start}. */
    public record DeadLetterBucket(long start, Map<String, Long> byReason) {}

    /** The edge models published for one app version. */
    public record EdgeModels(
            String appVersion, long published, long latestVersion, long latestAtMillis) {}

    /**
     * What the running Flink jobs report about themselves, read from the JobManager's REST API
     * ({@code --flink-rest}); the estimates topic cannot tell it. A null value is n/a: no REST
     * address given, the last reading failed, or no running job has the gauge.
     *
     * @param source the REST address read, or null when none was given
     * @param runningJobs jobs in state RUNNING at the last reading
     * @param reportsWaitingForModel the sum of every validation subtask's {@code
     *     reportsWaitingForModel} gauge: reports held until their program model arrives
     * @param watermarkHoldLagMillis the largest {@code watermarkHoldLagMillis} gauge: how far those
     *     waiting reports hold event time back
     * @param error why the last reading failed, or null
     */
    public record JobHealth(
            String source,
            int runningJobs,
            Long reportsWaitingForModel,
            Long watermarkHoldLagMillis,
            String error) {

        /** No REST address given: every value n/a. */
        public static JobHealth notRead() {
            return new JobHealth(null, 0, null, null, null);
        }
    }
}
