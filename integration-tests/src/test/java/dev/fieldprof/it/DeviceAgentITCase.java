package dev.fieldprof.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.analysis.AnalysisRequest;
import dev.fieldprof.analysis.ProgramAnalyzer;
import dev.fieldprof.analysis.plan.PlanOptions;
import dev.fieldprof.analysis.plan.ProbePlanner;
import dev.fieldprof.analysis.plan.Strategy;
import dev.fieldprof.bytecode.AppPackages;
import dev.fieldprof.bytecode.jar.JarContents;
import dev.fieldprof.bytecode.model.ProgramModels;
import dev.fieldprof.paths.EdgeModel;
import dev.fieldprof.paths.PathDecoder;
import dev.fieldprof.paths.PathRecording;
import dev.fieldprof.paths.ProbePlanText;
import dev.fieldprof.paths.ProgramModelBranches;
import dev.fieldprof.schemas.FrequencyReport;
import dev.fieldprof.schemas.PathReport;
import dev.fieldprof.schemas.ProgramModel;
import dev.fieldprof.schemas.RecordCodec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The device artifact as a {@code -javaagent} on a real program from Maven Central (gson, driven by
 * the workloads module's seeded driver) in its own JVM, beside a host class path that carries
 * another kafka-clients version (and its own SLF4J binding, which would print any log line of a
 * Kafka client that used it). The host sees its own Kafka client, the reports arrive through the
 * real broker and decode, and nothing of fieldprof, SLF4J or Kafka reaches the host's streams: its
 * output with the agent equals its output without.
 */
class DeviceAgentITCase {
    private static final String APP = "gson:agent-it";
    private static final int K = 50;
    private static final RecordCodec<FrequencyReport> CODEC = RecordCodec.of(FrequencyReport.class);

    @RegisterExtension
    static final FieldprofRuntimeExtension RUNTIME =
            FieldprofRuntimeExtension.builder().partitions(1).taskSlots(1).build();

    @TempDir static Path work;
    static AgentHost host;
    static Path agentJar;
    static Path modelFile;
    static ProgramModel model;

    @BeforeAll
    static void prepare() throws Exception {
        host = new AgentHost(work);
        agentJar = host.agentJar;
        model =
                ProgramAnalyzer.analyze(
                                AnalysisRequest.of(host.gsonJar, APP)
                                        .withAppPackages(AppPackages.parse("com.google.gson"))
                                        .withPrivacy("default", Math.log(9), 1, K))
                        .model();
        modelFile = work.resolve("gson.model");
        ProgramModels.write(model, modelFile);
    }

    @Test
    void theArtifactHoldsNoClassOutsideFieldprofsOwnPackages() {
        List<String> foreign = new ArrayList<>();
        for (JarContents.Entry entry : JarContents.read(agentJar).entries()) {
            if (entry.name().endsWith(".class") && !entry.name().startsWith("dev/fieldprof/")) {
                foreign.add(entry.name());
            }
        }
        assertThat(foreign).isEmpty();
    }

    @Test
    void theAgentReportsFromAHostWithItsOwnKafkaClientAndSaysNothingOnItsStreams()
            throws Exception {
        String topic = RUNTIME.createRandomReportTopic(1);
        Path state = work.resolve("device-state");
        AgentHost.Output plain = host.run(List.of(), 11);
        List<String> agent =
                List.of(
                        "-javaagent:" + agentJar + "=model=" + modelFile,
                        "-Dfieldprof.transport=kafka",
                        // Reports of K events at eps per event: far above the default budget.
                        "-Dfieldprof.privacy.budget=none",
                        "-Dfieldprof.transport.kafka.bootstrap.servers="
                                + RUNTIME.bootstrapServers(),
                        "-Dfieldprof.transport.kafka.topic=" + topic,
                        "-Dfieldprof.device.id=agent-it-device",
                        // A cold JVM's first delivery can take longer than the 2 s default.
                        "-Dfieldprof.transport.exit.wait=PT30S",
                        "-Dfieldprof.state.dir=" + state);
        AgentHost.Output first = host.run(agent, 11);
        AgentHost.Output second = host.run(agent, 12);
        System.out.println("host without the agent: " + plain);
        System.out.println("host with the agent, run 1: " + first);
        System.out.println("host with the agent, run 2: " + second);

        assertThat(plain.stdout()).isEqualTo(host.expectedStdout());
        assertThat(first.stdout()).isEqualTo(plain.stdout());
        assertThat(second.stdout()).isEqualTo(plain.stdout());
        assertThat(plain.stderr()).isEmpty();
        assertThat(first.stderr()).isEmpty();
        assertThat(second.stderr()).isEmpty();
        assertThat(first.exitCode()).isZero();
        assertThat(second.exitCode()).isZero();

        List<ConsumerRecord<String, byte[]>> records =
                RUNTIME.drainRecords(topic, new StringDeserializer(), new ByteArrayDeserializer());
        System.out.println("reports on " + topic + ": " + records.size());
        // Nothing waits in the device's spool: both reports were delivered before each exit.
        assertThat(spooled(state.resolve("spool"))).isEmpty();
        assertThat(records).hasSize(2); // one per run: each run is an epoch of at least k events
        List<String> ids = new ArrayList<>();
        for (ConsumerRecord<String, byte[]> record : records) {
            FrequencyReport report = CODEC.decode(record.value());
            assertThat(record.key()).isEqualTo("agent-it-device");
            assertThat(report.getAppVersion()).isEqualTo(APP);
            assertThat(report.getK()).isEqualTo(K);
            assertThat(report.getCounts()).hasSize(model.getMethods().size());
            ids.add(report.getReportId());
        }
        assertThat(ids).doesNotHaveDuplicates();
    }

    @Test
    void withAPlannedModelAndPathsTheDeviceTracesOnlyItsVariantsMethods() throws Exception {
        ProgramModel planned =
                ProbePlanner.plan(model, PlanOptions.of(Strategy.BALANCED_PROBES, 4, 100, 7))
                        .applyTo(model);
        Path plannedFile = work.resolve("gson-planned.model");
        ProgramModels.write(planned, plannedFile);
        ProbePlanText plan = ProbePlanText.of(planned);
        String device = "agent-it-paths-device";
        int variant = plan.variantOf(device);
        boolean[] traced = plan.traced(variant);
        String frequency = RUNTIME.createRandomReportTopic(1);
        String paths = RUNTIME.createRandomReportTopic(1);
        String models = RUNTIME.createRandomTopic(1, true);
        AgentHost.Output run =
                host.run(
                        List.of(
                                "-javaagent:" + agentJar + "=model=" + plannedFile + ",paths",
                                "-Dfieldprof.transport=kafka",
                                // Reports of K events at eps per event: far above the default
                                // budget.
                                "-Dfieldprof.privacy.budget=none",
                                "-Dfieldprof.transport.kafka.bootstrap.servers="
                                        + RUNTIME.bootstrapServers(),
                                "-Dfieldprof.transport.kafka.topic=" + frequency,
                                "-Dfieldprof.paths.kafka.reports.topic=" + paths,
                                "-Dfieldprof.paths.kafka.models.topic=" + models,
                                "-Dfieldprof.device.id=" + device,
                                "-Dfieldprof.state.dir=" + work.resolve("paths-state"),
                                "-Dfieldprof.transport.exit.wait=PT30S"),
                        11);
        System.out.println("host with the agent and paths: " + run);
        assertThat(run.stdout()).isEqualTo(host.expectedStdout());
        assertThat(run.stderr()).isEmpty();

        List<byte[]> reports =
                RUNTIME.awaitRecords(paths, new ByteArrayDeserializer(), 1, Duration.ofSeconds(60));
        System.out.println("path reports: " + reports.size() + ", variant " + variant);
        assertThat(reports).hasSize(1); // one thread (main) traced, one epoch
        PathReport report = RecordCodec.of(PathReport.class).decode(reports.get(0));
        assertThat(report.getDeviceId().toString()).isEqualTo(device);
        assertThat(report.getVariant()).isEqualTo(variant);
        byte[] coded = new byte[report.getCoded().remaining()];
        report.getCoded().duplicate().get(coded);
        PathRecording events = new PathRecording();
        new PathDecoder(EdgeModel.uniform(ProgramModelBranches.table(planned)))
                .decode(coded, events);
        assertThat(events.size()).isEqualTo(report.getEvents()).isPositive();
        Set<Integer> methods = new TreeSet<>();
        for (int i = 0; i < events.size(); i++) {
            methods.add(events.methodId(i));
        }
        assertThat(methods).allSatisfy(m -> assertThat(traced[m]).as("method " + m).isTrue());
        assertThat(RUNTIME.drain(frequency, new ByteArrayDeserializer())).hasSize(1);
    }

    @Test
    void aModelFileItCannotReadIsOneLineOnStderrAndTheProgramRunsOn() throws Exception {
        Path missing = work.resolve("no-such.model");
        AgentHost.Output run =
                host.run(List.of("-javaagent:" + agentJar + "=model=" + missing), 11);
        assertThat(run.stdout()).isEqualTo(host.expectedStdout());
        assertThat(run.stderr())
                .containsExactly(
                        "fieldprof agent: cannot read model file "
                                + missing
                                + ": java.nio.file.NoSuchFileException: "
                                + missing
                                + "; the program runs without fieldprof");
        assertThat(run.exitCode()).isZero();
    }

    private static List<Path> spooled(Path spool) throws IOException {
        if (!Files.exists(spool)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(spool)) {
            return files.toList();
        }
    }
}
