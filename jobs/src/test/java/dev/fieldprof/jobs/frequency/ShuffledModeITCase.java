package dev.fieldprof.jobs.frequency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.fieldprof.jobs.testing.FrequencyJobTopics;
import dev.fieldprof.jobs.testing.JobsRuntimeExtension;
import dev.fieldprof.jobs.testing.TestProgramModels;
import dev.fieldprof.ldp.ShuffleAmplification;
import dev.fieldprof.schemas.DeadLetter;
import dev.fieldprof.schemas.DeadLetterReason;
import dev.fieldprof.schemas.EstimateKeys;
import dev.fieldprof.schemas.EstimateWindow;
import dev.fieldprof.schemas.FrequencyReport;
import dev.fieldprof.schemas.ProgramModel;
import dev.fieldprof.schemas.RecordCodec;
import dev.fieldprof.schemas.ShuffledBatch;
import dev.fieldprof.schemas.ShufflerTerms;
import dev.fieldprof.schemas.Topics;
import dev.fieldprof.sealing.AnalystKeys;
import dev.fieldprof.sealing.ReportSealer;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.IntStream;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The analyst's side of the shuffled mode on a real broker: the frequency job, given the analyst's
 * private keyset, reads the shuffler's batches (a batch of 1,000 in two parts, one payload of it
 * tampered with, and a batch of 5 below the configuration's minimum of 500) and one report sent
 * straight to the reports topic for the shuffled configuration. The 999 reports that open count in
 * the window of their batch's release time, and the estimate states the batch's size and the
 * central ε that amplification by shuffling gives 1,000 reports at the configuration's ε (0.65
 * against 2.20); the tampered payload is UNOPENABLE, the small batch's reports BATCH_TOO_SMALL, the
 * direct report INVALID.
 */
class ShuffledModeITCase {
    @RegisterExtension
    static final JobsRuntimeExtension RUNTIME = JobsRuntimeExtension.builder().taskSlots(2).build();

    private static final String APP = "shuffled-it:1.0";
    private static final int METHODS = 5;
    private static final int MIN_BATCH = 500;
    private static final int BATCH = 1000;
    private static final int SMALL_BATCH = 5;
    private static final double DELTA = 1e-6;
    private static final long WINDOW = Duration.ofSeconds(3).toMillis();
    private static final Duration TIMEOUT = Duration.ofSeconds(120);
    private static final RecordCodec<FrequencyReport> REPORTS =
            RecordCodec.of(FrequencyReport.class);
    private static final RecordCodec<ShuffledBatch> BATCHES = RecordCodec.of(ShuffledBatch.class);
    private static final RecordCodec<ProgramModel> PROGRAMS = RecordCodec.of(ProgramModel.class);
    private static final RecordCodec<EstimateWindow> ESTIMATES =
            RecordCodec.of(EstimateWindow.class);
    private static final RecordCodec<DeadLetter> LETTERS = RecordCodec.of(DeadLetter.class);

    @Test
    void openedBatchesAreEstimatedWithTheirCentralGuarantee(@TempDir Path dir) throws Exception {
        FrequencyJobTopics topics = FrequencyJobTopics.create(RUNTIME);
        String reports = topics.reports();
        String programs = topics.programs();
        String estimates = topics.estimates();
        String deadLetters = topics.deadLetters();
        // Keeps the producer's time, as the shuffler's topic does: the release time it stamps.
        String shuffled = RUNTIME.createTopic("batches", 1, Topics.resultSettings());

        ProgramModel model = TestProgramModels.model(APP, METHODS, new int[][] {{0, 1}});
        model.getPrivacyConfigs().get(0).setShuffler(new ShufflerTerms(MIN_BATCH, DELTA));
        RUNTIME.produce(List.of(new ProducerRecord<>(programs, APP, PROGRAMS.encode(model))));

        AnalystKeys keys = AnalystKeys.generate();
        Path keyset = dir.resolve("analyst-keyset.json");
        Files.writeString(keyset, keys.privateKeysetJson(), StandardCharsets.UTF_8);
        ReportSealer sealer = keys.sealer();
        Random random = new Random(20261128L);

        List<byte[]> payloads = new ArrayList<>();
        for (int i = 0; i < BATCH; i++) {
            payloads.add(sealer.seal(REPORTS.encode(report(random)), APP, "default"));
        }
        byte[] tampered = payloads.get(BATCH / 2 + 7);
        tampered[tampered.length / 2] ^= 0x40;
        List<byte[]> small = new ArrayList<>();
        for (int i = 0; i < SMALL_BATCH; i++) {
            small.add(sealer.seal(REPORTS.encode(report(random)), APP, "default"));
        }

        JobClient job = start(topics, shuffled, keyset);
        try {
            // One release time for both parts of the batch: they belong to one window.
            long released = System.currentTimeMillis();
            RUNTIME.produce(
                    List.of(
                            part(
                                    shuffled,
                                    "big",
                                    BATCH,
                                    0,
                                    payloads.subList(0, BATCH / 2),
                                    released),
                            part(
                                    shuffled,
                                    "big",
                                    BATCH,
                                    1,
                                    payloads.subList(BATCH / 2, BATCH),
                                    released),
                            part(shuffled, "small", SMALL_BATCH, 0, small, released),
                            new ProducerRecord<>(
                                    reports, "device-1", REPORTS.encode(report(random)))));
            long windowStart = released - Math.floorMod(released, WINDOW);

            Map<String, EstimateWindow> latest =
                    awaitEstimates(
                            estimates,
                            w ->
                                    !w.getCumulative()
                                            && w.getWindowStartMillis().toEpochMilli()
                                                    == windowStart
                                            && w.getReports() == BATCH - 1);
            EstimateWindow window =
                    latest.values().stream()
                            .filter(w -> !w.getCumulative())
                            .filter(w -> w.getWindowStartMillis().toEpochMilli() == windowStart)
                            .findFirst()
                            .orElseThrow();
            double central =
                    new ShuffleAmplification(BATCH, TestProgramModels.EPSILON)
                            .centralEpsilon(DELTA);
            assertThat(central).isLessThan(TestProgramModels.EPSILON);
            assertThat(window.getReports()).isEqualTo(BATCH - 1);
            assertThat(window.getShuffledBatchSizes())
                    .as("the batch of two parts, once")
                    .containsExactly(BATCH);
            assertThat(window.getCentralEpsilon()).isEqualTo(central);
            assertThat(window.getCentralDelta()).isEqualTo(DELTA);
            EstimateWindow cumulative =
                    latest.values().stream()
                            .filter(EstimateWindow::getCumulative)
                            .findFirst()
                            .orElseThrow();
            assertThat(cumulative.getReports()).isEqualTo(BATCH - 1);
            assertThat(cumulative.getShuffledBatchSizes()).containsExactly(BATCH);
            assertThat(cumulative.getCentralEpsilon()).isEqualTo(central);

            String big =
                    "shuffled batch big of "
                            + APP
                            + " / default (part 1 of 2, "
                            + BATCH
                            + " reports): ";
            List<DeadLetter> letters =
                    RUNTIME.awaitAtLeast(deadLetters, LETTERS::decode, 1 + SMALL_BATCH + 1);
            List<Object> expected = new ArrayList<>();
            expected.add(
                    tuple(
                            shuffled,
                            DeadLetterReason.UNOPENABLE,
                            big
                                    + "payload 7: sealed payload of "
                                    + tampered.length
                                    + " bytes does not open with the analyst's keys for "
                                    + APP
                                    + " / default"));
            expected.addAll(
                    Collections.nCopies(
                            SMALL_BATCH,
                            tuple(
                                    shuffled,
                                    DeadLetterReason.BATCH_TOO_SMALL,
                                    "shuffled batch small holds 5 reports, below the minimum"
                                            + " batch size "
                                            + MIN_BATCH
                                            + " of config 'default' of "
                                            + APP)));
            expected.add(
                    tuple(
                            reports,
                            DeadLetterReason.INVALID,
                            "config 'default' of "
                                    + APP
                                    + " is shuffled (batches of at least "
                                    + MIN_BATCH
                                    + " reports): its reports"
                                    + " count only from the shuffler's batches, and this one came"
                                    + " straight to the reports topic, bypassing the shuffler"));
            assertThat(letters)
                    .extracting(
                            DeadLetter::getSourceTopic,
                            DeadLetter::getReasonCode,
                            DeadLetter::getReason)
                    .containsExactlyInAnyOrderElementsOf(
                            expected.stream().map(t -> (org.assertj.core.groups.Tuple) t).toList());
            assertThat(
                            letters.stream()
                                    .filter(l -> l.getSourceTopic().equals(shuffled))
                                    .map(l -> l.getValue().remaining()))
                    .as("a shuffled report's dead letter keeps its sealed payload")
                    .containsOnly(tampered.length, small.get(0).length);
        } finally {
            job.cancel().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    /** An identity-free report, as a device of the shuffled mode makes it. */
    private static FrequencyReport report(Random random) {
        int[] counts =
                IntStream.range(0, METHODS)
                        .map(v -> random.nextInt(TestProgramModels.K + 1))
                        .toArray();
        return FrequencyReport.newBuilder()
                .setReportId(new UUID(random.nextLong(), random.nextLong()).toString())
                .setDeviceId("")
                .setAppVersion(APP)
                .setConfigId("default")
                .setK(TestProgramModels.K)
                .setCreatedAtMillis(Instant.EPOCH)
                .setCounts(IntStream.of(counts).boxed().toList())
                .build();
    }

    private static ProducerRecord<String, byte[]> part(
            String topic, String batchId, int size, int part, List<byte[]> sealed, long time) {
        ShuffledBatch batch =
                ShuffledBatch.newBuilder()
                        .setBatchId(batchId)
                        .setAppVersion(APP)
                        .setConfigId("default")
                        .setBatchSize(size)
                        .setMinBatchSize(size)
                        .setPart(part)
                        .setParts(size == BATCH ? 2 : 1)
                        .setSealed(sealed.stream().map(ByteBuffer::wrap).toList())
                        .build();
        return new ProducerRecord<>(topic, null, time, batchId + "/" + part, BATCHES.encode(batch));
    }

    private static JobClient start(FrequencyJobTopics topics, String shuffled, Path keyset)
            throws Exception {
        Map<String, String> tuning = new HashMap<>();
        tuning.put(FrequencyJobOptions.SHUFFLED_TOPIC.key(), shuffled);
        tuning.put(FrequencyJobOptions.ANALYST_KEYSET.key(), keyset.toString());
        tuning.put(FrequencyJobOptions.WINDOW.key(), WINDOW + " ms");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        FrequencyEstimationJob.onKafka(topics.options("shuffled", tuning)).buildInto(env);
        return env.executeAsync(FrequencyEstimationJob.NAME);
    }

    /**
     * The latest estimate per key (what a reader of the compacted topic keeps) once one of them
     * satisfies {@code done}.
     */
    private static Map<String, EstimateWindow> awaitEstimates(
            String topic, Predicate<EstimateWindow> done) {
        return latest(
                RUNTIME.await(
                        topic,
                        ESTIMATES::decode,
                        windows -> latest(windows).values().stream().anyMatch(done),
                        Duration.ZERO));
    }

    private static Map<String, EstimateWindow> latest(List<EstimateWindow> windows) {
        Map<String, EstimateWindow> latest = new LinkedHashMap<>();
        for (EstimateWindow window : windows) {
            latest.put(EstimateKeys.of(window), window);
        }
        return latest;
    }
}
