package dev.fieldprof.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.analysis.AnalysisRequest;
import dev.fieldprof.analysis.ProgramAnalyzer;
import dev.fieldprof.bytecode.AppPackages;
import dev.fieldprof.bytecode.model.ProgramModels;
import dev.fieldprof.cli.CliCapture;
import dev.fieldprof.client.ClientConfig;
import dev.fieldprof.client.DeviceMetrics;
import dev.fieldprof.client.DeviceRuntime;
import dev.fieldprof.client.transport.TransportCounters;
import dev.fieldprof.jobs.frequency.FrequencyEstimationJob;
import dev.fieldprof.jobs.frequency.FrequencyJobOptions;
import dev.fieldprof.schemas.DeadLetter;
import dev.fieldprof.schemas.EstimateWindow;
import dev.fieldprof.schemas.FrequencyReport;
import dev.fieldprof.schemas.RecordCodec;
import dev.fieldprof.schemas.Topics;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.Writer;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * fieldprof on a secured cluster: the embedded broker gets a SASL_SSL listener (SCRAM-SHA-512 over
 * TLS, certificates made by keytool for the run), and devices, the frequency job, the topic and
 * publish commands and {@code watch} all go through it with one client properties file. A wrong
 * password and an untrusted certificate each end every command that talks to Kafka with one line
 * naming the problem, within a bound, and a device counts the failure without anything reaching the
 * host program. The broker authorizes by ACLs: {@link #SASL_USER} is its administrator, and each
 * other party gets only what {@code fieldprof topics acls} grants it.
 */
class SecuredKafkaITCase {
    private static final String APP = "secured-it:1.0";
    private static final int DEVICES = 4;
    private static final int EPOCHS = 2;
    private static final int EVENTS_PER_EPOCH = 2 * KnownReports.K;
    private static final Duration TIMEOUT = Duration.ofSeconds(120);

    /** Every failing command must end well within this (the check waits at most 15 s). */
    private static final Duration FAILURE_BOUND = Duration.ofSeconds(30);

    @RegisterExtension
    static final FieldprofRuntimeExtension RUNTIME =
            FieldprofRuntimeExtension.builder()
                    .partitions(1)
                    .taskSlots(1)
                    .fieldprofTopics(false)
                    .aclUsers(
                            "device",
                            "jobs",
                            "operator",
                            "reader",
                            "shuffler",
                            "sealing-device",
                            "analyst-jobs",
                            "analyst-reader")
                    .build();

    @TempDir Path dir;

    @Test
    void devicesJobEstimatesAndWatchAllGoThroughSaslSsl() throws Exception {
        long started = System.nanoTime();
        String secure = RUNTIME.saslSslBootstrapServers();
        Path client =
                write(
                        RUNTIME.saslSslClientProperties(
                                RUNTIME.saslPassword(), RUNTIME.certificates().trustStore()),
                        "client.properties");
        CliCapture topics = new CliCapture();
        assertThat(
                        topics.run(
                                "topics",
                                "create",
                                "--bootstrap",
                                secure,
                                "--kafka-properties",
                                client.toString(),
                                "--partitions",
                                "1"))
                .as("topics create: %s %s", topics.out(), topics.err())
                .isZero();
        assertThat(topics.out().lines().filter(line -> line.startsWith("created "))).hasSize(10);

        Path model = dir.resolve("secured.model");
        ProgramModels.write(KnownReports.model(APP), model);
        CliCapture publish = new CliCapture();
        assertThat(
                        publish.run(
                                "publish",
                                "--bootstrap",
                                secure,
                                "--kafka-properties",
                                client.toString(),
                                "--model",
                                model.toString()))
                .as("publish: %s", publish.err())
                .isZero();
        assertThat(publish.out()).startsWith("published " + APP + " (40 methods, 9 pairs)");

        JobClient job = startJob(secure, client);
        try {
            for (int device = 0; device < DEVICES; device++) {
                TransportCounters counters = runDevice("device-" + device, secure, client);
                assertThat(counters.sent()).as("reports acknowledged").isEqualTo(EPOCHS);
                assertThat(counters.authenticationFailures()).isZero();
                assertThat(counters.droppedTotal()).isZero();
            }
            int reports = DEVICES * EPOCHS;
            EstimateWindow cumulative = awaitCumulative(APP, reports);
            assertThat(cumulative.getReports()).isEqualTo(reports);

            String watched = watchUntilItShows(secure, client, APP, "reports " + reports);
            assertThat(watched)
                    .as("watch through SASL_SSL")
                    .containsPattern(
                            "(?m)^"
                                    + java.util.regex.Pattern.quote(APP)
                                    + " \\[default\\]  since .* UTC  reports "
                                    + reports
                                    + "  k "
                                    + KnownReports.K);
            List<EstimateWindow> windows =
                    decode(RUNTIME.drain(Topics.ESTIMATES, new ByteArrayDeserializer()));
            assertThat(
                            windows.stream()
                                    .filter(w -> !w.getCumulative())
                                    .mapToLong(EstimateWindow::getReports)
                                    .sum())
                    .as("sum of n over the tumbling windows")
                    .isEqualTo(reports);
            RecordCodec<DeadLetter> letters = RecordCodec.of(DeadLetter.class);
            assertThat(RUNTIME.drain(Topics.DEAD_LETTERS, new ByteArrayDeserializer()))
                    .extracting(bytes -> letters.decode(bytes).getReason())
                    .isEmpty();
            System.out.printf(
                    "secured pipeline: %d devices x %d epochs = %d reports counted by the"
                            + " cumulative estimate over SASL_SSL, %d tumbling windows, %.1f s%n",
                    DEVICES,
                    EPOCHS,
                    cumulative.getReports(),
                    windows.stream().filter(w -> !w.getCumulative()).count(),
                    (System.nanoTime() - started) / 1e9);
        } finally {
            job.cancel().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    /**
     * Least privilege: the administrator grants each party its ACLs with {@code topics acls}; the
     * operator creates the topics and publishes the model, the jobs' principal runs the job,
     * devices report and a reader watches, each with its own credential, and the estimates count
     * every report. A device's credential is refused on every topic but its own three uses.
     */
    @Test
    void eachPartyDoesItsPartWithOnlyItsOwnAcls() throws Exception {
        String app = "least-privilege-it:1.0";
        String secure = RUNTIME.saslSslBootstrapServers();
        Path admin =
                write(
                        RUNTIME.saslSslClientProperties(
                                RUNTIME.saslPassword(), RUNTIME.certificates().trustStore()),
                        "admin.properties");
        Path device = write(RUNTIME.saslSslClientPropertiesOf("device"), "device.properties");
        Path jobs = write(RUNTIME.saslSslClientPropertiesOf("jobs"), "jobs.properties");
        Path operator = write(RUNTIME.saslSslClientPropertiesOf("operator"), "operator.properties");
        Path reader = write(RUNTIME.saslSslClientPropertiesOf("reader"), "reader.properties");
        String[] roles = {
            "--device", "User:device", "--jobs", "User:jobs",
            "--operator", "User:operator", "--reader", "User:reader"
        };

        CliCapture missing = new CliCapture();
        assertThat(missing.run(acls(secure, admin, "--check", "--device", "User:nobody")))
                .as("check before granting: %s %s", missing.out(), missing.err())
                .isEqualTo(1);
        assertThat(missing.out().lines().toList())
                .containsExactly(
                        "missing: allow User:nobody WRITE on topic fieldprof.reports.frequency",
                        "missing: allow User:nobody DESCRIBE on topic fieldprof.reports.frequency",
                        "missing: allow User:nobody WRITE on topic fieldprof.shuffler.input",
                        "missing: allow User:nobody DESCRIBE on topic fieldprof.shuffler.input",
                        "missing: allow User:nobody WRITE on topic fieldprof.reports.paths",
                        "missing: allow User:nobody DESCRIBE on topic fieldprof.reports.paths",
                        "missing: allow User:nobody READ on topic fieldprof.models.edges",
                        "missing: allow User:nobody DESCRIBE on topic fieldprof.models.edges");
        CliCapture grant = new CliCapture();
        assertThat(grant.run(acls(secure, admin, roles)))
                .as("topics acls: %s %s", grant.out(), grant.err())
                .isZero();
        assertThat(grant.out().lines().filter(line -> !line.startsWith("created: ")).toList())
                .as("every binding is new")
                .isEmpty();
        CliCapture check = new CliCapture();
        assertThat(check.run(acls(secure, admin, append(roles, "--check")))).isZero();
        assertThat(check.out().lines().allMatch(line -> line.startsWith("ok: "))).isTrue();

        CliCapture topics = new CliCapture();
        assertThat(
                        topics.run(
                                "topics",
                                "create",
                                "--bootstrap",
                                secure,
                                "--kafka-properties",
                                operator.toString(),
                                "--partitions",
                                "1"))
                .as("topics create as the operator: %s %s", topics.out(), topics.err())
                .isZero();
        Path model = dir.resolve("least-privilege.model");
        ProgramModels.write(KnownReports.model(app), model);
        CliCapture publish = new CliCapture();
        assertThat(
                        publish.run(
                                "publish",
                                "--bootstrap",
                                secure,
                                "--kafka-properties",
                                operator.toString(),
                                "--model",
                                model.toString()))
                .as("publish as the operator: %s", publish.err())
                .isZero();

        JobClient job = startJob(secure, jobs);
        try {
            for (int n = 0; n < DEVICES; n++) {
                TransportCounters counters;
                try (DeviceRuntime runtime =
                        DeviceRuntime.start(
                                device("lp-device-" + n, app, secure, device).build())) {
                    for (int epoch = 0; epoch < EPOCHS; epoch++) {
                        for (int i = 0; i < EVENTS_PER_EPOCH; i++) {
                            runtime.record((i * 7 + epoch) % KnownReports.METHODS);
                        }
                        assertThat(runtime.endEpoch().outcome())
                                .isEqualTo(DeviceRuntime.Outcome.REPORTED);
                    }
                    assertThat(runtime.transport().flush(Duration.ofSeconds(60))).isTrue();
                    counters = runtime.transportCounters();
                }
                assertThat(counters.sent()).as("reports acknowledged").isEqualTo(EPOCHS);
            }
            int reports = DEVICES * EPOCHS;
            assertThat(awaitCumulative(app, reports).getReports()).isEqualTo(reports);
            assertThat(watchUntilItShows(secure, reader, app, "reports " + reports))
                    .as("watch as the reader")
                    .contains(app + " [default]")
                    .contains("reports " + reports);
        } finally {
            job.cancel().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        }
        CliCapture replay = new CliCapture();
        assertThat(
                        replay.run(
                                "dead-letters",
                                "replay",
                                "--bootstrap",
                                secure,
                                "--kafka-properties",
                                operator.toString(),
                                "--dry-run"))
                .as("replay as the operator: %s %s", replay.out(), replay.err())
                .isZero();
        assertThat(replay.out())
                .as("what the other tests on this broker left is theirs")
                .containsPattern("^would replay \\d+ report\\(s\\); left \\d+ letter\\(s\\)\n");

        Properties deviceCredential = RUNTIME.saslSslClientPropertiesOf("device");
        List<String> refusedWrites = new ArrayList<>();
        for (String topic :
                List.of(
                        Topics.PROGRAMS,
                        Topics.ESTIMATES,
                        Topics.EDGE_MODELS,
                        Topics.DEAD_LETTERS)) {
            if (KafkaRefusal.ofProduce(deviceCredential, topic)) {
                refusedWrites.add(topic);
            }
        }
        assertThat(refusedWrites)
                .as("topics a device may not write")
                .containsExactly(
                        Topics.PROGRAMS, Topics.ESTIMATES, Topics.EDGE_MODELS, Topics.DEAD_LETTERS);
        List<String> refusedReads = new ArrayList<>();
        for (String topic :
                List.of(
                        Topics.FREQUENCY_REPORTS,
                        Topics.PATH_REPORTS,
                        Topics.PROGRAMS,
                        Topics.ESTIMATES,
                        Topics.DEAD_LETTERS)) {
            if (KafkaRefusal.ofRead(deviceCredential, topic)) {
                refusedReads.add(topic);
            }
        }
        assertThat(refusedReads)
                .as("topics a device may not read")
                .containsExactly(
                        Topics.FREQUENCY_REPORTS,
                        Topics.PATH_REPORTS,
                        Topics.PROGRAMS,
                        Topics.ESTIMATES,
                        Topics.DEAD_LETTERS);
        assertThat(KafkaRefusal.ofRead(deviceCredential, Topics.EDGE_MODELS))
                .as("a device reads edge models")
                .isFalse();
        assertThat(
                        KafkaRefusal.ofProduce(
                                RUNTIME.saslSslClientPropertiesOf("reader"), Topics.ESTIMATES))
                .as("a reader may not write estimates")
                .isTrue();
        assertThat(
                        KafkaRefusal.ofRead(
                                RUNTIME.saslSslClientPropertiesOf("operator"),
                                Topics.FREQUENCY_REPORTS))
                .as("the operator may not read reports")
                .isTrue();
    }

    /**
     * The shuffled mode's trust domains: the analyst's jobs and readers are refused the shuffler's
     * input (where each sealed report still names its device), the shuffler is refused the
     * estimates and the reports in the clear, and each side reads what its part needs. A device
     * writes the shuffler's input but cannot read it back. Its own principals, so that the bindings
     * of the other tests stay theirs.
     */
    @Test
    void analystIsRefusedTheShufflersInputAndShufflerTheEstimates() throws Exception {
        String secure = RUNTIME.saslSslBootstrapServers();
        Path admin =
                write(
                        RUNTIME.saslSslClientProperties(
                                RUNTIME.saslPassword(), RUNTIME.certificates().trustStore()),
                        "admin.properties");
        CliCapture topics = new CliCapture();
        assertThat(
                        topics.run(
                                "topics",
                                "create",
                                "--bootstrap",
                                secure,
                                "--kafka-properties",
                                admin.toString(),
                                "--partitions",
                                "1"))
                .as("topics create: %s %s", topics.out(), topics.err())
                .isZero();
        CliCapture grant = new CliCapture();
        assertThat(
                        grant.run(
                                acls(
                                        secure,
                                        admin,
                                        "--device",
                                        "User:sealing-device",
                                        "--jobs",
                                        "User:analyst-jobs",
                                        "--shuffler",
                                        "User:shuffler",
                                        "--reader",
                                        "User:analyst-reader")))
                .as("topics acls: %s %s", grant.out(), grant.err())
                .isZero();
        assertThat(
                        grant.out()
                                .lines()
                                .filter(line -> line.contains("User:shuffler"))
                                .map(line -> line.substring(line.indexOf(' ') + 1))
                                .toList())
                .containsExactly(
                        "allow User:shuffler READ on topic fieldprof.shuffler.input",
                        "allow User:shuffler DESCRIBE on topic fieldprof.shuffler.input",
                        "allow User:shuffler DESCRIBE_CONFIGS on topic fieldprof.shuffler.input",
                        "allow User:shuffler WRITE on topic fieldprof.reports.shuffled",
                        "allow User:shuffler DESCRIBE on topic fieldprof.reports.shuffled",
                        "allow User:shuffler DESCRIBE_CONFIGS on topic fieldprof.reports.shuffled",
                        "allow User:shuffler WRITE on topic fieldprof.shuffler.dead-letters",
                        "allow User:shuffler READ on topic fieldprof.shuffler.dead-letters",
                        "allow User:shuffler DESCRIBE on topic fieldprof.shuffler.dead-letters",
                        "allow User:shuffler DESCRIBE_CONFIGS on topic"
                                + " fieldprof.shuffler.dead-letters",
                        "allow User:shuffler READ on group fieldprof-shuffler*",
                        "allow User:shuffler DESCRIBE on group fieldprof-shuffler*",
                        "allow User:shuffler WRITE on transactional id fieldprof-shuffler*",
                        "allow User:shuffler DESCRIBE on transactional id fieldprof-shuffler*");

        Properties device = RUNTIME.saslSslClientPropertiesOf("sealing-device");
        Properties jobs = RUNTIME.saslSslClientPropertiesOf("analyst-jobs");
        Properties shuffler = RUNTIME.saslSslClientPropertiesOf("shuffler");
        Properties reader = RUNTIME.saslSslClientPropertiesOf("analyst-reader");
        assertThat(KafkaRefusal.ofProduce(device, Topics.SHUFFLER_INPUT))
                .as("a device writes the shuffler's input")
                .isFalse();
        assertThat(KafkaRefusal.ofRead(shuffler, Topics.SHUFFLER_INPUT))
                .as("the shuffler reads its input")
                .isFalse();
        assertThat(KafkaRefusal.ofProduce(shuffler, Topics.SHUFFLED_REPORTS))
                .as("the shuffler writes shuffled batches")
                .isFalse();
        assertThat(KafkaRefusal.ofRead(jobs, Topics.SHUFFLED_REPORTS))
                .as("the analyst's jobs read shuffled batches")
                .isFalse();

        Map<String, Boolean> refused = new LinkedHashMap<>();
        refused.put(
                "jobs read the shuffler's input", KafkaRefusal.ofRead(jobs, Topics.SHUFFLER_INPUT));
        refused.put(
                "reader reads the shuffler's input",
                KafkaRefusal.ofRead(reader, Topics.SHUFFLER_INPUT));
        refused.put(
                "device reads the shuffler's input",
                KafkaRefusal.ofRead(device, Topics.SHUFFLER_INPUT));
        refused.put("shuffler reads estimates", KafkaRefusal.ofRead(shuffler, Topics.ESTIMATES));
        refused.put(
                "jobs read the shuffler's dead letters",
                KafkaRefusal.ofRead(jobs, Topics.SHUFFLER_DEAD_LETTERS));
        refused.put(
                "reader reads the shuffler's dead letters",
                KafkaRefusal.ofRead(reader, Topics.SHUFFLER_DEAD_LETTERS));
        refused.put(
                "shuffler reads frequency reports",
                KafkaRefusal.ofRead(shuffler, Topics.FREQUENCY_REPORTS));
        refused.put(
                "shuffler reads shuffled batches",
                KafkaRefusal.ofRead(shuffler, Topics.SHUFFLED_REPORTS));
        refused.put(
                "shuffler writes estimates", KafkaRefusal.ofProduce(shuffler, Topics.ESTIMATES));
        refused.put(
                "jobs write shuffled batches",
                KafkaRefusal.ofProduce(jobs, Topics.SHUFFLED_REPORTS));
        assertThat(refused).hasSize(10);
        assertThat(refused.entrySet().stream().filter(e -> !e.getValue()).map(Map.Entry::getKey))
                .as("allowed, yet each should be refused")
                .isEmpty();
    }

    private static String[] acls(String secure, Path client, String... options) {
        return append(
                new String[] {
                    "topics", "acls", "--bootstrap", secure, "--kafka-properties", client.toString()
                },
                options);
    }

    private static String[] append(String[] first, String... more) {
        String[] all = java.util.Arrays.copyOf(first, first.length + more.length);
        System.arraycopy(more, 0, all, first.length, more.length);
        return all;
    }

    /** Every command that talks to Kafka, as a user would run it against the secured listener. */
    static Stream<Arguments> commandsAndFailures() {
        List<Arguments> cases = new ArrayList<>();
        for (String failure : List.of("wrong password", "untrusted certificate")) {
            for (String command :
                    List.of(
                            "topics check",
                            "topics create",
                            "publish",
                            "watch",
                            "monitor",
                            "jobs run",
                            "jobs submit",
                            "diff --estimates")) {
                cases.add(Arguments.of(command, failure));
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0} with a {1}")
    @MethodSource("commandsAndFailures")
    void everyCommandEndsWithOneLineNamingTheProblem(String command, String failure)
            throws Exception {
        String secure = RUNTIME.saslSslBootstrapServers();
        String wrongPassword = "not-the-password-" + System.nanoTime();
        boolean badPassword = failure.equals("wrong password");
        Properties settings =
                RUNTIME.saslSslClientProperties(
                        badPassword ? wrongPassword : RUNTIME.saslPassword(),
                        badPassword
                                ? RUNTIME.certificates().trustStore()
                                : RUNTIME.certificates().otherTrustStore());
        Path client = write(settings, "bad.properties");
        Path model = dir.resolve("m.model");
        ProgramModels.write(KnownReports.model(APP), model);
        Path jar = Files.writeString(dir.resolve("job.jar"), "never uploaded");
        Map<String, String[]> commands = new LinkedHashMap<>();
        String props = client.toString();
        commands.put(
                "topics check",
                new String[] {
                    "topics", "check", "--bootstrap", secure, "--kafka-properties", props
                });
        commands.put(
                "topics create",
                new String[] {
                    "topics", "create", "--bootstrap", secure, "--kafka-properties", props
                });
        commands.put(
                "publish",
                new String[] {
                    "publish",
                    "--bootstrap",
                    secure,
                    "--kafka-properties",
                    props,
                    "--model",
                    model.toString()
                });
        commands.put(
                "watch",
                new String[] {
                    "watch", "--bootstrap", secure, "--kafka-properties", props, "--duration", "5s"
                });
        commands.put(
                "monitor",
                new String[] {
                    "monitor", "--bootstrap", secure, "--kafka-properties", props, "--port", "0"
                });
        commands.put(
                "jobs run",
                new String[] {
                    "jobs", "run", "frequency", "--bootstrap", secure, "--kafka-properties", props
                });
        commands.put(
                "jobs submit",
                new String[] {
                    "jobs",
                    "submit",
                    "--jobmanager",
                    "127.0.0.1:1",
                    "--jar",
                    jar.toString(),
                    "--kafka-properties",
                    props,
                    "--",
                    "--bootstrap",
                    secure
                });
        commands.put(
                "diff --estimates",
                new String[] {
                    "diff",
                    "--estimates",
                    "a:1",
                    "b:1",
                    "--bootstrap",
                    secure,
                    "--kafka-properties",
                    props
                });
        String expected =
                badPassword
                        ? "fieldprof: Kafka authentication failed for user fieldprof at "
                                + secure
                                + " (SASL SCRAM-SHA-512): check sasl.jaas.config"
                        : "fieldprof: TLS handshake with "
                                + secure
                                + " failed: the broker's certificate is not trusted"
                                + " (ssl.truststore.location)";

        CliCapture cli = new CliCapture();
        long start = System.nanoTime();
        int exit = cli.run(commands.get(command));
        Duration took = Duration.ofNanos(System.nanoTime() - start);

        assertThat(exit).as("exit of %s; stderr %s", command, cli.err()).isEqualTo(1);
        assertThat(cli.err().lines().toList()).containsExactly(expected);
        assertThat(cli.err() + cli.out()).doesNotContain(wrongPassword);
        assertThat(took).as("time to fail").isLessThan(FAILURE_BOUND);
        System.out.printf(
                "%s, %s: exit %d after %.1f s: %s%n",
                command, failure, exit, took.toMillis() / 1000.0, cli.err().strip());
    }

    /**
     * The same refusals from a separate {@code fieldprof} process, as on a terminal: the one line
     * is all its standard error holds (Kafka's client logs the refusal too, into the log file).
     */
    @ParameterizedTest(name = "a {0}")
    @org.junit.jupiter.params.provider.ValueSource(
            strings = {"wrong password", "untrusted certificate"})
    void aCommandInItsOwnProcessPrintsOnlyTheOneLine(String failure) throws Exception {
        String secure = RUNTIME.saslSslBootstrapServers();
        boolean badPassword = failure.equals("wrong password");
        Path client =
                write(
                        RUNTIME.saslSslClientProperties(
                                badPassword ? "wrong-" + System.nanoTime() : RUNTIME.saslPassword(),
                                badPassword
                                        ? RUNTIME.certificates().trustStore()
                                        : RUNTIME.certificates().otherTrustStore()),
                        "terminal.properties");
        Path stderr = dir.resolve("stderr.txt");
        Process process =
                new ProcessBuilder(
                                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                                "-cp",
                                System.getProperty("java.class.path"),
                                "-Dfieldprof.log.file=" + dir.resolve("cli.log"),
                                "dev.fieldprof.cli.FieldprofCommand",
                                "topics",
                                "check",
                                "--bootstrap",
                                secure,
                                "--kafka-properties",
                                client.toString())
                        .redirectError(stderr.toFile())
                        .redirectOutput(dir.resolve("stdout.txt").toFile())
                        .start();
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("exited within 60 s").isTrue();
        assertThat(process.exitValue()).isEqualTo(1);
        assertThat(Files.readAllLines(stderr))
                .containsExactly(
                        badPassword
                                ? "fieldprof: Kafka authentication failed for user fieldprof at "
                                        + secure
                                        + " (SASL SCRAM-SHA-512): check sasl.jaas.config"
                                : "fieldprof: TLS handshake with "
                                        + secure
                                        + " failed: the broker's certificate is not trusted"
                                        + " (ssl.truststore.location)");
        assertThat(dir.resolve("stdout.txt")).isEmptyFile();
    }

    @Test
    void aDeviceCountsRefusedCredentialsAndCertificatesWithoutDisturbingTheHost() throws Exception {
        String secure = RUNTIME.saslSslBootstrapServers();
        Map<String, Properties> refused = new LinkedHashMap<>();
        refused.put(
                "wrong password",
                RUNTIME.saslSslClientProperties(
                        "wrong-" + System.nanoTime(), RUNTIME.certificates().trustStore()));
        refused.put(
                "untrusted certificate",
                RUNTIME.saslSslClientProperties(
                        RUNTIME.saslPassword(), RUNTIME.certificates().otherTrustStore()));
        int n = 0;
        for (Map.Entry<String, Properties> setting : refused.entrySet()) {
            Path client = write(setting.getValue(), "device-" + n + ".properties");
            String app = "refused-it:" + n++;
            ClientConfig config =
                    device("refused-" + n, app, secure, client)
                            .kafkaTimeout(Duration.ofSeconds(5))
                            .build();
            long start = System.nanoTime();
            TransportCounters counters;
            long jmxFailures;
            try (DeviceRuntime runtime = DeviceRuntime.start(config)) {
                for (int i = 0; i < EVENTS_PER_EPOCH; i++) {
                    runtime.record(i % KnownReports.METHODS);
                }
                DeviceRuntime.EpochResult result = runtime.endEpoch();
                assertThat(result.outcome()).isEqualTo(DeviceRuntime.Outcome.REPORTED);
                assertThat(runtime.transport().flush(Duration.ofSeconds(30))).isTrue();
                counters = runtime.transportCounters();
                jmxFailures =
                        (Long)
                                ManagementFactory.getPlatformMBeanServer()
                                        .getAttribute(
                                                DeviceMetrics.name(app),
                                                "KafkaAuthenticationFailures");
            }
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            System.out.printf(
                    "device with a %s: %s, JMX KafkaAuthenticationFailures %d, %.1f s%n",
                    setting.getKey(), counters, jmxFailures, took.toMillis() / 1000.0);
            assertThat(counters.authenticationFailures())
                    .as("%s counted", setting.getKey())
                    .isGreaterThanOrEqualTo(1);
            assertThat(jmxFailures).isGreaterThanOrEqualTo(1);
            assertThat(counters.sent()).isZero();
            assertThat(counters.droppedTotal()).as("the report is kept").isZero();
            assertThat(counters.spooledNow()).as("waiting in the spool").isEqualTo(1);
            assertThat(took).isLessThan(FAILURE_BOUND);
        }
    }

    /**
     * The device agent relocates kafka-clients, yet a device's client properties name Kafka's login
     * module as Kafka documents it: the SDK maps the name to the relocated package, and the report
     * arrives over SASL_SSL. The host has no Kafka client of its own, so the documented class name
     * could not be loaded from the host's class path instead.
     */
    @Test
    void theDeviceAgentAuthenticatesWithKafkasDocumentedLoginModuleName() throws Exception {
        AgentHost host = new AgentHost(dir, false);
        Path model = dir.resolve("gson.model");
        // User-level, as analyze writes by default: one report fits the agent's default budget.
        ProgramModels.write(
                ProgramModels.userLevel(
                        ProgramAnalyzer.analyze(
                                        AnalysisRequest.of(host.gsonJar, "gson:secured-agent-it")
                                                .withAppPackages(
                                                        AppPackages.parse("com.google.gson")))
                                .model()),
                model);
        Properties properties =
                RUNTIME.saslSslClientProperties(
                        RUNTIME.saslPassword(), RUNTIME.certificates().trustStore());
        assertThat(properties.getProperty("sasl.jaas.config"))
                .startsWith("org.apache.kafka.common.security.scram.ScramLoginModule ");
        Path client = write(properties, "agent.properties");
        String topic = RUNTIME.createRandomTopic(1, false);
        Path state = dir.resolve("agent-state");

        AgentHost.Output run =
                host.run(
                        List.of(
                                "-javaagent:" + host.agentJar + "=model=" + model,
                                "-Dfieldprof.transport=kafka",
                                "-Dfieldprof.transport.kafka.bootstrap.servers="
                                        + RUNTIME.saslSslBootstrapServers(),
                                "-Dfieldprof.transport.kafka.config.file=" + client,
                                "-Dfieldprof.transport.kafka.topic=" + topic,
                                "-Dfieldprof.device.id=secured-agent-device",
                                // A cold JVM's first TLS and SCRAM handshake can take seconds.
                                "-Dfieldprof.transport.exit.wait=PT30S",
                                "-Dfieldprof.state.dir=" + state),
                        21);
        System.out.println("host with the agent over SASL_SSL: " + run);

        assertThat(run.stdout()).isEqualTo(host.expectedStdout());
        assertThat(run.stderr()).isEmpty();
        assertThat(run.exitCode()).isZero();
        List<byte[]> reports = RUNTIME.drain(topic, new ByteArrayDeserializer());
        assertThat(reports).hasSize(1); // the run is one epoch, one user-level report
        assertThat(RecordCodec.of(FrequencyReport.class).decode(reports.get(0)).getDeviceId())
                .isEqualTo("secured-agent-device");
        // Nothing waits in the spool (the directory exists only once a report had to wait).
        assertThat(state.resolve("spool"))
                .satisfiesAnyOf(
                        spool -> assertThat(spool).doesNotExist(),
                        spool -> assertThat(spool).isEmptyDirectory());
    }

    private JobClient startJob(String secure, Path client) throws Exception {
        FrequencyJobOptions options =
                FrequencyJobOptions.fromMap(
                        Map.of(
                                FrequencyJobOptions.BOOTSTRAP.key(), secure,
                                FrequencyJobOptions.KAFKA_PROPERTIES.key(), client.toString(),
                                FrequencyJobOptions.WINDOW.key(), "3 s",
                                FrequencyJobOptions.CHECKPOINT_INTERVAL.key(), "1 s",
                                // Generous: on a loaded machine TLS and SCRAM add seconds between
                                // the broker's append and the job's read (2 s lost every report as
                                // LATE in one run).
                                FrequencyJobOptions.OUT_OF_ORDERNESS.key(), "15 s",
                                FrequencyJobOptions.IDLENESS.key(), "1 s",
                                FrequencyJobOptions.STARTING_OFFSETS.key(), "earliest"));
        StreamExecutionEnvironment env = RUNTIME.environment();
        env.setParallelism(1);
        FrequencyEstimationJob.onKafka(options).buildInto(env);
        return env.executeAsync(FrequencyEstimationJob.NAME);
    }

    private ClientConfig.Builder device(String id, String app, String secure, Path client) {
        return ClientConfig.builder()
                .appVersion(app)
                .deviceId(id)
                .methodCount(KnownReports.METHODS)
                .privacy(KnownReports.CONFIG, KnownReports.EPSILON, KnownReports.T, KnownReports.K)
                // Several reports of one device: no budget, by name.
                .noBudget()
                .stateDir(dir.resolve(id))
                .transport(ClientConfig.TransportKind.KAFKA)
                .kafka(secure, Topics.FREQUENCY_REPORTS)
                .kafkaConfigFile(client)
                .kafkaTimeout(Duration.ofSeconds(20));
    }

    /** One device making {@link #EPOCHS} reports through the secured listener. */
    private TransportCounters runDevice(String id, String secure, Path client) throws Exception {
        try (DeviceRuntime runtime = DeviceRuntime.start(device(id, APP, secure, client).build())) {
            for (int epoch = 0; epoch < EPOCHS; epoch++) {
                for (int i = 0; i < EVENTS_PER_EPOCH; i++) {
                    runtime.record((i * 7 + epoch) % KnownReports.METHODS);
                }
                assertThat(runtime.endEpoch().outcome()).isEqualTo(DeviceRuntime.Outcome.REPORTED);
            }
            assertThat(runtime.transport().flush(Duration.ofSeconds(60))).isTrue();
            return runtime.transportCounters();
        }
    }

    /**
     * {@code fieldprof watch} through SASL_SSL, run again (6 s each) until what it printed holds
     * {@code expected} or two minutes passed: on a busy machine the TLS handshake and the first
     * fetch can take longer than one run. What the last run printed.
     */
    private static String watchUntilItShows(
            String secure, Path client, String app, String expected) {
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        String output = watch(secure, client, app);
        while (!output.contains(expected) && System.nanoTime() < deadline) {
            output = watch(secure, client, app);
        }
        return output;
    }

    /** {@code fieldprof watch} through SASL_SSL for a few seconds; what it printed. */
    private static String watch(String secure, Path client, String app) {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        PrintStream original = System.out;
        CliCapture cli = new CliCapture();
        int exit;
        // watch draws on System.out (a terminal view): capture it for the run.
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        try {
            exit =
                    cli.run(
                            "watch",
                            "--bootstrap",
                            secure,
                            "--kafka-properties",
                            client.toString(),
                            "--app",
                            app,
                            "--duration",
                            "6s");
        } finally {
            System.setOut(original);
        }
        String output = printed.toString(StandardCharsets.UTF_8);
        assertThat(exit).as("watch exit; stderr %s", cli.err()).isZero();
        return output;
    }

    /** Reads the estimates until a cumulative one of {@code app} counts {@code n} reports. */
    private static EstimateWindow awaitCumulative(String app, long n) {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (true) {
            List<EstimateWindow> seen =
                    decode(RUNTIME.drain(Topics.ESTIMATES, new ByteArrayDeserializer()));
            for (EstimateWindow window : seen) {
                if (window.getCumulative()
                        && window.getAppVersion().equals(app)
                        && window.getReports() == n) {
                    return window;
                }
            }
            Duration left = Duration.ofNanos(deadline - System.nanoTime());
            assertThat(left.isNegative())
                    .as(
                            "a cumulative estimate of %d reports within %s; %s",
                            n, TIMEOUT, whatTheTopicsHold())
                    .isFalse();
            try {
                // Blocks until one more estimate arrives (no sleeping).
                RUNTIME.awaitRecords(
                        Topics.ESTIMATES, new ByteArrayDeserializer(), seen.size() + 1, left);
            } catch (AssertionError timedOut) {
                throw new AssertionError(timedOut.getMessage() + "; " + whatTheTopicsHold());
            }
        }
    }

    /** For a failure message: the records of each topic the pipeline uses, and dead letters. */
    private static String whatTheTopicsHold() {
        RecordCodec<DeadLetter> letters = RecordCodec.of(DeadLetter.class);
        List<String> reasons = new ArrayList<>();
        for (byte[] bytes : RUNTIME.drain(Topics.DEAD_LETTERS, new ByteArrayDeserializer())) {
            reasons.add(letters.decode(bytes).getReason());
        }
        String jobs;
        try {
            jobs =
                    RUNTIME.flink().miniCluster().listJobs().get().stream()
                            .map(job -> job.getJobName() + " " + job.getJobState())
                            .toList()
                            .toString();
        } catch (Exception e) {
            jobs = e.toString();
        }
        return "jobs "
                + jobs
                + ", reports "
                + RUNTIME.drain(Topics.FREQUENCY_REPORTS, new ByteArrayDeserializer()).size()
                + ", programs "
                + RUNTIME.drain(Topics.PROGRAMS, new ByteArrayDeserializer()).size()
                + ", estimates "
                + RUNTIME.drain(Topics.ESTIMATES, new ByteArrayDeserializer()).size()
                + ", dead letters "
                + reasons;
    }

    private static List<EstimateWindow> decode(List<byte[]> records) {
        RecordCodec<EstimateWindow> codec = RecordCodec.of(EstimateWindow.class);
        List<EstimateWindow> out = new ArrayList<>();
        for (byte[] bytes : records) {
            out.add(codec.decode(bytes));
        }
        return out;
    }

    private Path write(Properties properties, String name) throws IOException {
        Path file = dir.resolve(name);
        try (Writer out = Files.newBufferedWriter(file)) {
            properties.store(out, "Kafka client properties of a test");
        }
        return file;
    }
}
