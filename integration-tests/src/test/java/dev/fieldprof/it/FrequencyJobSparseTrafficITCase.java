package dev.fieldprof.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.fieldprof.estimation.PartialSum;
import dev.fieldprof.it.KnownReports.Report;
import dev.fieldprof.jobs.frequency.FrequencyEstimationJob;
import dev.fieldprof.jobs.frequency.FrequencyJobOptions;
import dev.fieldprof.schemas.DeadLetter;
import dev.fieldprof.schemas.DeadLetterReason;
import dev.fieldprof.schemas.EstimateWindow;
import dev.fieldprof.schemas.ProgramModel;
import dev.fieldprof.schemas.RecordCodec;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The traffic that lost reports on a real cluster: the production job at parallelism 2 with 4
 * shards, reports in short bursts with quiet gaps longer than a window, over 4 partitions of which
 * one never sees a report and the others fall quiet in turn. Every report must end in exactly one
 * window estimate or in the dead letters, the last window must close without another report
 * arriving, and no operator may drop a late record silently.
 *
 * <p>The same run checks that devices cannot steer event time (item 1): a report whose device clock
 * is three hours slow and one whose clock is fifty minutes ahead count in the window of the
 * broker's append time, and an undecodable record closes no window early.
 */
class FrequencyJobSparseTrafficITCase {
    private static final long SEED = 20_261_123L;
    private static final String APP = "sparse-it:1.0";
    private static final int PARTITIONS = 4;
    private static final int PARALLELISM = 2;
    private static final long WINDOW = Duration.ofSeconds(3).toMillis();

    /** Longer than a window plus the idleness, so that windows close between the bursts. */
    private static final long QUIET_GAP = Duration.ofMillis(4_500).toMillis();

    private static final Duration TIMEOUT = Duration.ofSeconds(90);

    @RegisterExtension
    static final FieldprofRuntimeExtension RUNTIME =
            FieldprofRuntimeExtension.builder()
                    .partitions(PARTITIONS)
                    .taskSlots(PARALLELISM)
                    .fieldprofTopics(false)
                    .build();

    @Test
    void everyReportEndsInOneWindowOrTheDeadLettersWhenTrafficComesInBursts() throws Exception {
        FrequencyJobTopics topics = FrequencyJobTopics.create(RUNTIME, PARTITIONS);
        String reportsTopic = topics.reports();
        String programsTopic = topics.programs();
        String estimatesTopic = topics.estimates();
        String deadLetterTopic = topics.deadLetters();
        ProgramModel model = KnownReports.model(APP);
        RUNTIME.produce(
                List.of(
                        new ProducerRecord<>(
                                programsTopic,
                                APP,
                                RecordCodec.of(ProgramModel.class).encode(model))),
                new StringSerializer(),
                new ByteArraySerializer());

        JobClient job = start(topics);
        try {
            List<Report> known = KnownReports.randomized(SEED, APP, "sparse", 20);
            long now = System.currentTimeMillis();
            List<Report> sent = new ArrayList<>();
            // Burst 1: six reports over partitions 0-2.
            sent.addAll(burst(reportsTopic, known.subList(0, 6), r -> r.index() % 3, r -> null));
            Thread.sleep(QUIET_GAP); // a quiet gap of the traffic under test, on the wall clock
            // Burst 2: three reports on partition 0 alone, and an undecodable record on 1.
            sent.addAll(
                    KnownReports.produce(
                            RUNTIME,
                            reportsTopic,
                            known.subList(6, 9),
                            r -> 0,
                            r -> null,
                            List.of(
                                    new ProducerRecord<>(
                                            reportsTopic,
                                            1,
                                            // Stamped ahead, as a device clock could stamp it.
                                            now + Duration.ofMinutes(50).toMillis(),
                                            "garbage",
                                            "not a report".getBytes(StandardCharsets.UTF_8)))));
            Thread.sleep(QUIET_GAP);
            // Burst 3: device clocks three hours slow and fifty minutes ahead, partitions 1-2.
            sent.addAll(
                    burst(
                            reportsTopic,
                            known.subList(9, 15),
                            r -> 1 + r.index() % 2,
                            r ->
                                    r.index() % 2 == 0
                                            ? now - Duration.ofHours(3).toMillis()
                                            : now + Duration.ofMinutes(50).toMillis()));
            Thread.sleep(QUIET_GAP);
            // Burst 4: five reports on partition 2; then nothing more arrives.
            sent.addAll(burst(reportsTopic, known.subList(15, 20), r -> 2, r -> null));

            TreeMap<Long, PartialSum> expected = KnownReports.sumsByWindow(sent, WINDOW);
            List<EstimateWindow> estimates = awaitEstimates(estimatesTopic, 2 * expected.size());
            List<EstimateWindow> tumbling =
                    estimates.stream()
                            .filter(w -> !w.getCumulative())
                            .sorted(Comparator.comparing(EstimateWindow::getWindowStartMillis))
                            .toList();
            assertThat(tumbling)
                    .as("one estimate per window with exactly its reports (append times)")
                    .extracting(
                            w -> w.getWindowStartMillis().toEpochMilli(),
                            EstimateWindow::getReports)
                    .containsExactlyElementsOf(
                            expected.entrySet().stream()
                                    .map(e -> tuple(e.getKey(), e.getValue().getReports()))
                                    .toList());
            EstimateWindow last =
                    estimates.stream()
                            .filter(EstimateWindow::getCumulative)
                            .max(Comparator.comparing(EstimateWindow::getWindowEndMillis))
                            .orElseThrow();
            assertThat(last.getReports()).as("cumulative n").isEqualTo(sent.size());
            System.out.printf(
                    "sparse traffic: %d reports in %d windows; the last window's estimate came %d"
                            + " ms after its end without another report%n",
                    sent.size(),
                    expected.size(),
                    tumbling.get(tumbling.size() - 1).getEmittedAtMillis().toEpochMilli()
                            - expected.lastKey()
                            - WINDOW);

            List<DeadLetter> letters = JobOutputs.deadLetters(RUNTIME, deadLetterTopic);
            assertThat(letters)
                    .as("the only dead letter is the undecodable record")
                    .extracting(DeadLetter::getReasonCode, DeadLetter::getPartition)
                    .containsExactly(tuple(DeadLetterReason.UNDECODABLE, 1));
            long counted = tumbling.stream().mapToLong(EstimateWindow::getReports).sum();
            assertThat(counted).as("Σ n over windows").isEqualTo(sent.size() + 1 - letters.size());

            // The REST API serves a metric only once its refresh has fetched it: poll for it.
            FlinkRestMetrics lateMetrics = new FlinkRestMetrics(RUNTIME.flink().restAddress());
            Map<String, Long> dropped = Map.of();
            long lateDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (dropped.isEmpty() && System.nanoTime() < lateDeadline) {
                dropped = lateMetrics.values(job.getJobID(), "numLateRecordsDropped");
                if (dropped.isEmpty()) {
                    Thread.sleep(500); // polling a real condition: the REST metrics' refresh
                }
            }
            assertThat(dropped)
                    .as("the window operators report their late-record metric")
                    .isNotEmpty();
            assertThat(dropped.values())
                    .as("late records dropped silently, per operator: %s", dropped)
                    .allMatch(count -> count == 0);

            // What operators look at: the job's own counters match what was
            // sent. The REST API refreshes them every few seconds: poll until they settle.
            FlinkRestMetrics metrics = new FlinkRestMetrics(RUNTIME.flink().restAddress());
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            Map<String, Long> decoded = Map.of();
            Map<String, Long> deadLetterCounts = Map.of();
            Map<String, Long> published = Map.of();
            while (System.nanoTime() < deadline) {
                decoded = metrics.values(job.getJobID(), "reportsDecoded");
                deadLetterCounts = metrics.values(job.getJobID(), "deadLetters");
                published = metrics.values(job.getJobID(), "estimatesPublished");
                if (sum(decoded) == sent.size()
                        && sum(deadLetterCounts) == letters.size()
                        && sum(published) == tumbling.size()) {
                    break;
                }
                Thread.sleep(500); // polling a real condition: the REST metrics' refresh
            }
            assertThat(sum(decoded)).as("reportsDecoded %s", decoded).isEqualTo(sent.size());
            assertThat(deadLetterCounts)
                    .as("deadLetters per reason")
                    .hasSize(1)
                    .allSatisfy((id, count) -> assertThat(id).contains("UNDECODABLE"));
            assertThat(sum(deadLetterCounts)).isEqualTo(1L);
            assertThat(sum(published)).as("estimatesPublished").isEqualTo(tumbling.size());
            assertThat(metrics.values(job.getJobID(), "reportsWaitingForModel"))
                    .as("a gauge per validation subtask")
                    .hasSize(PARALLELISM)
                    .allSatisfy((id, waiting) -> assertThat(waiting).isZero());
        } finally {
            job.cancel().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    private static long sum(Map<String, Long> values) {
        return values.values().stream().mapToLong(Long::longValue).sum();
    }

    private static List<Report> burst(
            String topic,
            List<Report> reports,
            java.util.function.ToIntFunction<Report> partition,
            java.util.function.Function<Report, Long> createTime) {
        return KnownReports.produce(RUNTIME, topic, reports, partition, createTime, List.of());
    }

    private static JobClient start(FrequencyJobTopics topics) throws Exception {
        FrequencyJobOptions options =
                topics.options(
                        "sparse-it",
                        Map.of(
                                FrequencyJobOptions.WINDOW.key(), WINDOW + " ms",
                                FrequencyJobOptions.CHECKPOINT_INTERVAL.key(), "1 s",
                                FrequencyJobOptions.SHARDS.key(), "4",
                                // Covers the delay from the broker's append to the job's read of
                                // a report, which a loaded machine can stretch to seconds.
                                FrequencyJobOptions.OUT_OF_ORDERNESS.key(), "2 s",
                                FrequencyJobOptions.IDLENESS.key(), "1 s"));
        StreamExecutionEnvironment env = RUNTIME.environment();
        env.setParallelism(PARALLELISM);
        FrequencyEstimationJob.onKafka(options).buildInto(env);
        return env.executeAsync(FrequencyEstimationJob.NAME);
    }

    private static List<EstimateWindow> awaitEstimates(String topic, int count) {
        RecordCodec<EstimateWindow> codec = RecordCodec.of(EstimateWindow.class);
        List<EstimateWindow> estimates = new ArrayList<>();
        for (byte[] bytes :
                RUNTIME.awaitRecords(topic, new ByteArrayDeserializer(), count, TIMEOUT)) {
            estimates.add(codec.decode(bytes));
        }
        return estimates;
    }
}
