package dev.fieldprof.client;

import dev.fieldprof.client.ledger.PrivacyLedger;
import dev.fieldprof.client.tracing.DevicePathTracer;
import dev.fieldprof.client.tracing.EdgeModelStore;
import dev.fieldprof.client.tracing.KafkaEdgeModelFeed;
import dev.fieldprof.client.tracing.KafkaPathReportSink;
import dev.fieldprof.client.tracing.PathReportSink;
import dev.fieldprof.client.tracing.PathTracer;
import dev.fieldprof.client.tracing.StagedPathTracer;
import dev.fieldprof.client.transport.AsyncPublisher;
import dev.fieldprof.client.transport.TransportCounters;
import dev.fieldprof.paths.BranchTable;
import dev.fieldprof.paths.BranchTableText;
import dev.fieldprof.paths.ProbePlanText;
import dev.fieldprof.schemas.PathReport;
import java.io.IOException;
import java.time.Duration;

/**
 * The opt-in path tracing of one {@link DeviceRuntime} (docs/architecture.md, "Paths"): a {@link
 * PathTracer}, or with {@code paths.tracer=staged} a {@link StagedPathTracer} coding on its own
 * thread within the buffers the settings bound, coding with an {@link EdgeModelStore} (followed on
 * the edge model topic when the transport is Kafka), installed into {@link PathProbes}, its reports
 * counted in the privacy ledger as they leave. Path reports are <b>not randomized</b>: they carry
 * the traced methods' paths as they ran. Started only when {@link ClientConfig#pathsEnabled()} and
 * the program carries the branch description the path instrumenter writes ({@link
 * BranchTableText#RESOURCE}). Thread-safe.
 */
final class DevicePaths implements AutoCloseable {
    private final DevicePathTracer tracer;
    private final PathReportSink sink;
    private final KafkaEdgeModelFeed feed;
    private final PrivacyLedger ledger;

    private DevicePaths(
            DevicePathTracer tracer,
            PathReportSink sink,
            KafkaEdgeModelFeed feed,
            PrivacyLedger ledger) {
        this.tracer = tracer;
        this.sink = sink;
        this.feed = feed;
        this.ledger = ledger;
    }

    /**
     * Path tracing for the runtime, or null when it stays off (not enabled, no branch description
     * in the program, or no way to send path reports: only Kafka carries them unless the caller
     * gives a sink). Records in the ledger whether it is on.
     *
     * @param table the program's branch table, or null if it has none
     * @param plan the program's probe plan, or null: with one, the device traces only the methods
     *     of its variant (a stable hash of its id), and its reports name the variant
     * @param givenSink where reports go instead of Kafka (tests, simulations), or null
     */
    static DevicePaths start(
            ClientConfig config,
            String deviceId,
            PrivacyLedger ledger,
            BranchTable table,
            ProbePlanText plan,
            PathReportSink givenSink)
            throws IOException {
        boolean kafka = config.transport() == ClientConfig.TransportKind.KAFKA;
        if (whyOff(config, table, givenSink) != null) {
            ledger.recordPathTracing(false);
            return null;
        }
        if (plan != null && plan.methodCount() != table.methodCount()) {
            throw new IllegalArgumentException(
                    "the probe plan is for "
                            + plan.methodCount()
                            + " methods, the branch description for "
                            + table.methodCount());
        }
        int variant = plan == null ? 0 : plan.variantOf(deviceId);
        boolean[] traced = plan == null ? null : plan.traced(variant);
        // The device adopts each published model for exactly the methods its variant traces.
        EdgeModelStore models = new EdgeModelStore(config.appVersion(), table, traced);
        PathReportSink out =
                givenSink != null
                        ? givenSink
                        : new KafkaPathReportSink(
                                config.kafkaBootstrapServers(),
                                config.pathReportsTopic(),
                                config.kafkaTimeout(),
                                config.pathSpoolDir(),
                                config.pathSpoolMaxBytes(),
                                config.kafkaClientProperties());
        KafkaEdgeModelFeed feed =
                kafka
                        ? new KafkaEdgeModelFeed(
                                config.kafkaBootstrapServers(),
                                config.edgeModelsTopic(),
                                models,
                                config.kafkaClientProperties())
                        : null;
        DevicePathTracer tracer =
                tracer(config, deviceId, variant, models, new LedgerCountingSink(out, ledger));
        ledger.recordPathTracing(true);
        PathProbes.install(tracer, traced);
        return new DevicePaths(tracer, out, feed, ledger);
    }

    /** The tracer {@code config} asks for, its reports going to {@code sink}. */
    static DevicePathTracer tracer(
            ClientConfig config,
            String deviceId,
            int variant,
            EdgeModelStore models,
            PathReportSink sink) {
        return switch (config.pathTracer()) {
            case DIRECT ->
                    new PathTracer(
                            deviceId,
                            config.appVersion(),
                            variant,
                            models,
                            sink,
                            config.pathMaxReportBytes(),
                            config.pathsDebug());
            case STAGED ->
                    new StagedPathTracer(
                            deviceId,
                            config.appVersion(),
                            variant,
                            models,
                            sink,
                            config.pathMaxReportBytes(),
                            config.pathSegmentEvents(),
                            config.pathQueueSegments(),
                            StagedPathTracer.Coding.CODER_THREAD,
                            config.pathsDebug());
        };
    }

    /** Why {@link #start} leaves path tracing off with these inputs, or null if it starts it. */
    static String whyOff(ClientConfig config, BranchTable table, PathReportSink givenSink) {
        if (!config.pathsEnabled()) {
            return config.programAskedForPaths()
                    ? "not enabled: the program's settings ask for it, but only the machine's user"
                            + " can turn it on (-Dfieldprof.paths.enabled=true, or"
                            + " paths.enabled=true in "
                            + PathsConsent.FILE
                            + " in the user's state directory)"
                    : "not enabled (" + ClientConfig.KEY_PATHS_ENABLED + "=false)";
        }
        if (table == null) {
            return "the program has no branch description ("
                    + BranchTableText.RESOURCE
                    + "): it was instrumented without --paths";
        }
        if (givenSink == null && config.transport() != ClientConfig.TransportKind.KAFKA) {
            return "path reports need transport=kafka, not " + config.transport();
        }
        return null;
    }

    /** The table of the instrumented program on {@code loader}'s class path, or null. */
    static BranchTable tableOnClasspath(ClassLoader loader) {
        try {
            return BranchTableText.fromClasspath(loader);
        } catch (RuntimeException e) {
            return null; // unreadable: path tracing stays off rather than failing the host
        }
    }

    DevicePathTracer tracer() {
        return tracer;
    }

    /**
     * The counts of the sink: path reports sent, waiting in its spool, dropped by reason (a full
     * queue or spool); all zero for a sink the caller gave.
     */
    TransportCounters reportCounters() {
        if (!(sink instanceof AsyncPublisher<?> publisher)) {
            return TransportCounters.sum(java.util.List.of());
        }
        return publisher.counters();
    }

    /** Failures the threads of path tracing caught and survived: the model feed, the sink. */
    long backgroundFailures() {
        return (feed == null ? 0 : feed.failures())
                + (sink instanceof AsyncPublisher<?> publisher ? publisher.threadFailures() : 0);
    }

    /**
     * Cuts the path reports of the epoch (see {@link DevicePathTracer#endEpoch()}) and saves
     * counts.
     */
    void endEpoch() {
        tracer.endEpoch();
        try {
            ledger.persistPathCounts();
        } catch (IOException e) {
            // counted again at the next write; the host must not see it
        }
    }

    /**
     * At process exit, after the epoch's end cut the open paths: gives the reports at most {@code
     * wait} to reach the broker (a sink the caller gave is the caller's to flush); what it has not
     * taken by then (still queued, in flight, or the producer still connecting) goes to the sink's
     * spool for the next run. Without it the reports cut at exit were still queued when the JVM
     * halted.
     */
    void flushAtExit(Duration wait) {
        if (sink instanceof KafkaPathReportSink kafka) {
            if (!kafka.flush(wait)) {
                kafka.persistUndelivered(Duration.ofSeconds(1));
            }
        } else if (sink instanceof AsyncPublisher<?> publisher) {
            publisher.flush(wait);
        }
    }

    /** Stops tracing, cuts and flushes what is open, closes the sink and the model feed. */
    @Override
    public void close() {
        if (PathProbes.tracer() == tracer) {
            PathProbes.uninstall();
        }
        endEpoch();
        tracer.close(); // the staged tracer's coder thread
        if (feed != null) {
            feed.close();
        }
        try {
            sink.close();
        } catch (RuntimeException e) {
            // closing must go on
        }
    }

    /** Counts each report in the ledger before it is handed to the real sink. */
    private static final class LedgerCountingSink implements PathReportSink {
        private final PathReportSink out;
        private final PrivacyLedger ledger;

        LedgerCountingSink(PathReportSink out, PrivacyLedger ledger) {
            this.out = out;
            this.ledger = ledger;
        }

        @Override
        public void send(PathReport report) {
            long bytes = report.getCoded().remaining();
            if (report.getRaw() != null) {
                bytes += report.getRaw().remaining();
            }
            ledger.recordPathReport(bytes);
            out.send(report);
        }

        @Override
        public void flush() {
            out.flush();
        }
    }
}
