package dev.fieldprof.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.client.ClientConfig;
import dev.fieldprof.client.DeviceRuntime;
import dev.fieldprof.client.ReportTransports;
import dev.fieldprof.client.transport.ReportTransport;
import dev.fieldprof.jobs.frequency.FrequencyEstimationJob;
import dev.fieldprof.jobs.frequency.FrequencyJobOptions;
import dev.fieldprof.jobs.shuffle.ShufflerJob;
import dev.fieldprof.jobs.shuffle.ShufflerJobOptions;
import dev.fieldprof.ldp.SeededRandomSource;
import dev.fieldprof.ldp.ShuffleAmplification;
import dev.fieldprof.schemas.DeadLetter;
import dev.fieldprof.schemas.EstimateWindow;
import dev.fieldprof.schemas.PrivacyConfig;
import dev.fieldprof.schemas.PrivacyMode;
import dev.fieldprof.schemas.ProgramModel;
import dev.fieldprof.schemas.RecordCodec;
import dev.fieldprof.schemas.ShuffledBatch;
import dev.fieldprof.schemas.ShufflerTerms;
import dev.fieldprof.schemas.Topics;
import dev.fieldprof.sealing.AnalystKeys;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
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
 * The shuffled mode end to end on the embedded runtime: device runtimes seal their reports to the
 * analyst's public keyset and send them to the shuffler's input topic; the real shuffler job
 * releases them as one shuffled batch on its topic, written in transactions; the real frequency job
 * opens the batch with the analyst's private keyset and publishes an estimate of every report that
 * carries the batch's size and the central (ε, δ) it holds.
 */
class ShuffledModeEndToEndITCase {
    private static final long SEED = 20_261_201L;
    private static final String APP = "shuffled-e2e:1.0";
    private static final String CONFIG = "shuffled";
    private static final int METHODS = KnownReports.METHODS;
    private static final double EPSILON0 = 4.0;
    private static final double DELTA = 1e-6;
    private static final int DEVICES = 24;
    private static final long WINDOW = Duration.ofSeconds(3).toMillis();
    private static final Duration TIMEOUT = Duration.ofMinutes(3);
    private static final RecordCodec<EstimateWindow> ESTIMATES =
            RecordCodec.of(EstimateWindow.class);

    @RegisterExtension
    static final FieldprofRuntimeExtension RUNTIME =
            FieldprofRuntimeExtension.builder()
                    .partitions(1)
                    .taskSlots(2)
                    .fieldprofTopics(false)
                    .build();

    @TempDir Path dir;

    @Test
    void sealedReportsThroughTheShufflerBecomeAnEstimateWithTheCentralGuarantee() throws Exception {
        FrequencyJobTopics topics = FrequencyJobTopics.create(RUNTIME, 1);
        String input = RUNTIME.createRandomReportTopic(2);
        String shuffled = RUNTIME.randomTopic();
        RUNTIME.createTopic(shuffled, 2, Topics.shuffledSettings());
        String shufflerDeadLetters = RUNTIME.createRandomTopic(1, false);
        publishModel(topics.programs());

        AnalystKeys keys = AnalystKeys.generate();
        Path publicKeyset = dir.resolve("analyst-public.json");
        Files.writeString(publicKeyset, keys.publicKeysetJson(), StandardCharsets.UTF_8);
        Path privateKeyset = dir.resolve("analyst-private.json");
        Files.writeString(privateKeyset, keys.privateKeysetJson(), StandardCharsets.UTF_8);

        JobClient shuffler = startShuffler(input, shuffled, shufflerDeadLetters);
        JobClient frequency = startFrequencyJob(topics, shuffled, privateKeyset);
        try {
            for (int device = 0; device < DEVICES; device++) {
                runDevice(device(topics.reports(), input, publicKeyset, device), device);
            }

            EstimateWindow cumulative = awaitCumulative(topics.estimates(), DEVICES);
            double central = new ShuffleAmplification(DEVICES, EPSILON0).centralEpsilon(DELTA);
            System.out.println(describe(cumulative));
            assertThat(cumulative.getMode()).isEqualTo(PrivacyMode.USER_LEVEL);
            assertThat(cumulative.getReports()).isEqualTo(DEVICES);
            assertThat(cumulative.getShuffledBatchSizes())
                    .as("one batch of every device's report")
                    .containsExactly(DEVICES);
            assertThat(cumulative.getCentralEpsilon()).isEqualTo(central);
            assertThat(cumulative.getCentralDelta()).isEqualTo(DELTA);

            List<EstimateWindow> windows =
                    decode(RUNTIME.drain(topics.estimates(), new ByteArrayDeserializer()));
            List<EstimateWindow> tumbling =
                    windows.stream().filter(w -> !w.getCumulative()).toList();
            assertThat(tumbling.stream().mapToLong(EstimateWindow::getReports).sum())
                    .as("n over the tumbling windows: each report counted once")
                    .isEqualTo(DEVICES);
            assertThat(tumbling)
                    .allSatisfy(
                            w -> {
                                assertThat(w.getShuffledBatchSizes()).containsExactly(DEVICES);
                                assertThat(w.getCentralEpsilon()).isEqualTo(central);
                            });

            List<ShuffledBatch> batches =
                    RUNTIME.drain(shuffled, new ByteArrayDeserializer()).stream()
                            .map(RecordCodec.of(ShuffledBatch.class)::decode)
                            .toList();
            assertThat(batches)
                    .extracting(ShuffledBatch::getBatchSize, ShuffledBatch::getParts)
                    .containsOnly(org.assertj.core.groups.Tuple.tuple(DEVICES, 1));
            assertThat(batches.stream().mapToInt(b -> b.getSealed().size()).sum())
                    .isEqualTo(DEVICES);
            assertThat(RUNTIME.drain(topics.reports(), new ByteArrayDeserializer()))
                    .as("nothing straight to the reports topic")
                    .isEmpty();
            RecordCodec<DeadLetter> letters = RecordCodec.of(DeadLetter.class);
            assertThat(RUNTIME.drain(topics.deadLetters(), new ByteArrayDeserializer()))
                    .extracting(bytes -> letters.decode(bytes).getReason())
                    .isEmpty();
            assertThat(RUNTIME.drain(shufflerDeadLetters, new ByteArrayDeserializer()))
                    .extracting(bytes -> letters.decode(bytes).getReason())
                    .isEmpty();
        } finally {
            frequency.cancel().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            shuffler.cancel().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    private static void publishModel(String programs) {
        ProgramModel model =
                ProgramModel.newBuilder(KnownReports.model(APP))
                        .setPrivacyConfigs(
                                List.of(
                                        new PrivacyConfig(
                                                CONFIG,
                                                EPSILON0,
                                                1,
                                                1,
                                                PrivacyMode.USER_LEVEL,
                                                new ShufflerTerms(DEVICES, DELTA))))
                        .build();
        RUNTIME.produce(
                List.of(
                        new ProducerRecord<>(
                                programs, APP, RecordCodec.of(ProgramModel.class).encode(model))),
                new StringSerializer(),
                new ByteArraySerializer());
    }

    private ClientConfig device(String reports, String input, Path publicKeyset, int device) {
        String id = "shuffled-device-" + device;
        return ClientConfig.builder()
                .appVersion(APP)
                .deviceId(id)
                .methodCount(METHODS)
                .userLevelPrivacy(CONFIG, EPSILON0)
                .shuffled(DEVICES, DELTA)
                .analystPublicKeyset(publicKeyset)
                .noBudget()
                .stateDir(dir.resolve(id))
                .transport(ClientConfig.TransportKind.KAFKA)
                .kafka(RUNTIME.bootstrapServers(), reports)
                .shufflerTopic(input)
                .kafkaTimeout(Duration.ofSeconds(20))
                .build();
    }

    /** One epoch of a skewed profile, one report, handed to the broker before it returns. */
    private static void runDevice(ClientConfig config, int seed) throws Exception {
        try (ReportTransport transport = ReportTransports.create(config);
                DeviceRuntime runtime =
                        DeviceRuntime.start(
                                config,
                                transport,
                                new SeededRandomSource(SEED + seed),
                                Clock.systemUTC())) {
            for (int i = 0; i < 200; i++) {
                runtime.record(9 - Integer.numberOfTrailingZeros(i + 1 + seed) % 10);
            }
            assertThat(runtime.endEpoch().outcome()).isEqualTo(DeviceRuntime.Outcome.REPORTED);
            assertThat(transport.flush(Duration.ofSeconds(60))).isTrue();
        }
    }

    private static JobClient startShuffler(String input, String shuffled, String deadLetters)
            throws Exception {
        Map<String, String> options = new HashMap<>();
        options.put(ShufflerJobOptions.BOOTSTRAP.key(), RUNTIME.bootstrapServers());
        options.put(ShufflerJobOptions.INPUT_TOPIC.key(), input);
        options.put(ShufflerJobOptions.SHUFFLED_TOPIC.key(), shuffled);
        options.put(ShufflerJobOptions.DEAD_LETTER_TOPIC.key(), deadLetters);
        options.put(ShufflerJobOptions.GROUP_ID.key(), "shuffler-" + input);
        options.put(ShufflerJobOptions.TRANSACTIONAL_ID_PREFIX.key(), "shuffler-" + input);
        options.put(ShufflerJobOptions.MIN_BATCH_SIZE.key(), Integer.toString(DEVICES));
        options.put(ShufflerJobOptions.MAX_BATCH_SIZE.key(), Integer.toString(10 * DEVICES));
        options.put(ShufflerJobOptions.RELEASE_INTERVAL.key(), "500 ms");
        options.put(ShufflerJobOptions.MAX_WAIT.key(), "10 min");
        options.put(ShufflerJobOptions.CHECKPOINT_INTERVAL.key(), "1 s");
        options.put(ShufflerJobOptions.STARTING_OFFSETS.key(), "earliest");
        StreamExecutionEnvironment env = RUNTIME.environment();
        env.setParallelism(1);
        ShufflerJob.onKafka(ShufflerJobOptions.fromMap(options)).buildInto(env);
        return env.executeAsync(ShufflerJob.NAME);
    }

    private static JobClient startFrequencyJob(
            FrequencyJobTopics topics, String shuffled, Path privateKeyset) throws Exception {
        FrequencyJobOptions options =
                topics.options(
                        "shuffled-e2e",
                        Map.of(
                                FrequencyJobOptions.SHUFFLED_TOPIC.key(),
                                shuffled,
                                FrequencyJobOptions.ANALYST_KEYSET.key(),
                                privateKeyset.toString(),
                                FrequencyJobOptions.WINDOW.key(),
                                WINDOW + " ms",
                                FrequencyJobOptions.CHECKPOINT_INTERVAL.key(),
                                "1 s",
                                FrequencyJobOptions.OUT_OF_ORDERNESS.key(),
                                "2 s",
                                FrequencyJobOptions.IDLENESS.key(),
                                "1 s"));
        StreamExecutionEnvironment env = RUNTIME.environment();
        env.setParallelism(1);
        FrequencyEstimationJob.onKafka(options).buildInto(env);
        return env.executeAsync(FrequencyEstimationJob.NAME);
    }

    /** Reads the estimates until a cumulative one counts {@code n} reports. */
    private static EstimateWindow awaitCumulative(String topic, long n) {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (true) {
            List<EstimateWindow> seen = decode(RUNTIME.drain(topic, new ByteArrayDeserializer()));
            Optional<EstimateWindow> done =
                    seen.stream().filter(w -> w.getCumulative() && w.getReports() == n).findFirst();
            if (done.isPresent()) {
                return done.get();
            }
            Duration left = Duration.ofNanos(deadline - System.nanoTime());
            assertThat(left.isNegative())
                    .as(
                            "a cumulative estimate of %d reports within %s; saw %s",
                            n,
                            TIMEOUT,
                            seen.stream().map(ShuffledModeEndToEndITCase::describe).toList())
                    .isFalse();
            // Blocks until one more estimate arrives (no sleeping).
            RUNTIME.awaitRecords(topic, new ByteArrayDeserializer(), seen.size() + 1, left);
        }
    }

    private static List<EstimateWindow> decode(List<byte[]> records) {
        List<EstimateWindow> out = new ArrayList<>();
        for (byte[] bytes : records) {
            out.add(ESTIMATES.decode(bytes));
        }
        return out;
    }

    private static String describe(EstimateWindow w) {
        return String.format(
                Locale.ROOT,
                "%s config=%s cumulative=%s n=%d batches=%s central epsilon=%s delta=%s",
                w.getAppVersion(),
                w.getConfigId(),
                w.getCumulative(),
                w.getReports(),
                w.getShuffledBatchSizes(),
                w.getCentralEpsilon(),
                w.getCentralDelta());
    }
}
