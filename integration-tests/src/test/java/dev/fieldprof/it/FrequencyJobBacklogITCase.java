package dev.fieldprof.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.fieldprof.estimation.PartialSum;
import dev.fieldprof.it.KnownReports.Report;
import dev.fieldprof.jobs.frequency.FrequencyEstimationJob;
import dev.fieldprof.jobs.frequency.FrequencyJobOptions;
import dev.fieldprof.jobs.io.KafkaEndOffsets;
import dev.fieldprof.schemas.DeadLetter;
import dev.fieldprof.schemas.DeadLetterReason;
import dev.fieldprof.schemas.EstimateWindow;
import dev.fieldprof.schemas.RecordCodec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.consumer.ConsumerInterceptor;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.ProducerInterceptor;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A backlog the job has not fetched yet is not a quiet partition. Reports wait on two of three
 * partitions (the third stays empty) before the job starts; the job then starts with {@code
 * --idleness 1s} and fetches them slowly, a few records per fetch with a pause after each (as under
 * backpressure or on a slow machine, while the source's timers keep firing), so the backlog takes
 * several seconds, many times the idleness, to arrive. Every report must count in the window of its
 * append time, and none may become a dead letter; the last window must close without another report
 * arriving.
 */
class FrequencyJobBacklogITCase {
    private static final long SEED = 20_261_127L;
    private static final String APP = "backlog-it:1.0";
    private static final int PARTITIONS = 3;
    private static final int PARALLELISM = 2;
    private static final int BATCHES = 4;
    private static final int PER_BATCH = 60;
    private static final long WINDOW = Duration.ofSeconds(2).toMillis();
    private static final long OUT_OF_ORDERNESS = Duration.ofSeconds(1).toMillis();
    private static final Duration TIMEOUT = Duration.ofSeconds(120);

    @RegisterExtension
    static final FieldprofRuntimeExtension RUNTIME =
            FieldprofRuntimeExtension.builder()
                    .partitions(PARTITIONS)
                    .taskSlots(PARALLELISM)
                    .fieldprofTopics(false)
                    .build();

    @TempDir Path dir;

    @Test
    void aBacklogFetchedSlowlyCountsWholeAndNothingIsLate() throws Exception {
        FrequencyJobTopics topics = topicsWithModel();
        List<Report> known = KnownReports.randomized(SEED, APP, "backlog", BATCHES * PER_BATCH);
        List<Report> sent = produceBacklog(topics, known);

        JobClient job = start(topics, "backlog-it", true, new Configuration());
        try {
            assertEveryReportCountedOnce(topics, sent);
            System.out.printf(
                    "backlog: %d reports, %d fetched per pause of %d ms, all counted%n",
                    sent.size(), SlowFetches.RECORDS_PER_FETCH, SlowFetches.PAUSE);
        } finally {
            job.cancel().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        }
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (KafkaEndOffsets.running() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(100); // polling a real condition: the cancelled tasks closing
        }
        assertThat(KafkaEndOffsets.running())
                .as("end-offset observers left after the job's tasks ended")
                .isZero();
    }

    /**
     * An outage of the job longer than its idleness while devices keep reporting: stopped with a
     * savepoint once its first reports are counted, the job is restored when the reports sent
     * meanwhile are in windows that are over, and fetches them slowly. Every report counts once,
     * none is late.
     */
    @Test
    void aJobRestoredAfterAnOutageCountsTheReportsSentMeanwhile() throws Exception {
        FrequencyJobTopics topics = topicsWithModel();
        List<Report> known =
                KnownReports.randomized(SEED + 1, APP, "outage", (BATCHES + 1) * PER_BATCH);
        JobClient first = start(topics, "outage-it", false, new Configuration());
        List<Report> sent =
                new ArrayList<>(
                        KnownReports.produce(
                                RUNTIME,
                                topics.reports(),
                                known.subList(0, PER_BATCH),
                                r -> r.index() % 2,
                                r -> null,
                                List.of()));
        assertEveryReportCountedOnce(topics, sent);
        String savepoint =
                first.stopWithSavepoint(
                                false,
                                dir.resolve("savepoints").toUri().toString(),
                                SavepointFormatType.CANONICAL)
                        .get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);

        sent.addAll(produceBacklog(topics, known.subList(PER_BATCH, known.size())));

        Configuration restore = new Configuration();
        restore.set(StateRecoveryOptions.SAVEPOINT_PATH, savepoint);
        JobClient second = start(topics, "outage-it", true, restore);
        try {
            assertEveryReportCountedOnce(topics, sent);
            System.out.printf(
                    "outage: %d reports before the stop, %d during the outage, all counted once%n",
                    PER_BATCH, sent.size() - PER_BATCH);
        } finally {
            second.cancel().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    private static FrequencyJobTopics topicsWithModel() {
        FrequencyJobTopics topics = FrequencyJobTopics.create(RUNTIME, PARTITIONS);
        topics.publishModel(RUNTIME, APP);
        return topics;
    }

    /**
     * Writes {@code reports} in batches over several windows, on partitions 0 and 1 only, and
     * returns once every window they are in is over, out-of-orderness included: a watermark that
     * followed the wall clock from then on would close them all before they are read.
     */
    private static List<Report> produceBacklog(FrequencyJobTopics topics, List<Report> reports)
            throws InterruptedException {
        List<Report> sent = new ArrayList<>();
        for (int b = 0; b < BATCHES; b++) {
            sent.addAll(
                    KnownReports.produce(
                            RUNTIME,
                            topics.reports(),
                            reports.subList(b * PER_BATCH, (b + 1) * PER_BATCH),
                            r -> r.index() % 2,
                            r -> null,
                            List.of()));
            Thread.sleep(WINDOW / 2); // spreads the backlog over windows (no timing is asserted)
        }
        long lastAppend = sent.stream().mapToLong(Report::timestamp).max().orElseThrow();
        while (System.currentTimeMillis() <= lastAppend + WINDOW + OUT_OF_ORDERNESS) {
            Thread.sleep(100); // waiting for a point in wall-clock time, asserted on nothing
        }
        return sent;
    }

    /**
     * Waits until every report sent ended in a window estimate or a dead letter, then checks that
     * none is a dead letter and each window counted exactly its reports.
     */
    private static void assertEveryReportCountedOnce(FrequencyJobTopics topics, List<Report> sent)
            throws InterruptedException {
        TreeMap<Long, PartialSum> expected = KnownReports.sumsByWindow(sent, WINDOW);
        List<EstimateWindow> tumbling = List.of();
        List<DeadLetter> letters = List.of();
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (System.nanoTime() < deadline
                && (tumbling.size() < expected.size()
                        || counted(tumbling) + letters.size() < sent.size())) {
            Thread.sleep(500); // polling a real condition: the job's output so far
            tumbling = tumblingEstimates(topics.estimates());
            letters = JobOutputs.deadLetters(RUNTIME, topics.deadLetters());
        }
        Map<DeadLetterReason, Long> lettersByReason =
                letters.stream()
                        .collect(
                                Collectors.groupingBy(
                                        DeadLetter::getReasonCode,
                                        TreeMap::new,
                                        Collectors.counting()));
        assertThat(lettersByReason)
                .as(
                        "dead letters by reason (of %d reports, %d counted)",
                        sent.size(), counted(tumbling))
                .isEmpty();
        assertThat(tumbling)
                .as("one estimate per window with exactly its reports")
                .extracting(
                        w -> w.getWindowStartMillis().toEpochMilli(), EstimateWindow::getReports)
                .containsExactlyElementsOf(
                        expected.entrySet().stream()
                                .map(e -> tuple(e.getKey(), e.getValue().getReports()))
                                .toList());
        assertThat(counted(tumbling)).as("Σ n over windows").isEqualTo(sent.size());
    }

    /**
     * Starts the job with {@code --idleness 1s}; {@code slowly}: its consumers fetch a few records
     * at a time and pause after each fetch ({@link SlowFetches}).
     */
    private JobClient start(
            FrequencyJobTopics topics, String prefix, boolean slowly, Configuration configuration)
            throws Exception {
        Map<String, String> tuning = new java.util.HashMap<>();
        tuning.put(FrequencyJobOptions.WINDOW.key(), WINDOW + " ms");
        tuning.put(FrequencyJobOptions.CHECKPOINT_INTERVAL.key(), "1 s");
        tuning.put(FrequencyJobOptions.SHARDS.key(), "2");
        tuning.put(FrequencyJobOptions.OUT_OF_ORDERNESS.key(), OUT_OF_ORDERNESS + " ms");
        tuning.put(FrequencyJobOptions.IDLENESS.key(), "1 s");
        if (slowly) {
            Path slow = dir.resolve("slow-fetches.properties");
            writeSlowFetches(slow);
            tuning.put(FrequencyJobOptions.KAFKA_PROPERTIES.key(), slow.toString());
        }
        FrequencyJobOptions options = topics.options(prefix, tuning);
        StreamExecutionEnvironment env = RUNTIME.environment();
        env.configure(configuration);
        env.setParallelism(PARALLELISM);
        FrequencyEstimationJob.onKafka(options).buildInto(env);
        return env.executeAsync(FrequencyEstimationJob.NAME);
    }

    private static void writeSlowFetches(Path file) throws IOException {
        Files.writeString(
                file,
                "interceptor.classes="
                        + SlowFetches.class.getName()
                        + "\nmax.poll.records="
                        + SlowFetches.RECORDS_PER_FETCH
                        + "\n");
    }

    private static long counted(List<EstimateWindow> tumbling) {
        return tumbling.stream().mapToLong(EstimateWindow::getReports).sum();
    }

    /** The tumbling (not cumulative) window estimates published so far, in window order. */
    private static List<EstimateWindow> tumblingEstimates(String topic) {
        RecordCodec<EstimateWindow> codec = RecordCodec.of(EstimateWindow.class);
        List<EstimateWindow> estimates = new ArrayList<>();
        for (byte[] bytes : RUNTIME.drain(topic, new ByteArrayDeserializer())) {
            EstimateWindow estimate = codec.decode(bytes);
            if (!estimate.getCumulative()) {
                estimates.add(estimate);
            }
        }
        estimates.sort(Comparator.comparing(EstimateWindow::getWindowStartMillis));
        return estimates;
    }

    /**
     * Slows the job's consumers down: after every fetch that returned records, the fetching thread
     * pauses, as a source under backpressure or on a slow machine stops fetching while its task's
     * timers keep firing. Every client of the job gets the job's client properties, so it is also a
     * producer interceptor, one that does nothing.
     */
    public static final class SlowFetches
            implements ConsumerInterceptor<Object, Object>, ProducerInterceptor<Object, Object> {
        static final int RECORDS_PER_FETCH = 5;
        static final long PAUSE = 100;

        @Override
        public ConsumerRecords<Object, Object> onConsume(ConsumerRecords<Object, Object> records) {
            if (!records.isEmpty()) {
                try {
                    Thread.sleep(PAUSE);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return records;
        }

        @Override
        public ProducerRecord<Object, Object> onSend(ProducerRecord<Object, Object> record) {
            return record;
        }

        @Override
        public void onAcknowledgement(RecordMetadata metadata, Exception exception) {}

        @Override
        public void onCommit(Map<TopicPartition, OffsetAndMetadata> offsets) {}

        @Override
        public void close() {}

        @Override
        public void configure(Map<String, ?> configs) {}
    }
}
