package dev.fieldprof.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.analysis.AnalysisRequest;
import dev.fieldprof.analysis.ProgramAnalyzer;
import dev.fieldprof.bytecode.AppPackages;
import dev.fieldprof.bytecode.cfg.BranchDescription;
import dev.fieldprof.bytecode.instrument.PathProbeInstrumenter;
import dev.fieldprof.bytecode.jar.JarContents;
import dev.fieldprof.client.PathProbes;
import dev.fieldprof.client.tracing.DevicePathTracer;
import dev.fieldprof.client.tracing.EdgeModelStore;
import dev.fieldprof.client.tracing.KafkaEdgeModelFeed;
import dev.fieldprof.client.tracing.KafkaPathReportSink;
import dev.fieldprof.client.tracing.PathTracer;
import dev.fieldprof.client.tracing.StagedPathTracer;
import dev.fieldprof.jobs.paths.PathJobOptions;
import dev.fieldprof.jobs.paths.PathModelJob;
import dev.fieldprof.paths.ArrayBranchTable;
import dev.fieldprof.paths.BranchTableText;
import dev.fieldprof.paths.EdgeModel;
import dev.fieldprof.paths.EdgeModelRecords;
import dev.fieldprof.paths.PathDecoder;
import dev.fieldprof.paths.PathEncoder;
import dev.fieldprof.paths.PathRecording;
import dev.fieldprof.paths.PathReportHeader;
import dev.fieldprof.paths.ProbePlanText;
import dev.fieldprof.samples.notes.UserSession;
import dev.fieldprof.schemas.DeadLetter;
import dev.fieldprof.schemas.DeadLetterReason;
import dev.fieldprof.schemas.MethodInfo;
import dev.fieldprof.schemas.PathReport;
import dev.fieldprof.schemas.ProgramModel;
import dev.fieldprof.schemas.RecordCodec;
import java.io.IOException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The adaptive path profiling loop end to end (docs/architecture.md, "Paths"): the sample notes
 * program is analysed and its program model (with CFGs) published on the programs topic, gets path
 * probes, devices run it with path tracing on (debug mode) and send coded path reports through
 * Kafka, the PathModelJob derives the branch table from the model and learns an edge model from
 * them and publishes it on the compacted model topic, every device adopts it from there, and the
 * same runs again cost fewer bytes. Every report decodes, with the model version it names, to
 * exactly the events recorded. The devices that adopt the learned model run the staged tracer (path
 * format 4), those of the other tests the direct one (format 3): the job learns from and decodes
 * both.
 */
class PathModelLoopITCase {
    private static final int DEVICES = 3;
    private static final int COMMANDS = 150;
    private static final String APP = "notes:paths-it";

    @RegisterExtension
    static final FieldprofRuntimeExtension RUNTIME = FieldprofRuntimeExtension.builder().build();

    @TempDir Path work;

    @Test
    void devicesAdoptTheLearnedModelAndTheirNextReportsAreSmallerAndDecodeExactly()
            throws Exception {
        String reports = RUNTIME.createRandomTopic(2, false);
        String models = RUNTIME.createRandomTopic(1, true);
        String deadLetters = RUNTIME.createRandomTopic(1, false);

        String programs = RUNTIME.createRandomTopic(1, true);

        // The program model (with its CFGs) is all the job learns the branch nodes from.
        Path programJar = SampleProgram.jar(work);
        ProgramModel program = analyzeNotes(programJar);
        publish(programs, program);
        Map<String, Integer> ids = methodIds(program);
        Path instrumented = work.resolve("notes-paths.jar");
        PathProbeInstrumenter.Result instrumentation =
                new PathProbeInstrumenter(ids).instrumentJar(programJar, instrumented, ids.size());
        assertThat(instrumentation.methodsSkipped()).isEmpty();
        // Devices build their table from the jar's description, the job from the model.
        BranchDescription branches = instrumentation.branches();
        ArrayBranchTable table = BranchTableText.parse(branches.toText());

        StreamExecutionEnvironment env = RUNTIME.environment();
        PathModelJob.onKafka(
                        pathJob(
                                reports,
                                programs,
                                models,
                                deadLetters,
                                "paths-it-" + reports,
                                "--window",
                                "2 s",
                                "--time",
                                "processing"))
                .buildInto(env);
        JobClient job = env.executeAsync(PathModelJob.NAME);
        List<Device> devices = new ArrayList<>();
        try {
            for (int d = 0; d < DEVICES; d++) {
                devices.add(Device.staged("path-device-" + d, table, reports, models));
            }
            long[] before = new long[DEVICES];
            for (int d = 0; d < DEVICES; d++) {
                before[d] = devices.get(d).run(instrumented, d);
            }
            for (Device device : devices) {
                assertThat(device.store.awaitVersion(1, Duration.ofSeconds(120)))
                        .as("%s adopts a learned model", device.id)
                        .isTrue();
            }
            long[] after = new long[DEVICES];
            for (int d = 0; d < DEVICES; d++) {
                after[d] = devices.get(d).run(instrumented, d);
            }
            for (int d = 0; d < DEVICES; d++) {
                Device device = devices.get(d);
                System.out.printf(
                        "device %d: %d coded bytes with the uniform model, %d with model %d"
                                + " (%.1f%% smaller), events %d%n",
                        d,
                        before[d],
                        after[d],
                        device.store.current().version(),
                        100.0 * (before[d] - after[d]) / before[d],
                        device.eventsPerRun);
                assertThat(after[d]).as("device %d bytes after adoption", d).isLessThan(before[d]);
            }
        } finally {
            for (Device device : devices) {
                device.close();
            }
        }

        // Debug mode: every report decodes with the model it names to exactly its raw events.
        RecordCodec<dev.fieldprof.schemas.EdgeModel> modelCodec =
                RecordCodec.of(dev.fieldprof.schemas.EdgeModel.class);
        Map<Long, EdgeModel> byVersion = new HashMap<>();
        byVersion.put(0L, EdgeModel.uniform(table));
        for (byte[] bytes : RUNTIME.drain(models, new ByteArrayDeserializer())) {
            EdgeModel m = EdgeModelRecords.fromRecord(modelCodec.decode(bytes), table);
            byVersion.put(m.version(), m);
        }
        job.cancel().get();
        RecordCodec<PathReport> reportCodec = RecordCodec.of(PathReport.class);
        List<byte[]> sent = RUNTIME.drain(reports, new ByteArrayDeserializer());
        long events = 0;
        Set<Long> versionsUsed = new HashSet<>();
        for (byte[] bytes : sent) {
            PathReport report = reportCodec.decode(bytes);
            EdgeModel model = byVersion.get(report.getModelVersion());
            assertThat(model).as("model %d", report.getModelVersion()).isNotNull();
            PathRecording decoded = new PathRecording();
            // The staged devices write path format version 4, which the job decoded to learn the
            // models; coding on the traced thread, they drop no buffer.
            PathReportHeader header = PathDecoder.readHeader(array(report.getCoded()));
            assertThat(header.formatVersion()).isEqualTo(4);
            assertThat(header.droppedSegments()).isZero();
            new PathDecoder(model).decode(array(report.getCoded()), decoded);
            PathRecording recorded = PathRecording.fromBytes(array(report.getRaw()));
            assertThat(decoded.firstDifference(recorded))
                    .as("first difference in report %s", report.getReportId())
                    .isEqualTo(-1);
            events += decoded.size();
            versionsUsed.add(report.getModelVersion());
        }
        System.out.printf(
                "%d reports, %d events decoded exactly, model versions %s%n",
                sent.size(), events, versionsUsed);
        assertThat(versionsUsed).contains(0L).hasSizeGreaterThan(1);
        assertThat(RUNTIME.drain(deadLetters, new ByteArrayDeserializer())).isEmpty();
    }

    /**
     * A window of several megabytes of real path reports (the notes program, all methods
     * path-traced, four devices over four partitions) at parallelism 2 and 4 shards. While the
     * window is open, the job's whole state (a savepoint) is a small fraction of the reports'
     * bytes: it holds edge counts, not reports (before, every raw report of the window waited in
     * one key's list state, and the savepoint outgrew the reports). Draining the job then closes
     * the window: one model whose report count is every report sent, and no dead letter.
     */
    @Test
    void holdsAWindowOfMegabytesOfPathReportsAsEdgeCounts() throws Exception {
        String reports = RUNTIME.createRandomReportTopic(4);
        String models = RUNTIME.createRandomTopic(1, true);
        String deadLetters = RUNTIME.createRandomTopic(1, false);
        String programs = RUNTIME.createRandomTopic(1, true);
        Path programJar = SampleProgram.jar(work);
        ProgramModel program = analyzeNotes(programJar);
        publish(programs, program);
        Map<String, Integer> ids = methodIds(program);
        Path instrumented = work.resolve("notes-paths.jar");
        BranchDescription branches =
                new PathProbeInstrumenter(ids)
                        .instrumentJar(programJar, instrumented, ids.size())
                        .branches();
        ArrayBranchTable table = BranchTableText.parse(branches.toText());

        String group = "paths-big-" + reports;
        StreamExecutionEnvironment env = RUNTIME.environment();
        env.setParallelism(2);
        PathModelJob.onKafka(
                        pathJob(
                                reports,
                                programs,
                                models,
                                deadLetters,
                                group,
                                "--window",
                                "1 h",
                                "--shards",
                                "4"))
                .buildInto(env);
        JobClient job = env.executeAsync(PathModelJob.NAME);
        long bytesSent = 0;
        long reportsSent;
        List<Device> devices = new ArrayList<>();
        try {
            for (int d = 0; d < 4; d++) {
                devices.add(new Device("big-device-" + d, table, reports, models, false));
            }
            for (int run = 0; bytesSent < 4_000_000; run++) {
                bytesSent += devices.get(run % 4).run(instrumented, run, 1_500);
            }
            reportsSent = devices.stream().mapToLong(d -> d.tracer.reports()).sum();
        } finally {
            for (Device device : devices) {
                device.close();
            }
        }
        awaitConsumed(group, reports, reportsSent);
        Path savepoint =
                Path.of(
                        java.net.URI.create(
                                job.triggerSavepoint(
                                                work.resolve("savepoints").toUri().toString(),
                                                SavepointFormatType.CANONICAL)
                                        .get(120, TimeUnit.SECONDS)));
        long stateBytes = sizeOf(savepoint);
        System.out.printf(
                "%d path reports, %d coded bytes in one open window; savepoint %d bytes (%.2f%%)%n",
                reportsSent, bytesSent, stateBytes, 100.0 * stateBytes / bytesSent);
        assertThat(stateBytes).isLessThan(bytesSent / 10);

        // Drained: the final watermark closes the window.
        job.stopWithSavepoint(
                        true,
                        work.resolve("final").toUri().toString(),
                        SavepointFormatType.CANONICAL)
                .get(120, TimeUnit.SECONDS);
        RecordCodec<dev.fieldprof.schemas.EdgeModel> modelCodec =
                RecordCodec.of(dev.fieldprof.schemas.EdgeModel.class);
        long counted = 0;
        for (byte[] bytes : RUNTIME.drain(models, new ByteArrayDeserializer())) {
            dev.fieldprof.schemas.EdgeModel m = modelCodec.decode(bytes);
            assertThat(m.getWriter()).isEqualTo(group);
            counted += m.getWindowReports();
        }
        assertThat(counted).as("reports counted in models").isEqualTo(reportsSent);
        assertThat(RUNTIME.drain(deadLetters, new ByteArrayDeserializer())).isEmpty();
    }

    /**
     * A probe plan of two variants that split the notes program's methods in two. Two devices whose
     * ids hash to different variants run the same sessions: each traces only its variant's methods
     * (their decoded reports never share a method), the paths job learns models from both, and a
     * report that claims one variant but holds a method of the other is an INVALID dead letter, so
     * the job learns each method only from the devices whose variant traces it.
     */
    @Test
    void devicesOfTwoVariantsTraceDisjointMethodsAndTheJobLearnsEachFromItsOwn() throws Exception {
        String reports = RUNTIME.createRandomReportTopic(2);
        String models = RUNTIME.createRandomTopic(1, true);
        String deadLetters = RUNTIME.createRandomTopic(1, false);
        String programs = RUNTIME.createRandomTopic(1, true);
        Path programJar = SampleProgram.jar(work);
        ProgramModel analysed = analyzeNotes(programJar);
        int methodCount = analysed.getMethods().size();
        List<List<Integer>> halves = List.of(new ArrayList<>(), new ArrayList<>());
        List<Long> costs = new ArrayList<>();
        for (int m = 0; m < methodCount; m++) {
            halves.get(m % 2).add(m);
            costs.add(1L);
        }
        ProgramModel program =
                ProgramModel.newBuilder(analysed)
                        .setProbePlan(
                                dev.fieldprof.schemas.ProbePlan.newBuilder()
                                        .setSalt(20261124L)
                                        .setVariantCount(2)
                                        .setVariants(halves)
                                        .setStrategy("balanced-probes")
                                        .setHBound((methodCount + 1) / 2)
                                        .setCostUnit("methods")
                                        .setMethodCosts(costs)
                                        .setAlpha(1)
                                        .setBeta(0)
                                        .setGamma(1)
                                        .setSeed(1)
                                        .build())
                        .build();
        ProbePlanText plan = ProbePlanText.of(program);
        publish(programs, program);
        Map<String, Integer> ids = methodIds(program);
        Path instrumented = work.resolve("notes-plan.jar");
        BranchDescription branches =
                new PathProbeInstrumenter(ids)
                        .instrumentJar(
                                programJar,
                                instrumented,
                                methodCount,
                                Map.of(
                                        ProbePlanText.RESOURCE,
                                        plan.toText().getBytes(StandardCharsets.UTF_8)))
                        .branches();
        ArrayBranchTable table = BranchTableText.parse(branches.toText());
        assertThat(JarContents.read(instrumented).entries())
                .anyMatch(e -> e.name().equals(ProbePlanText.RESOURCE));

        String group = "paths-plan-" + reports;
        StreamExecutionEnvironment env = RUNTIME.environment();
        PathModelJob.onKafka(
                        pathJob(
                                reports,
                                programs,
                                models,
                                deadLetters,
                                group,
                                "--window",
                                "2 s",
                                "--time",
                                "processing"))
                .buildInto(env);
        JobClient job = env.executeAsync(PathModelJob.NAME);
        Map<Integer, Set<Integer>> methodsByVariant = new HashMap<>();
        List<Device> devices = new ArrayList<>();
        try {
            // One device per variant: ids found by the plan's own hash.
            for (int i = 0; devices.size() < 2; i++) {
                String id = "plan-device-" + i;
                int variant = plan.variantOf(id);
                if (devices.stream().noneMatch(d -> d.variant == variant)) {
                    devices.add(new Device(id, table, reports, models, true, plan));
                }
            }
            for (Device device : devices) {
                device.run(instrumented, 3);
            }
            for (Device device : devices) {
                assertThat(device.store.awaitVersion(1, Duration.ofSeconds(120)))
                        .as("%s adopts a learned model", device.id)
                        .isTrue();
            }
            // The same runs again, coded with the models as each variant adopted them (its own
            // methods only).
            for (Device device : devices) {
                device.run(instrumented, 3);
            }
            // A forged report: variant 1's claim with the events of variant 0's device.
            Device forger = devices.stream().filter(d -> d.variant == 1).findFirst().orElseThrow();
            PathEncoder encoder = new PathEncoder(EdgeModel.uniform(table));
            encoder.enterMethod(halves.get(0).get(0));
            encoder.exitMethod(halves.get(0).get(0));
            long events = encoder.eventsInReport();
            byte[] coded = encoder.finishReport();
            forger.sink.send(
                    PathReport.newBuilder()
                            .setReportId("forged")
                            .setDeviceId(forger.id)
                            .setAppVersion(APP)
                            .setVariant(1)
                            .setThread(9)
                            .setSequence(0)
                            .setModelVersion(0)
                            .setEvents(events)
                            .setCreatedAtMillis(java.time.Instant.now())
                            .setCoded(ByteBuffer.wrap(coded))
                            .build());
        } finally {
            for (Device device : devices) {
                device.close();
            }
        }
        List<byte[]> letters =
                RUNTIME.awaitRecords(
                        deadLetters, new ByteArrayDeserializer(), 1, Duration.ofSeconds(60));
        job.cancel().get();

        RecordCodec<PathReport> reportCodec = RecordCodec.of(PathReport.class);
        RecordCodec<dev.fieldprof.schemas.EdgeModel> modelCodec =
                RecordCodec.of(dev.fieldprof.schemas.EdgeModel.class);
        Map<String, EdgeModel> byVersionAndWriter = new HashMap<>();
        Set<Long> adoptedVersions = new HashSet<>();
        byVersionAndWriter.put("0/", EdgeModel.uniform(table));
        for (byte[] bytes : RUNTIME.drain(models, new ByteArrayDeserializer())) {
            EdgeModel m = EdgeModelRecords.fromRecord(modelCodec.decode(bytes), table);
            byVersionAndWriter.put(m.version() + "/" + m.writer(), m);
        }
        for (byte[] bytes : RUNTIME.drain(reports, new ByteArrayDeserializer())) {
            PathReport report = reportCodec.decode(bytes);
            if (report.getReportId().toString().equals("forged")) {
                continue;
            }
            EdgeModel model =
                    byVersionAndWriter.get(
                            report.getModelVersion() + "/" + report.getModelWriter());
            PathRecording decoded = new PathRecording();
            new PathDecoder(model).decode(array(report.getCoded()), decoded);
            assertThat(decoded.firstDifference(PathRecording.fromBytes(array(report.getRaw()))))
                    .as("report %s coded with model %d", report.getReportId(), model.version())
                    .isEqualTo(-1);
            adoptedVersions.add(report.getModelVersion());
            for (int i = 0; i < decoded.size(); i++) {
                methodsByVariant
                        .computeIfAbsent(report.getVariant(), v -> new HashSet<>())
                        .add(decoded.methodId(i));
            }
        }
        System.out.printf(
                "methods traced: variant 0 %d, variant 1 %d%n",
                methodsByVariant.get(0).size(), methodsByVariant.get(1).size());
        assertThat(adoptedVersions).as("model versions reports were coded with").contains(0L);
        assertThat(adoptedVersions).anyMatch(v -> v >= 1);
        assertThat(halves.get(0)).containsAll(methodsByVariant.get(0));
        assertThat(halves.get(1)).containsAll(methodsByVariant.get(1));
        assertThat(methodsByVariant.get(0))
                .isNotEmpty()
                .doesNotContainAnyElementsOf(methodsByVariant.get(1));
        RecordCodec<DeadLetter> letterCodec = RecordCodec.of(DeadLetter.class);
        assertThat(letters).hasSize(1);
        DeadLetter letter = letterCodec.decode(letters.get(0));
        assertThat(letter.getReasonCode()).isEqualTo(DeadLetterReason.INVALID);
        assertThat(letter.getReason().toString())
                .isEqualTo(
                        "path report forged: variant 1 does not trace method "
                                + halves.get(0).get(0));
    }

    /**
     * The sample notes program's model (with CFGs), its application being dev.fieldprof.samples.
     */
    private static ProgramModel analyzeNotes(Path programJar) {
        return ProgramAnalyzer.analyze(
                        AnalysisRequest.of(programJar, APP)
                                .withAppPackages(AppPackages.parse("dev.fieldprof.samples")))
                .model();
    }

    /** Publishes the model on the programs topic, keyed by its app version. */
    private static void publish(String programs, ProgramModel program) {
        RUNTIME.produce(
                List.of(
                        new ProducerRecord<>(
                                programs, APP, RecordCodec.of(ProgramModel.class).encode(program))),
                new StringSerializer(),
                new ByteArraySerializer());
    }

    /**
     * The paths job's options on this test's topics, checkpointing every second, with {@code group}
     * as consumer group and transactional-id prefix, plus {@code more}.
     */
    private static PathJobOptions pathJob(
            String reports,
            String programs,
            String models,
            String deadLetters,
            String group,
            String... more) {
        List<String> args =
                new ArrayList<>(
                        List.of(
                                "--bootstrap", RUNTIME.bootstrapServers(),
                                "--reports-topic", reports,
                                "--programs-topic", programs,
                                "--models-topic", models,
                                "--dead-letter-topic", deadLetters,
                                "--checkpoint-interval", "1 s",
                                "--group-id", group,
                                "--transactional-id-prefix", group));
        args.addAll(List.of(more));
        return PathJobOptions.parse(args.toArray(new String[0]));
    }

    /** Signature → method id, what the path instrumenter selects methods by. */
    private static Map<String, Integer> methodIds(ProgramModel program) {
        Map<String, Integer> ids = new HashMap<>();
        for (MethodInfo method : program.getMethods()) {
            ids.put(method.getSignature().toString(), method.getId());
        }
        return ids;
    }

    /** Waits until the job's consumer group has committed every report's offset. */
    private static void awaitConsumed(String group, String topic, long records) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
        long committed = -1;
        while (System.nanoTime() < deadline) {
            committed = 0;
            for (var offset :
                    RUNTIME.admin()
                            .listConsumerGroupOffsets(group)
                            .partitionsToOffsetAndMetadata()
                            .get()
                            .entrySet()) {
                if (offset.getKey().topic().equals(topic) && offset.getValue() != null) {
                    committed += offset.getValue().offset();
                }
            }
            if (committed >= records) {
                return;
            }
            Thread.sleep(200); // polling the broker's committed offsets, not waiting for time
        }
        throw new AssertionError(
                "the job committed " + committed + " of " + records + " report offsets");
    }

    private static long sizeOf(Path dir) throws IOException {
        try (var files = java.nio.file.Files.walk(dir)) {
            return files.filter(java.nio.file.Files::isRegularFile)
                    .mapToLong(
                            f -> {
                                try {
                                    return java.nio.file.Files.size(f);
                                } catch (IOException e) {
                                    throw new java.io.UncheckedIOException(e);
                                }
                            })
                    .sum();
        }
    }

    private static byte[] array(ByteBuffer buffer) {
        byte[] out = new byte[buffer.remaining()];
        buffer.duplicate().get(out);
        return out;
    }

    /**
     * A fresh directory for a simulated device's path report spool (empty unless the broker fails).
     */
    private static Path spoolDir(String deviceId) {
        try {
            return java.nio.file.Files.createTempDirectory(
                    "fieldprof-paths-spool-" + deviceId.replaceAll("[^A-Za-z0-9-]", "_") + "-");
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** One simulated device: its model store following the model topic, tracer and sink. */
    private static final class Device implements AutoCloseable {
        final String id;
        final EdgeModelStore store;
        final KafkaEdgeModelFeed feed;
        final KafkaPathReportSink sink;
        final DevicePathTracer tracer;
        final int variant;
        final boolean[] traced;
        long eventsPerRun;

        Device(String id, ArrayBranchTable table, String reports, String models) {
            this(id, table, reports, models, true);
        }

        Device(String id, ArrayBranchTable table, String reports, String models, boolean debug) {
            this(id, table, reports, models, debug, null);
        }

        Device(
                String id,
                ArrayBranchTable table,
                String reports,
                String models,
                boolean debug,
                ProbePlanText plan) {
            this(id, table, reports, models, debug, plan, false);
        }

        /**
         * A device of the staged tracer (debug mode), coding each full buffer on the traced thread
         * at its hand-over: the format and the buffer boundaries of a staged device, and no buffer
         * dropped, so both runs code the same events.
         */
        static Device staged(String id, ArrayBranchTable table, String reports, String models) {
            return new Device(id, table, reports, models, true, null, true);
        }

        private Device(
                String id,
                ArrayBranchTable table,
                String reports,
                String models,
                boolean debug,
                ProbePlanText plan,
                boolean staged) {
            this.id = id;
            this.variant = plan == null ? 0 : plan.variantOf(id);
            this.traced = plan == null ? null : plan.traced(variant);
            // A device adopts each model for exactly its variant's methods, as DevicePaths does.
            this.store = new EdgeModelStore(APP, table, traced);
            this.feed = new KafkaEdgeModelFeed(RUNTIME.bootstrapServers(), models, store);
            this.sink =
                    new KafkaPathReportSink(
                            RUNTIME.bootstrapServers(),
                            reports,
                            Duration.ofSeconds(30),
                            spoolDir(id),
                            16 << 20);
            this.tracer =
                    staged
                            ? new StagedPathTracer(
                                    id,
                                    APP,
                                    variant,
                                    store,
                                    sink,
                                    PathTracer.DEFAULT_MAX_REPORT_BYTES,
                                    StagedPathTracer.DEFAULT_SEGMENT_EVENTS,
                                    StagedPathTracer.Coding.TRACED_THREAD,
                                    debug)
                            : new PathTracer(
                                    id,
                                    APP,
                                    variant,
                                    store,
                                    sink,
                                    PathTracer.DEFAULT_MAX_REPORT_BYTES,
                                    debug);
        }

        /** One session of the instrumented program; returns the coded bytes it produced. */
        long run(Path instrumentedJar, long userSeed) throws Exception {
            return run(instrumentedJar, userSeed, COMMANDS);
        }

        long run(Path instrumentedJar, long userSeed, int commands) throws Exception {
            long bytes = tracer.reportBytes();
            long eventsBefore = tracer.reportEvents();
            // A fresh loader per run: no static state carries over, so both runs are identical.
            try (URLClassLoader loader = new ChildFirstLoader(instrumentedJar)) {
                Class<?> session = Class.forName(UserSession.class.getName(), true, loader);
                Object s = session.getConstructor(long.class, long.class).newInstance(userSeed, 7L);
                Method run = session.getMethod("run", int.class);
                PathProbes.install(tracer, traced);
                try {
                    run.invoke(s, commands);
                } finally {
                    tracer.endEpoch();
                    PathProbes.uninstall();
                }
            }
            assertThat(sink.failed()).isZero();
            assertThat(tracer.droppedEvents()).isZero();
            assertThat(tracer.droppedSegments()).isZero();
            assertThat(PathProbes.failures()).isZero();
            long events = tracer.reportEvents() - eventsBefore;
            if (eventsPerRun > 0 && commands == COMMANDS) {
                assertThat(events).as("both runs are the same execution").isEqualTo(eventsPerRun);
            }
            eventsPerRun = events;
            return tracer.reportBytes() - bytes;
        }

        @Override
        public void close() {
            feed.close();
            sink.close();
        }
    }

    /** Loads the instrumented jar's own classes itself; everything else from the test's loader. */
    private static final class ChildFirstLoader extends URLClassLoader {
        private final Set<String> own = new HashSet<>();

        ChildFirstLoader(Path jar) throws IOException {
            super(new URL[] {jar.toUri().toURL()}, PathModelLoopITCase.class.getClassLoader());
            for (JarContents.Entry entry : JarContents.read(jar).entries()) {
                String name = entry.name();
                if (name.endsWith(".class")) {
                    own.add(name.substring(0, name.length() - 6).replace('/', '.'));
                }
            }
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (!own.contains(name)) {
                return super.loadClass(name, resolve);
            }
            synchronized (getClassLoadingLock(name)) {
                Class<?> c = findLoadedClass(name);
                if (c == null) {
                    c = findClass(name);
                }
                if (resolve) {
                    resolveClass(c);
                }
                return c;
            }
        }
    }
}
