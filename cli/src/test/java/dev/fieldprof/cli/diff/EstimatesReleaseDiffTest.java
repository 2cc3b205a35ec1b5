package dev.fieldprof.cli.diff;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fieldprof.bytecode.model.ProgramModels;
import dev.fieldprof.cli.CliCapture;
import dev.fieldprof.cli.demo.InstrumentedProgramLoader;
import dev.fieldprof.client.ClientConfig;
import dev.fieldprof.client.DeviceRuntime;
import dev.fieldprof.client.Probes;
import dev.fieldprof.client.transport.CallbackReportTransport;
import dev.fieldprof.estimation.PartialSum;
import dev.fieldprof.jobs.frequency.FrequencyJobOptions;
import dev.fieldprof.jobs.frequency.core.ProgramIndex;
import dev.fieldprof.jobs.frequency.core.ReportValidation;
import dev.fieldprof.jobs.frequency.core.WindowEstimates;
import dev.fieldprof.jobs.frequency.records.ReportRecord;
import dev.fieldprof.jobs.io.RawRecord;
import dev.fieldprof.ldp.SeededRandomSource;
import dev.fieldprof.schemas.EstimateWindow;
import dev.fieldprof.schemas.FrequencyReport;
import dev.fieldprof.schemas.PrivacyConfig;
import dev.fieldprof.schemas.ProgramModel;
import dev.fieldprof.schemas.RecordCodec;
import dev.fieldprof.schemas.Topics;
import java.io.File;
import java.io.OutputStream;
import java.lang.reflect.Method;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real check of {@code fieldprof diff --estimates}: the two releases of {@link ReleaseWorkload}
 * that {@link JfrReleaseDiffTest} profiles with JFR, measured in the field the way fieldprof
 * measures a program, every part real except Kafka and Flink's plumbing:
 *
 * <ol>
 *   <li>the workload's class is put in a jar (with its Main-Class), analyzed ({@code fieldprof
 *       analyze}, Jackson on its class path) and instrumented ({@code fieldprof instrument}) once
 *       per release;
 *   <li>seeded simulated devices, each with its own {@link DeviceRuntime} of the client SDK bound
 *       to its thread as in the demo's SimulatedDevices, run the instrumented program's {@code
 *       main} (one program run per epoch, each run with its own documents); at each epoch's end the
 *       runtime samples k of the run's events and randomizes them, and the report goes through a
 *       {@link CallbackReportTransport};
 *   <li>every report is encoded as it travels on the topic, decoded and validated by the frequency
 *       job's {@link ReportValidation}, summed, and estimated by the job's {@link WindowEstimates}
 *       (ĝ with its standard error, and g* by the constraint projection with the model's order
 *       pairs), then saved as the estimate file {@code diff --estimates --save} writes;
 *   <li>{@code fieldprof diff --estimates E1 E2 --models M1 M2} must rank {@code parseDocument},
 *       the method of the costlier task, first, flagged and larger in v2.
 * </ol>
 *
 * <p>The two releases are one class whose release is the driver's argument, as in the JFR check, so
 * their models have the same methods (paired by signature). The Kafka and Flink path of reports is
 * covered by the integration tests (DemoPipelineITCase, UserLevelModeITCase).
 *
 * <p><b>Why the ranking cannot fail by chance (but with probability below 10⁻¹³).</b> One run (one
 * round over {@value #DOCUMENTS} documents) enters {@code main}, {@code run}, {@code documents},
 * {@code parse}, {@code write} and {@code sortNames} once each, {@code writeDocument} and {@code
 * addNames} 10 times each, and {@code parseDocument} 10 times in v1, 30 in v2: N = 36 events in v1,
 * 56 in v2, the same in every run, so the true shares are exact: parseDocument 10/36 → 30/56, Δ =
 * +0.25794; writeDocument and addNames 10/36 → 10/56, Δ = −0.09921; the six once-per-run methods
 * 1/36 → 1/56, Δ = −0.00992; the constructor 0 → 0. Take the margin η = (0.25794 − 0.09921)/2 =
 * 0.07937. If every method's Δ̂ is within η of its Δ, parseDocument's Δ̂ > 0.1786 exceeds every
 * other |Δ̂| < 0.1786, and its z = Δ̂/SE(Δ) > 0.1786/0.00707 = 25 (SE(Δ) = √2 times the standard
 * error 0.005 below; p < 10⁻¹³⁹, flagged by Benjamini–Yekutieli at any number of methods), so it
 * ranks first, flagged, with Δ̂ > 0.
 *
 * <p>ĝ(v) is the mean of the n reports' Y = ((a+1)·R(v)/k − 1)/(a − 1), a = e^{ε/(2t)} = 3 at the
 * default ε = ln 9, t = 1: standard error √(a/(n·k))/(a − 1) = 0.005 at n = {@value #DEVICES}
 * devices × {@value #RUNS} runs = 1,000 reports per release and k = {@value #K}. The reports are
 * independent (each device its own seeded generator; the releases apart). Given the c events of v
 * among the k sampled uniformly from the run's N, R(v) = Binomial(c, p) + Binomial(k − c, 1 − p)
 * with p = a/(1+a) = 3/4, so E[Y | c] = c/k, E[c/k] is v's share (hypergeometric sampling), and Var
 * Y = a/((a−1)²k) + Var(c/k) ≤ 0.025 + (N−k)/(4k(N−1)): σ₁² ≤ 0.02643 (v1), σ₂² ≤ 0.02894 (v2). Y
 * lies in [−1/2, 3/2] and E Y in [0, 1], so |Y − E Y| ≤ M = 3/2. Bernstein's inequality over the 2n
 * independent terms of Δ̂(v) − Δ(v):
 *
 * <pre>
 *   Pr[|Δ̂(v) − Δ(v)| ≥ η] ≤ 2·exp(−(n·η²/2) / (σ₁² + σ₂² + M·η/3))
 *                         = 2·exp(−3.1494 / 0.09505) = 2·exp(−33.13) = 8.2·10⁻¹⁵,
 * </pre>
 *
 * so over the model's 10 methods the test fails by chance with probability below 10⁻¹³. Everything
 * is seeded, so every run prints the same table: parseDocument 28.060% → 53.860%, Δ̂ = +25.800%,
 * then writeDocument at −10.567% (docs/diff.md, "Real check").
 */
class EstimatesReleaseDiffTest {
    /** Simulated devices per release. */
    static final int DEVICES = 200;

    /** Program runs (epochs, reports) per device. */
    static final int RUNS = 5;

    /** Documents per run; one round per run. */
    static final int DOCUMENTS = 10;

    /** Items per document: small, the check is about counts of method entries. */
    static final int ITEMS = 5;

    /** Events per report: at most the 36 a v1 run has, so every run makes a report. */
    static final int K = 30;

    static final String PARSE_DOCUMENT =
            "<dev.fieldprof.cli.diff.ReleaseWorkload: com.fasterxml.jackson.databind.JsonNode"
                + " parseDocument(com.fasterxml.jackson.databind.ObjectMapper,java.lang.String)>";

    @TempDir Path dir;

    @Test
    void ranksTheMethodOfTheCostlierTaskFirst() throws Exception {
        Path jar = workloadJar();
        Path m1 = analyze(jar, "releases:v1");
        Path m2 = analyze(jar, "releases:v2");
        Path e1 = field(m1, instrument(jar, m1), false, 1);
        Path e2 = field(m2, instrument(jar, m2), true, 2);
        CliCapture cli = new CliCapture();
        int exit =
                cli.run(
                        "diff",
                        "--estimates",
                        e1.toString(),
                        e2.toString(),
                        "--models",
                        m1.toString(),
                        m2.toString());
        System.out.println(cli.out());
        assertThat(exit).as(cli.err()).isZero();
        String first =
                cli.out().lines().filter(l -> l.startsWith("   1 ")).findFirst().orElseThrow();
        assertThat(first).startsWith("   1 * ").endsWith(PARSE_DOCUMENT);
        String[] columns = first.trim().split("\\s+");
        double v1 = Double.parseDouble(columns[2]);
        double v2 = Double.parseDouble(columns[3]);
        // The direction, not the size (the comment derives the true change, +25.79%).
        assertThat(v2).isGreaterThan(v1);
        assertThat(columns[4]).startsWith("+");
    }

    /** The workload's class in a jar with a Main-Class, as a release would be shipped. */
    private Path workloadJar() throws Exception {
        String entry = ReleaseWorkload.class.getName().replace('.', '/') + ".class";
        Path classFile = classpathRoot(ReleaseWorkload.class).resolve(entry);
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes()
                .put(Attributes.Name.MAIN_CLASS, ReleaseWorkload.class.getName());
        Path jar = dir.resolve("release-workload.jar");
        try (OutputStream file = Files.newOutputStream(jar);
                JarOutputStream out = new JarOutputStream(file, manifest)) {
            out.putNextEntry(new JarEntry(entry));
            out.write(Files.readAllBytes(classFile));
            out.closeEntry();
        }
        return jar;
    }

    private Path analyze(Path jar, String appVersion) throws Exception {
        Path model = dir.resolve(appVersion.replace(':', '_') + ".model");
        String jackson =
                Stream.of(ObjectMapper.class, JsonFactory.class, JsonProperty.class)
                        .map(c -> classpathRoot(c).toString())
                        .collect(Collectors.joining(File.pathSeparator));
        CliCapture cli = new CliCapture();
        int exit =
                cli.run(
                        "analyze",
                        "--jar",
                        jar.toString(),
                        "--classpath",
                        jackson,
                        "--app",
                        appVersion,
                        "--privacy-mode",
                        "epsilon-t",
                        "--k",
                        Integer.toString(K),
                        "--out",
                        model.toString());
        assertThat(exit).as(cli.err()).isZero();
        return model;
    }

    private Path instrument(Path jar, Path model) {
        Path out = dir.resolve(model.getFileName() + "-instrumented.jar");
        CliCapture cli = new CliCapture();
        int exit =
                cli.run(
                        "instrument",
                        "--jar",
                        jar.toString(),
                        "--model",
                        model.toString(),
                        "--out",
                        out.toString(),
                        // Reports of K events at eps per event: this test measures the diff.
                        "--budget",
                        "none");
        assertThat(exit).as(cli.err()).isZero();
        return out;
    }

    /**
     * One release in the field: {@value #DEVICES} devices run the instrumented program {@value
     * #RUNS} times each and report; the frequency job's validation and estimation make the
     * cumulative estimate, saved as an estimate file.
     */
    private Path field(Path modelFile, Path instrumentedJar, boolean v2, int release)
            throws Exception {
        ProgramModel model = ProgramModels.read(modelFile);
        PrivacyConfig privacy = model.getPrivacyConfigs().get(0);
        assertThat(privacy.getK()).isEqualTo(K);
        List<FrequencyReport> reports = new CopyOnWriteArrayList<>();
        Clock clock = Clock.fixed(Instant.parse("2025-06-01T12:00:00Z"), ZoneOffset.UTC);
        try (InstrumentedProgramLoader loader =
                        new InstrumentedProgramLoader(
                                instrumentedJar, getClass().getClassLoader());
                CallbackReportTransport transport =
                        new CallbackReportTransport(reports::add, DEVICES * RUNS)) {
            Class<?> program = Class.forName(ReleaseWorkload.class.getName(), true, loader);
            assertThat(program.getClassLoader()).as("the instrumented class runs").isSameAs(loader);
            Method main = program.getMethod("main", String[].class);
            for (int device = 0; device < DEVICES; device++) {
                String deviceId = String.format("v%d-device-%03d", release, device);
                ClientConfig config =
                        ClientConfig.builder()
                                .appVersion(model.getAppVersion())
                                .deviceId(deviceId)
                                .methodCount(model.getMethods().size())
                                .privacy(
                                        privacy.getConfigId(),
                                        privacy.getEpsilon(),
                                        privacy.getT(),
                                        privacy.getK())
                                // Simulated devices of the model's epsilon-t configuration:
                                // no budget, by name.
                                .noBudget()
                                .stateDir(dir.resolve("devices").resolve(deviceId))
                                .build();
                long seed = release * 1_000_003L + device;
                try (DeviceRuntime runtime =
                        DeviceRuntime.start(
                                config, transport, new SeededRandomSource(seed), clock)) {
                    Probes.bindCurrentThread(runtime);
                    try {
                        for (int r = 0; r < RUNS; r++) {
                            // One round over the device's own documents of this run; the method
                            // entries do not depend on them.
                            String[] args = {
                                v2 ? "v2" : "v1",
                                "1",
                                Integer.toString(DOCUMENTS),
                                Integer.toString(ITEMS),
                                Long.toString(seed * RUNS + r)
                            };
                            main.invoke(null, (Object) args);
                            assertThat(runtime.endEpoch().outcome())
                                    .isEqualTo(DeviceRuntime.Outcome.REPORTED);
                        }
                    } finally {
                        Probes.unbindCurrentThread();
                    }
                }
            }
            assertThat(transport.flush(Duration.ofSeconds(30))).isTrue();
        }
        assertThat(reports).hasSize(DEVICES * RUNS);
        return estimate(model, reports);
    }

    /** What the frequency job does with the reports of one app version, minus Kafka and Flink. */
    private Path estimate(ProgramModel model, List<FrequencyReport> reports) throws Exception {
        ProgramIndex index = ProgramIndex.of(model);
        RecordCodec<FrequencyReport> codec = RecordCodec.of(FrequencyReport.class);
        PartialSum sum = new PartialSum(index.methodCount());
        long offset = 0;
        for (FrequencyReport report : reports) {
            RawRecord raw =
                    new RawRecord(
                            Topics.FREQUENCY_REPORTS,
                            0,
                            offset++,
                            0,
                            report.getDeviceId().getBytes(java.nio.charset.StandardCharsets.UTF_8),
                            codec.encode(report));
            ReportRecord record = ReportValidation.decode(raw);
            assertThat(ReportValidation.check(record, index.shape())).isNull();
            sum.add(ReportValidation.summand(record, index.methodCount()));
        }
        FrequencyJobOptions defaults =
                FrequencyJobOptions.fromMap(
                        Map.of(FrequencyJobOptions.BOOTSTRAP.key(), "unused:9092"));
        EstimateWindow window =
                new WindowEstimates(defaults.hotThreshold(), defaults.top())
                        .estimate(
                                index,
                                model.getPrivacyConfigs().get(0).getConfigId(),
                                0,
                                Duration.ofHours(1).toMillis(),
                                sum,
                                true);
        Path file = dir.resolve(model.getAppVersion().replace(':', '_') + ".estimate");
        Files.write(file, RecordCodec.of(EstimateWindow.class).encode(window));
        return file;
    }

    private static Path classpathRoot(Class<?> type) {
        try {
            return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
