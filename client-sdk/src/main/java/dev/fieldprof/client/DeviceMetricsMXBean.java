package dev.fieldprof.client;

/** The JMX view of a device runtime ({@link DeviceMetrics}): counters, never event counts. */
public interface DeviceMetricsMXBean {
    long getReportsMade();

    long getEpochsCarried();

    long getEpochsSkippedByCap();

    long getEpochsSkippedByBudget();

    long getStateWriteFailures();

    /**
     * Reports refused because the state directory's lock, shared with every program reporting from
     * it, was not obtained in time: nothing was spent or sent, the events wait for the next epoch.
     */
    long getStateLockTimeouts();

    long getEpochFailures();

    /**
     * Failures the device's background threads (epoch scheduler, transport, edge model feed, path
     * report sink) caught and survived; each retries with a bounded backoff, none prints.
     */
    long getBackgroundFailures();

    /** User-level ε of this device's reports in the current budget period. */
    double getUserLevelEpsilonInBudgetPeriod();

    /**
     * 1 if this run started without contacting the broker because no report could be due (the
     * budget or the day's cap spent, no report left in the spool), else 0: summed over a fleet's
     * exports, the runs the broker never saw. The transport connects later only if a report is made
     * after all (a long run reaching a new budget period).
     */
    long getStartsWithoutConnection();

    long getReportsSent();

    /** Reports waiting in the on-disk spool for the broker. */
    long getReportsSpooled();

    long getReportsDropped();

    /**
     * Of the dropped reports, those of a shuffled configuration that could not be sealed to the
     * analyst's public key (none given, unreadable, or a private keyset given as the public one):
     * never sent unsealed.
     */
    long getReportsUnsealable();

    /**
     * Sends the broker refused for authentication (wrong credentials, an untrusted certificate);
     * the reports stay spooled until the settings are fixed.
     */
    long getKafkaAuthenticationFailures();

    boolean isPathTracing();

    /** Path reports the broker acknowledged. */
    long getPathReportsSent();

    /**
     * Path reports waiting in the on-disk path report spool ({@code paths.spool.dir}) for the
     * broker.
     */
    long getPathReportsSpooled();

    /** Path reports dropped unsent, for every reason (the two below, a refusal, an encoding). */
    long getPathReportsDropped();

    /**
     * Of the dropped path reports, those the sink's in-memory queue (256 reports) had no room for.
     */
    long getPathReportsQueueFull();

    /**
     * Of the dropped path reports, the oldest spooled ones deleted because the spool was over
     * {@code paths.spool.max.bytes}.
     */
    long getPathReportsSpoolFull();

    /**
     * Buffers of raw path events the staged tracer ({@code paths.tracer=staged}) dropped whole
     * because its coder's queue was full; the next report of the thread names them and decodes from
     * there on. 0 with the direct tracer or none.
     */
    long getPathSegmentsDropped();

    /**
     * Bytes of raw path-event buffers held now: at most (traced threads + {@code
     * paths.staged.queue.segments}) × {@code paths.staged.segment.events} × 4 with the staged
     * tracer; 0 with the direct tracer or none.
     */
    long getPathBufferBytes();

    /**
     * Whether the path probes' traced bodies are kept out of line in this JVM: "added" (the
     * compiler directive is in force), "not tried" (no path probe handler installed yet), or "left
     * out: " and why (the JVM has directives of its own, or no DiagnosticCommand MBean).
     */
    String getPathProbeInlining();

    /** Classes the device agent instrumented as they loaded (0 without the agent). */
    long getClassesInstrumentedAtLoad();

    /** Classes of the program model the device agent left as they were: instrumenting failed. */
    long getClassesLeftUninstrumentedAtLoad();
}
