package dev.fieldprof.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fieldprof.client.ledger.PrivacyLedger;
import dev.fieldprof.client.tracing.DevicePathTracer;
import dev.fieldprof.client.tracing.PathReportSink;
import dev.fieldprof.client.tracing.StagedPathTracer;
import dev.fieldprof.client.transport.CallbackReportTransport;
import dev.fieldprof.ldp.SeededRandomSource;
import dev.fieldprof.paths.BranchTableText;
import dev.fieldprof.paths.EdgeModel;
import dev.fieldprof.paths.PathDecoder;
import dev.fieldprof.paths.PathRecording;
import dev.fieldprof.paths.PathReportHeader;
import dev.fieldprof.paths.ProbePlanText;
import dev.fieldprof.schemas.FrequencyReport;
import dev.fieldprof.schemas.PathReport;
import dev.fieldprof.schemas.Topics;
import java.lang.management.ManagementFactory;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Path tracing of the device runtime: opt-in, cut at epoch end, counted in the ledger. */
class DevicePathsTest {
    private static final String BRANCHES = "fieldprof-branches 1\nmethods 2\n0 0:2\n";
    @TempDir Path dir;
    @TempDir Path program;
    private final List<FrequencyReport> reports = new CopyOnWriteArrayList<>();
    private final CallbackReportTransport transport = new CallbackReportTransport(reports::add, 64);
    private final List<PathReport> paths = new CopyOnWriteArrayList<>();
    private final PathReportSink sink = paths::add;
    private ClassLoader previous;
    private URLClassLoader loader;

    @BeforeEach
    void programWithBranchDescription() throws Exception {
        Path resource = program.resolve(BranchTableText.RESOURCE);
        Files.createDirectories(resource.getParent());
        Files.writeString(resource, BRANCHES);
        loader = new URLClassLoader(new URL[] {program.toUri().toURL()}, null);
        previous = Thread.currentThread().getContextClassLoader();
        Thread.currentThread().setContextClassLoader(loader);
    }

    @AfterEach
    void tearDown() throws Exception {
        Thread.currentThread().setContextClassLoader(previous);
        loader.close();
        PathProbes.uninstall();
        transport.close();
    }

    private ClientConfig.Builder config() {
        return ClientConfig.builder()
                .appVersion("demo:1.0")
                .deviceId("device-7")
                .methodCount(2)
                .privacy("default", Math.log(9), 1, 10)
                .checkpointInterval(null)
                .transport(ClientConfig.TransportKind.NONE)
                .stateDir(dir);
    }

    private DeviceRuntime start(ClientConfig config) throws Exception {
        return DeviceRuntime.start(
                config, transport, new SeededRandomSource(1), Clock.systemUTC(), sink);
    }

    /** Ten calls of method 0, taking edge 1 of its branch block 0 each time. */
    private static void runProgram() {
        for (int i = 0; i < 10; i++) {
            Object h = PathProbes.enter(0);
            PathProbes.branch(h, 0, 0, 1);
            PathProbes.exit(h, 0);
        }
    }

    @Test
    void pathTracingIsOffByDefaultAndTheLedgerSaysSo() throws Exception {
        try (DeviceRuntime runtime = start(config().build())) {
            assertThat(runtime.pathTracer()).isEmpty();
            assertThat(runtime.pathTracingOffReason())
                    .contains("not enabled (paths.enabled=false)");
            assertThat(PathProbes.tracer()).isNull();
            runProgram();
            runtime.endEpoch();
            PrivacyLedger.Entry entry = runtime.ledger();
            assertThat(entry.pathTracing()).isFalse();
            assertThat(entry.format())
                    .contains("path-tracing off", "path-reports 0", "path-bytes 0");
        }
        assertThat(paths).isEmpty();
    }

    @Test
    void tracesWhenOptedInCutsReportsAtEpochEndAndCountsThemInTheLedger() throws Exception {
        long coded;
        try (DeviceRuntime runtime = start(config().paths(true, false).build())) {
            assertThat(PathProbes.tracer()).isSameAs(runtime.pathTracer().orElseThrow());
            assertThat(runtime.pathTracingOffReason()).isEmpty();
            runProgram();
            assertThat(paths).isEmpty();
            runtime.endEpoch();
            assertThat(paths).hasSize(1);
            PathReport report = paths.get(0);
            assertThat(report.getDeviceId().toString()).isEqualTo("device-7");
            assertThat(report.getAppVersion().toString()).isEqualTo("demo:1.0");
            assertThat(report.getModelVersion()).isEqualTo(0L);
            assertThat(report.getEvents()).isEqualTo(30L);
            assertThat(report.getRaw()).isNull();
            coded = report.getCoded().remaining();
            // Measured once: header and ten coded calls with the uniform model.
            assertThat(coded).isEqualTo(9L);
            assertThat(runtime.pathTracer().orElseThrow().reportBytes()).isEqualTo(coded);
            PrivacyLedger.Entry entry = runtime.ledger();
            assertThat(entry.pathTracing()).isTrue();
            assertThat(entry.pathReports()).isEqualTo(1L);
            assertThat(entry.pathBytes()).isEqualTo(coded);
            assertThat(entry.format())
                    .contains(
                            "path-tracing on (path reports are NOT randomized: the paths are"
                                    + " shared as they ran, no epsilon applies)",
                            "path-reports 1",
                            "path-bytes " + coded);
            // The frequency side is untouched: 30 path events are no frequency events.
            assertThat(entry.reports()).isZero();
        }
        assertThat(PathProbes.tracer()).isNull();
        // Persisted: what the CLI's ledger command shows.
        PrivacyLedger.Entry stored = PrivacyLedger.readAll(dir).get(0);
        assertThat(stored.pathTracing()).isTrue();
        assertThat(stored.pathReports()).isEqualTo(1L);
        assertThat(stored.pathBytes()).isEqualTo(coded);
        // The report decodes to exactly the ten calls.
        PathRecording decoded = new PathRecording();
        new PathDecoder(EdgeModel.uniform(BranchTableText.parse(BRANCHES)))
                .decode(bytes(paths.get(0).getCoded()), decoded);
        assertThat(decoded.size()).isEqualTo(30);
    }

    /**
     * {@code paths.tracer=staged}: the runtime installs the staged tracer with the buffer sizes of
     * the settings; its report is path format 4, names no dropped buffer and decodes to the same 30
     * events, and JMX shows the one 32-event buffer the traced thread holds (128 bytes) and no
     * dropped one.
     */
    @Test
    void theStagedSettingInstallsTheStagedTracerWithItsBuffersAndItWritesFormat4()
            throws Exception {
        ClientConfig config =
                config().paths(true, false)
                        .pathTracer(ClientConfig.PathTracerKind.STAGED)
                        .pathBuffers(32, 2)
                        .build();
        try (DeviceRuntime runtime = start(config)) {
            DevicePathTracer tracer = runtime.pathTracer().orElseThrow();
            assertThat(tracer).isInstanceOf(StagedPathTracer.class);
            assertThat(PathProbes.tracer()).isSameAs(tracer);
            runProgram();
            runtime.endEpoch(); // on the traced thread: its buffer is coded and cut now
            assertThat(paths).hasSize(1);
            PathReportHeader header = PathDecoder.readHeader(bytes(paths.get(0).getCoded()));
            assertThat(header.formatVersion()).isEqualTo(4);
            assertThat(header.droppedSegments()).isZero();
            assertThat(paths.get(0).getEvents()).isEqualTo(30L);
            PathRecording decoded = new PathRecording();
            new PathDecoder(EdgeModel.uniform(BranchTableText.parse(BRANCHES)))
                    .decode(bytes(paths.get(0).getCoded()), decoded);
            assertThat(decoded.size()).isEqualTo(30);
            assertThat(runtime.ledger().pathReports()).isEqualTo(1L);
            assertThat(tracer.bufferBytesHeld()).isEqualTo(32L * 4);
            javax.management.MBeanServer jmx = ManagementFactory.getPlatformMBeanServer();
            javax.management.ObjectName name = DeviceMetrics.name("demo:1.0");
            assertThat(jmx.getAttribute(name, "PathBufferBytes")).isEqualTo(128L);
            assertThat(jmx.getAttribute(name, "PathSegmentsDropped")).isEqualTo(0L);
        }
    }

    @Test
    void withAProbePlanTracesOnlyTheMethodsOfItsVariantAndNamesIt() throws Exception {
        // The device's variant by the plan's hash; its variant traces method 1, the other method 0.
        int variant = new ProbePlanText(99, 2, new int[][] {{0}, {1}}).variantOf("device-7");
        int[][] variants = new int[2][];
        variants[variant] = new int[] {1};
        variants[1 - variant] = new int[] {0};
        ProbePlanText plan = new ProbePlanText(99, 2, variants);
        Path resource = program.resolve(ProbePlanText.RESOURCE);
        Files.writeString(resource, plan.toText());
        try (DeviceRuntime runtime = start(config().paths(true, false).build())) {
            runProgram(); // method 0: not this variant's, never reaches the tracer
            for (int i = 0; i < 5; i++) {
                PathProbes.exit(PathProbes.enter(1), 1);
            }
            runtime.endEpoch();
        }
        assertThat(paths).hasSize(1);
        PathReport report = paths.get(0);
        assertThat(report.getVariant()).isEqualTo(variant);
        assertThat(report.getEvents()).isEqualTo(10L);
        PathRecording decoded = new PathRecording();
        new PathDecoder(EdgeModel.uniform(BranchTableText.parse(BRANCHES)))
                .decode(bytes(report.getCoded()), decoded);
        for (int i = 0; i < decoded.size(); i++) {
            assertThat(decoded.methodId(i)).isEqualTo(1);
        }
    }

    @Test
    void anUnreadableProbePlanLeavesPathTracingOff() throws Exception {
        Files.writeString(program.resolve(ProbePlanText.RESOURCE), "fieldprof-plan 1\nsalt x\n");
        try (DeviceRuntime runtime = start(config().paths(true, false).build())) {
            assertThat(runtime.pathTracer()).isEmpty();
            assertThat(runtime.pathTracingOffReason().orElseThrow())
                    .startsWith(
                            "could not start: java.lang.IllegalArgumentException: not a probe"
                                    + " plan");
            runProgram();
        }
        assertThat(paths).isEmpty();
    }

    @Test
    void debugReportsCarryRawEventsAndTheLedgerCountsTheirBytesToo() throws Exception {
        try (DeviceRuntime runtime = start(config().paths(true, true).build())) {
            runProgram();
            runtime.endEpoch();
            PathReport report = paths.get(0);
            long coded = report.getCoded().remaining();
            long raw = report.getRaw().remaining();
            // Measured once: 9 coded bytes and 81 bytes of raw events for the 30 events.
            assertThat(coded).isEqualTo(9L);
            assertThat(raw).isEqualTo(81L);
            assertThat(runtime.ledger().pathBytes()).isEqualTo(90L);
            PathRecording recorded = PathRecording.fromBytes(bytes(report.getRaw()));
            assertThat(recorded.size()).isEqualTo(30);
        }
    }

    @Test
    void closeCutsTheOpenReport() throws Exception {
        try (DeviceRuntime runtime = start(config().paths(true, false).build())) {
            runProgram();
        }
        assertThat(paths).hasSize(1);
        assertThat(paths.get(0).getEvents()).isEqualTo(30L);
        assertThat(PrivacyLedger.readAll(dir).get(0).pathReports()).isEqualTo(1L);
    }

    @Test
    void staysOffWithoutABranchDescriptionOrAWayToSendReports() throws Exception {
        Thread.currentThread().setContextClassLoader(new URLClassLoader(new URL[0], null));
        try (DeviceRuntime runtime = start(config().paths(true, false).build())) {
            assertThat(runtime.pathTracer()).isEmpty();
            assertThat(runtime.pathTracingOffReason())
                    .contains(
                            "the program has no branch description"
                                    + " (META-INF/fieldprof/branches.txt): it was instrumented"
                                    + " without --paths");
            assertThat(runtime.ledger().pathTracing()).isFalse();
        }
        Thread.currentThread().setContextClassLoader(loader);
        // File transport without a given sink: only Kafka carries path reports.
        try (DeviceRuntime runtime =
                DeviceRuntime.start(
                        config().paths(true, false)
                                .transport(ClientConfig.TransportKind.FILE)
                                .build(),
                        transport,
                        new SeededRandomSource(1),
                        Clock.systemUTC())) {
            assertThat(runtime.pathTracer()).isEmpty();
            assertThat(runtime.pathTracingOffReason())
                    .contains("path reports need transport=kafka, not FILE");
            assertThat(runtime.ledger().pathTracing()).isFalse();
        }
    }

    @Test
    void configKeysDefaultToOffAndTheStandardTopics() {
        Properties p = new Properties();
        p.setProperty(ClientConfig.KEY_APP_VERSION, "demo:1.0");
        p.setProperty(ClientConfig.KEY_METHOD_COUNT, "2");
        p.setProperty(ClientConfig.KEY_EPSILON, "1.0");
        p.setProperty(ClientConfig.KEY_T, "1");
        p.setProperty(ClientConfig.KEY_K, "10");
        p.setProperty(ClientConfig.KEY_MODE, "epsilon-t");
        p.setProperty(ClientConfig.KEY_STATE_DIR, dir.toString());
        ClientConfig defaults = ClientConfig.fromProperties(p);
        assertThat(defaults.pathsEnabled()).isFalse();
        assertThat(defaults.pathsDebug()).isFalse();
        assertThat(defaults.pathReportsTopic()).isEqualTo(Topics.PATH_REPORTS);
        assertThat(defaults.edgeModelsTopic()).isEqualTo(Topics.EDGE_MODELS);
        assertThat(defaults.pathMaxReportBytes()).isEqualTo(16384);
        assertThat(defaults.pathTracer()).isEqualTo(ClientConfig.PathTracerKind.DIRECT);
        assertThat(defaults.pathSegmentEvents()).isEqualTo(8192);
        assertThat(defaults.pathQueueSegments()).isEqualTo(16);

        p.setProperty("paths.enabled", "true");
        p.setProperty("paths.debug", "TRUE");
        p.setProperty("paths.kafka.reports.topic", "r");
        p.setProperty("paths.kafka.models.topic", "m");
        p.setProperty("paths.report.max.bytes", "4096");
        p.setProperty("paths.tracer", "Staged");
        p.setProperty("paths.staged.segment.events", "1024");
        p.setProperty("paths.staged.queue.segments", "4");
        ClientConfig on = ClientConfig.fromProperties(p);
        assertThat(on.pathTracer()).isEqualTo(ClientConfig.PathTracerKind.STAGED);
        assertThat(on.pathSegmentEvents()).isEqualTo(1024);
        assertThat(on.pathQueueSegments()).isEqualTo(4);
        assertThat(on.pathsEnabled()).isTrue();
        assertThat(on.pathsDebug()).isTrue();
        assertThat(on.pathReportsTopic()).isEqualTo("r");
        assertThat(on.edgeModelsTopic()).isEqualTo("m");
        assertThat(on.pathMaxReportBytes()).isEqualTo(4096);
        assertThat(on.toBuilder().build().pathsEnabled()).isTrue();

        p.setProperty("paths.enabled", "yes");
        assertThatThrownBy(() -> ClientConfig.fromProperties(p))
                .hasMessage("paths.enabled must be true or false, got 'yes'");
        p.setProperty("paths.enabled", "false");
        p.setProperty("paths.report.max.bytes", "8");
        assertThatThrownBy(() -> ClientConfig.fromProperties(p))
                .hasMessage("paths.report.max.bytes must be in [16, 1048576], got 8");
        p.setProperty("paths.report.max.bytes", "4096");
        p.setProperty("paths.staged.queue.segments", "0");
        assertThatThrownBy(() -> ClientConfig.fromProperties(p))
                .hasMessage("paths.staged.queue.segments must be in [1, 4096], got 0");
        p.setProperty("paths.staged.queue.segments", "4");
        p.setProperty("paths.tracer", "lazy");
        assertThatThrownBy(() -> ClientConfig.fromProperties(p))
                .hasMessage("paths.tracer must be one of direct, staged, got 'lazy'");
    }

    private static byte[] bytes(ByteBuffer buffer) {
        byte[] out = new byte[buffer.remaining()];
        buffer.duplicate().get(out);
        return out;
    }
}
