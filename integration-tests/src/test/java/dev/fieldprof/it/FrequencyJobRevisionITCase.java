package dev.fieldprof.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.fieldprof.it.KnownReports.Report;
import dev.fieldprof.jobs.frequency.FrequencyEstimationJob;
import dev.fieldprof.jobs.frequency.FrequencyJobOptions;
import dev.fieldprof.schemas.EstimateWindow;
import dev.fieldprof.schemas.RecordCodec;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A report that arrives after its window's estimate was published, within the allowed lateness,
 * still counts: the window is published again as revision 2 with the report in it, under the same
 * key on the compacted estimates topic, so a consumer that keeps the latest value per key reads the
 * corrected estimate. The report's time is carried in the record (a topic that keeps the producers'
 * timestamps, as a replayed record keeps its original time): it lies in a window that was estimated
 * before the record was written.
 */
class FrequencyJobRevisionITCase {
    private static final long SEED = 20_261_128L;
    private static final String APP = "revision-it:1.0";
    private static final int PARTITIONS = 2;
    private static final int PARALLELISM = 2;
    private static final int ON_TIME = 20;
    private static final long WINDOW = Duration.ofSeconds(2).toMillis();
    private static final Duration TIMEOUT = Duration.ofSeconds(120);
    private static final RecordCodec<EstimateWindow> ESTIMATES =
            RecordCodec.of(EstimateWindow.class);

    @RegisterExtension
    static final FieldprofRuntimeExtension RUNTIME =
            FieldprofRuntimeExtension.builder()
                    .partitions(PARTITIONS)
                    .taskSlots(PARALLELISM)
                    .fieldprofTopics(false)
                    .build();

    @Test
    void aReportLaterThanItsWindowsEstimateMakesRevisionTwoThatTheLatestValuePerKeyShows()
            throws Exception {
        // Producer timestamps: the late report carries its time.
        FrequencyJobTopics topics =
                FrequencyJobTopics.createKeepingReportTimes(RUNTIME, PARTITIONS);
        topics.publishModel(RUNTIME, APP);
        List<Report> known = KnownReports.randomized(SEED, APP, "revision", ON_TIME + 1);
        long time = System.currentTimeMillis();
        long windowStart = KnownReports.windowStart(time, WINDOW);

        JobClient job = start(topics);
        try {
            KnownReports.produce(
                    RUNTIME,
                    topics.reports(),
                    known.subList(0, ON_TIME),
                    r -> r.index() % PARTITIONS,
                    r -> time,
                    List.of());
            EstimateWindow first = awaitRevision(topics, windowStart, 1);
            assertThat(first.getReports()).isEqualTo(ON_TIME);

            // Written after revision 1 was published, with a time in that window.
            KnownReports.produce(
                    RUNTIME,
                    topics.reports(),
                    known.subList(ON_TIME, ON_TIME + 1),
                    r -> 0,
                    r -> time,
                    List.of());
            EstimateWindow second = awaitRevision(topics, windowStart, 2);
            assertThat(second.getReports()).isEqualTo(ON_TIME + 1);

            Map<String, EstimateWindow> latest =
                    JobOutputs.latestValuePerKey(RUNTIME, topics.estimates());
            assertThat(latest.values())
                    .as("the latest value of each key: the window and the cumulative estimate")
                    .extracting(
                            EstimateWindow::getCumulative,
                            w -> w.getWindowStartMillis().toEpochMilli(),
                            EstimateWindow::getRevision,
                            EstimateWindow::getReports)
                    .containsExactlyInAnyOrder(
                            tuple(false, windowStart, 2, (long) ON_TIME + 1),
                            tuple(true, windowStart, 2, (long) ON_TIME + 1));
            assertThat(JobOutputs.deadLetters(RUNTIME, topics.deadLetters())).isEmpty();
            System.out.printf(
                    "revision: window %d published with n = %d, then as revision %d with n = %d%n",
                    windowStart, first.getReports(), second.getRevision(), second.getReports());
        } finally {
            job.cancel().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    private static EstimateWindow awaitRevision(
            FrequencyJobTopics topics, long windowStart, int revision) throws InterruptedException {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            for (byte[] bytes : RUNTIME.drain(topics.estimates(), new ByteArrayDeserializer())) {
                EstimateWindow window = ESTIMATES.decode(bytes);
                if (!window.getCumulative()
                        && window.getWindowStartMillis().toEpochMilli() == windowStart
                        && window.getRevision() == revision) {
                    return window;
                }
            }
            Thread.sleep(500); // polling a real condition: the job's output so far
        }
        throw new AssertionError(
                "no revision "
                        + revision
                        + " of window "
                        + windowStart
                        + " within "
                        + TIMEOUT
                        + "; dead letters: "
                        + JobOutputs.deadLetters(RUNTIME, topics.deadLetters()));
    }

    private static JobClient start(FrequencyJobTopics topics) throws Exception {
        Map<String, String> tuning = new HashMap<>();
        tuning.put(FrequencyJobOptions.WINDOW.key(), WINDOW + " ms");
        tuning.put(FrequencyJobOptions.CHECKPOINT_INTERVAL.key(), "1 s");
        tuning.put(FrequencyJobOptions.SHARDS.key(), "2");
        tuning.put(FrequencyJobOptions.OUT_OF_ORDERNESS.key(), "1 s");
        tuning.put(FrequencyJobOptions.IDLENESS.key(), "1 s");
        FrequencyJobOptions options = topics.options("revision-it", tuning);
        StreamExecutionEnvironment env = RUNTIME.environment();
        env.setParallelism(PARALLELISM);
        FrequencyEstimationJob.onKafka(options).buildInto(env);
        return env.executeAsync(FrequencyEstimationJob.NAME);
    }
}
