package dev.fieldprof.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.client.ClientConfig;
import dev.fieldprof.client.DeviceRuntime;
import dev.fieldprof.client.ReportTransports;
import dev.fieldprof.client.transport.ReportTransport;
import dev.fieldprof.jobs.frequency.FrequencyEstimationJob;
import dev.fieldprof.jobs.frequency.FrequencyJobOptions;
import dev.fieldprof.ldp.SeededRandomSource;
import dev.fieldprof.ldp.SubsetSelection;
import dev.fieldprof.schemas.DeadLetter;
import dev.fieldprof.schemas.EstimateWindow;
import dev.fieldprof.schemas.PrivacyConfig;
import dev.fieldprof.schemas.PrivacyMode;
import dev.fieldprof.schemas.ProgramModel;
import dev.fieldprof.schemas.RecordCodec;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Both privacy modes end to end: device runtimes in the user-level mode and in the ε-t mode send
 * through the real broker to the frequency job, whose estimates carry each configuration's mode and
 * standard error, with n equal to the reports the devices made.
 */
class UserLevelModeITCase {
    private static final long SEED = 20_261_124L;
    private static final String APP = "userlevel-it:1.0";
    private static final int METHODS = KnownReports.METHODS;
    private static final double USER_EPSILON = Math.log(3);
    private static final int USER_DEVICES = 12;
    private static final int EPOCHS = 2;
    private static final int EPSILON_T_DEVICES = 3;
    private static final int EPSILON_T_K = 20;
    private static final long WINDOW = Duration.ofSeconds(3).toMillis();
    private static final Duration TIMEOUT = Duration.ofSeconds(120);

    @RegisterExtension
    static final FieldprofRuntimeExtension RUNTIME =
            FieldprofRuntimeExtension.builder()
                    .partitions(1)
                    .taskSlots(1)
                    .fieldprofTopics(false)
                    .build();

    @TempDir Path dir;

    @Test
    void userLevelDevicesReachEstimatesThatCarryTheModeAndTheirStandardError() throws Exception {
        FrequencyJobTopics topics = FrequencyJobTopics.create(RUNTIME, 1);
        ProgramModel model =
                ProgramModel.newBuilder(KnownReports.model(APP))
                        .setPrivacyConfigs(
                                List.of(
                                        new PrivacyConfig(
                                                "user",
                                                USER_EPSILON,
                                                1,
                                                1,
                                                PrivacyMode.USER_LEVEL,
                                                null),
                                        new PrivacyConfig(
                                                "epsilon-t",
                                                Math.log(9),
                                                1,
                                                EPSILON_T_K,
                                                PrivacyMode.EPSILON_T,
                                                null)))
                        .build();
        RUNTIME.produce(
                List.of(
                        new ProducerRecord<>(
                                topics.programs(),
                                APP,
                                RecordCodec.of(ProgramModel.class).encode(model))),
                new StringSerializer(),
                new ByteArraySerializer());
        JobClient job = start(topics);
        try {
            int userReports = 0;
            for (int device = 0; device < USER_DEVICES; device++) {
                ClientConfig config =
                        device(topics.reports(), "user-" + device)
                                .userLevelPrivacy("user", USER_EPSILON)
                                .build();
                userReports += runDevice(config, device, EPOCHS, USER_EPSILON);
            }
            int epsilonTReports = 0;
            for (int device = 0; device < EPSILON_T_DEVICES; device++) {
                ClientConfig config =
                        device(topics.reports(), "et-" + device)
                                .privacy("epsilon-t", Math.log(9), 1, EPSILON_T_K)
                                .build();
                epsilonTReports +=
                        runDevice(
                                config,
                                100 + device,
                                1,
                                Math.log(9) * EPSILON_T_K); // epsilon * k / t
            }
            assertThat(userReports).isEqualTo(USER_DEVICES * EPOCHS);

            EstimateWindow user = awaitCumulative(topics.estimates(), "user", userReports);
            EstimateWindow epsilonT =
                    awaitCumulative(topics.estimates(), "epsilon-t", epsilonTReports);
            double expectedError =
                    new SubsetSelection(METHODS, USER_EPSILON).standardErrorAtZero(userReports);
            System.out.println(describe(user));
            System.out.println(describe(epsilonT));
            assertThat(user.getMode()).isEqualTo(PrivacyMode.USER_LEVEL);
            assertThat(user.getReports()).isEqualTo(userReports);
            assertThat(user.getK()).isEqualTo(1);
            assertThat(user.getStandardError()).isEqualTo(expectedError);
            // Each method's own error: the plug-in at S(v)/n clamped into [q, p], S(v) recovered
            // from ĝ(v) = (S(v)/n − q)/(p − q); never below the share-0 error.
            SubsetSelection oracle = new SubsetSelection(METHODS, USER_EPSILON);
            assertThat(user.getStandardErrors()).hasSize(METHODS);
            for (int v = 0; v < METHODS; v++) {
                long inclusions =
                        Math.round(
                                userReports
                                        * (oracle.q()
                                                + (oracle.p() - oracle.q())
                                                        * user.getNormalized().get(v)));
                assertThat(user.getStandardErrors().get(v))
                        .as("se(%d)", v)
                        .isCloseTo(
                                dev.fieldprof.estimation.FrequencyEstimator.plugInStandardError(
                                        oracle, inclusions, userReports),
                                org.assertj.core.data.Offset.offset(1e-12))
                        .isGreaterThanOrEqualTo(expectedError);
            }
            assertThat(epsilonT.getStandardErrors())
                    .allSatisfy(se -> assertThat(se).isEqualTo(epsilonT.getStandardError()));
            assertThat(user.getConsistent().stream().mapToDouble(Double::doubleValue).sum())
                    .isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-9));
            assertThat(epsilonT.getMode()).isEqualTo(PrivacyMode.EPSILON_T);
            assertThat(epsilonT.getReports()).isEqualTo(epsilonTReports);

            List<EstimateWindow> tumbling =
                    decode(RUNTIME.drain(topics.estimates(), new ByteArrayDeserializer())).stream()
                            .filter(w -> !w.getCumulative() && w.getConfigId().equals("user"))
                            .toList();
            assertThat(tumbling).allMatch(w -> w.getMode() == PrivacyMode.USER_LEVEL);
            assertThat(tumbling.stream().mapToLong(EstimateWindow::getReports).sum())
                    .as("sum of n over the user-level windows")
                    .isEqualTo(userReports);
            RecordCodec<DeadLetter> letters = RecordCodec.of(DeadLetter.class);
            assertThat(RUNTIME.drain(topics.deadLetters(), new ByteArrayDeserializer()))
                    .extracting(bytes -> letters.decode(bytes).getReason())
                    .isEmpty();
        } finally {
            job.cancel().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    private ClientConfig.Builder device(String reportsTopic, String id) {
        return ClientConfig.builder()
                .appVersion(APP)
                .deviceId(id)
                .methodCount(METHODS)
                // Several reports of one device: no budget, by name.
                .noBudget()
                .stateDir(dir.resolve(id))
                .transport(ClientConfig.TransportKind.KAFKA)
                .kafka(RUNTIME.bootstrapServers(), reportsTopic)
                .kafkaTimeout(Duration.ofSeconds(20));
    }

    /** Runs one device for some epochs of a skewed profile; returns the reports it made. */
    private static int runDevice(ClientConfig config, int seed, int epochs, double epsilonPerReport)
            throws Exception {
        int made = 0;
        try (ReportTransport transport = ReportTransports.create(config)) {
            try (DeviceRuntime runtime =
                    DeviceRuntime.start(
                            config,
                            transport,
                            new SeededRandomSource(SEED + seed),
                            Clock.systemUTC())) {
                for (int epoch = 0; epoch < epochs; epoch++) {
                    for (int i = 0; i < 200; i++) {
                        // Within the first ten, method v + 1 runs about twice as often as v,
                        // as the model's order pairs v <= v + 1 there say.
                        runtime.record(9 - Integer.numberOfTrailingZeros(i + 1 + seed) % 10);
                    }
                    DeviceRuntime.EpochResult result = runtime.endEpoch();
                    assertThat(result.outcome()).isEqualTo(DeviceRuntime.Outcome.REPORTED);
                    made++;
                }
                assertThat(runtime.ledger().userLevelEpsilon())
                        .as("ledger of %s", config.deviceId())
                        .isCloseTo(
                                epochs * epsilonPerReport,
                                org.assertj.core.data.Offset.offset(1e-9));
                assertThat(transport.flush(Duration.ofSeconds(60))).isTrue();
            }
        }
        return made;
    }

    /** Reads the estimates until a cumulative one of {@code configId} counts {@code n} reports. */
    private static EstimateWindow awaitCumulative(String topic, String configId, long n) {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (true) {
            List<EstimateWindow> seen = decode(RUNTIME.drain(topic, new ByteArrayDeserializer()));
            Optional<EstimateWindow> done =
                    seen.stream()
                            .filter(
                                    w ->
                                            w.getCumulative()
                                                    && w.getConfigId().equals(configId)
                                                    && w.getReports() == n)
                            .findFirst();
            if (done.isPresent()) {
                return done.get();
            }
            Duration left = Duration.ofNanos(deadline - System.nanoTime());
            assertThat(left.isNegative())
                    .as(
                            "a cumulative %s estimate of %d reports within %s; saw %s",
                            configId,
                            n,
                            TIMEOUT,
                            seen.stream().map(UserLevelModeITCase::describe).toList())
                    .isFalse();
            // Blocks until one more estimate arrives (no sleeping).
            RUNTIME.awaitRecords(topic, new ByteArrayDeserializer(), seen.size() + 1, left);
        }
    }

    private static List<EstimateWindow> decode(List<byte[]> records) {
        RecordCodec<EstimateWindow> codec = RecordCodec.of(EstimateWindow.class);
        List<EstimateWindow> out = new ArrayList<>();
        for (byte[] bytes : records) {
            out.add(codec.decode(bytes));
        }
        return out;
    }

    private static String describe(EstimateWindow w) {
        return String.format(
                Locale.ROOT,
                "%s config=%s mode=%s cumulative=%s n=%d k=%d epsilon=%.4f standardError=%.5f"
                        + " g^[6..9]=%s g*[6..9]=%s",
                w.getAppVersion(),
                w.getConfigId(),
                w.getMode(),
                w.getCumulative(),
                w.getReports(),
                w.getK(),
                w.getEpsilon(),
                w.getStandardError(),
                w.getNormalized().subList(6, 10).stream()
                        .map(x -> String.format(Locale.ROOT, "%.3f", x))
                        .toList(),
                w.getConsistent().subList(6, 10).stream()
                        .map(x -> String.format(Locale.ROOT, "%.3f", x))
                        .toList());
    }

    private static JobClient start(FrequencyJobTopics topics) throws Exception {
        FrequencyJobOptions options =
                topics.options(
                        "userlevel-it",
                        Map.of(
                                FrequencyJobOptions.WINDOW.key(), WINDOW + " ms",
                                FrequencyJobOptions.CHECKPOINT_INTERVAL.key(), "1 s",
                                FrequencyJobOptions.OUT_OF_ORDERNESS.key(), "2 s",
                                FrequencyJobOptions.IDLENESS.key(), "1 s"));
        StreamExecutionEnvironment env = RUNTIME.environment();
        env.setParallelism(1);
        FrequencyEstimationJob.onKafka(options).buildInto(env);
        return env.executeAsync(FrequencyEstimationJob.NAME);
    }
}
