package dev.fieldprof.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.fieldprof.cli.CliCapture;
import dev.fieldprof.it.KnownReports.Report;
import dev.fieldprof.jobs.frequency.FrequencyEstimationJob;
import dev.fieldprof.jobs.frequency.FrequencyJobOptions;
import dev.fieldprof.schemas.DeadLetter;
import dev.fieldprof.schemas.DeadLetterReason;
import dev.fieldprof.schemas.EstimateWindow;
import dev.fieldprof.schemas.FrequencyReport;
import dev.fieldprof.schemas.RecordCodec;
import dev.fieldprof.schemas.ReplayKeys;
import dev.fieldprof.schemas.Topics;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A report that waited for its program model in vain (a MODEL_WAIT_EXPIRED dead letter) counts once
 * its model is published and its letter replayed with {@code fieldprof dead-letters replay}: in its
 * original window, as the window's next revision with one report more. Replaying again writes
 * nothing (the letter is left as already replayed), and a replay record written twice anyway is
 * counted once by the job. The reports carry their times (a topic that keeps the producers'
 * timestamps): they lie in a window ten minutes old, within the allowed lateness.
 */
class DeadLetterReplayITCase {
    private static final long SEED = 20_261_128L;
    private static final String APP = "replay-it:1.0";
    private static final int PARTITIONS = 2;
    private static final int PARALLELISM = 2;
    private static final int ON_TIME = 12;
    private static final long WINDOW = Duration.ofSeconds(2).toMillis();
    private static final Duration TIMEOUT = Duration.ofSeconds(180);
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
    void aReportWhoseModelCameAfterItsLetterCountsOnceInItsWindowWhenReplayed() throws Exception {
        // Producer timestamps: the reports carry their time.
        FrequencyJobTopics topics =
                FrequencyJobTopics.createKeepingReportTimes(RUNTIME, PARTITIONS);
        String replayTopic = RUNTIME.randomTopic();
        RUNTIME.createTopic(replayTopic, PARTITIONS, Topics.replaySettings());
        List<Report> known = KnownReports.randomized(SEED, APP, "replay", ON_TIME + 2);
        Report waiting = known.get(ON_TIME);
        Report another = known.get(ON_TIME + 1);
        long time = System.currentTimeMillis() - Duration.ofMinutes(10).toMillis();
        long windowStart = KnownReports.windowStart(time, WINDOW);

        JobClient job = start(topics, replayTopic);
        try {
            // No model yet: the report waits, then becomes a MODEL_WAIT_EXPIRED letter.
            KnownReports.produce(
                    RUNTIME, topics.reports(), List.of(waiting), r -> 0, r -> time, List.of());
            DeadLetter letter = awaitLetter(topics);
            assertThat(letter.getReasonCode()).isEqualTo(DeadLetterReason.MODEL_WAIT_EXPIRED);
            assertThat(letter.getSourceTopic()).isEqualTo(topics.reports());
            assertThat(letter.getPartition()).isZero();
            assertThat(letter.getOffset()).isZero();
            String key = ReplayKeys.of(topics.reports(), 0, 0);

            topics.publishModel(RUNTIME, APP);
            KnownReports.produce(
                    RUNTIME,
                    topics.reports(),
                    known.subList(0, ON_TIME),
                    r -> r.index() % PARTITIONS,
                    r -> time,
                    List.of());
            EstimateWindow before =
                    awaitLatest(topics, windowStart, w -> w.getReports() == ON_TIME);

            CliCapture first = replay(topics, replayTopic);
            assertThat(first.out())
                    .isEqualTo("replayed 1 report(s); left 0 letter(s)\n  replayed " + key + "\n");
            EstimateWindow after =
                    awaitLatest(topics, windowStart, w -> w.getReports() == ON_TIME + 1);
            assertThat(after.getRevision()).isEqualTo(before.getRevision() + 1);

            CliCapture second = replay(topics, replayTopic);
            assertThat(second.out())
                    .isEqualTo(
                            "replayed 0 report(s); left 1 letter(s)\nleft 1: already replayed\n  "
                                    + key
                                    + "\n");
            assertThat(RUNTIME.drain(replayTopic, new ByteArrayDeserializer()))
                    .as("the second replay wrote nothing")
                    .hasSize(1);

            // A replay record written twice anyway (say by two operators at once), then one of
            // another report, both on partition 0: the job counts the first once and the other.
            RecordCodec<FrequencyReport> reports = RecordCodec.of(FrequencyReport.class);
            String otherKey = ReplayKeys.of(topics.reports(), 1, 1_000);
            RUNTIME.produce(
                    List.of(
                            new ProducerRecord<>(
                                    replayTopic, 0, time, key, reports.encode(waiting.body())),
                            new ProducerRecord<>(
                                    replayTopic,
                                    0,
                                    time,
                                    otherKey,
                                    reports.encode(another.body()))),
                    new StringSerializer(),
                    new ByteArraySerializer());
            EstimateWindow last =
                    awaitLatest(topics, windowStart, w -> w.getReports() >= ON_TIME + 2);
            assertThat(last.getReports()).isEqualTo(ON_TIME + 2);
            assertThat(last.getRevision()).isEqualTo(after.getRevision() + 1);

            assertThat(
                            JobOutputs.deadLetters(RUNTIME, topics.deadLetters()).stream()
                                    .map(DeadLetter::getReasonCode)
                                    .toList())
                    .containsExactly(DeadLetterReason.MODEL_WAIT_EXPIRED);
            System.out.printf(
                    "replay: window %d at n = %d (revision %d), replayed: n = %d (revision %d),"
                            + " replayed again and one other: n = %d (revision %d)%n",
                    windowStart,
                    before.getReports(),
                    before.getRevision(),
                    after.getReports(),
                    after.getRevision(),
                    last.getReports(),
                    last.getRevision());
        } finally {
            job.cancel().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    private static CliCapture replay(FrequencyJobTopics topics, String replayTopic) {
        CliCapture cli = new CliCapture();
        int exit =
                cli.run(
                        "dead-letters",
                        "replay",
                        "--bootstrap",
                        topics.bootstrap(),
                        "--window",
                        WINDOW + "ms",
                        "--dead-letter-topic",
                        topics.deadLetters(),
                        "--reports-topic",
                        topics.reports(),
                        "--programs-topic",
                        topics.programs(),
                        "--replay-topic",
                        replayTopic);
        assertThat(exit).as("replay: %s %s", cli.out(), cli.err()).isZero();
        return cli;
    }

    private static DeadLetter awaitLetter(FrequencyJobTopics topics) throws InterruptedException {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            List<DeadLetter> letters = JobOutputs.deadLetters(RUNTIME, topics.deadLetters());
            if (!letters.isEmpty()) {
                assertThat(letters).hasSize(1);
                return letters.get(0);
            }
            Thread.sleep(500); // polling a real condition: the job's output so far
        }
        throw new AssertionError("no dead letter within " + TIMEOUT);
    }

    /**
     * The latest value of the window's key once it satisfies {@code until}; the cumulative
     * estimate's latest value agrees with it (one window holds every report).
     */
    private static EstimateWindow awaitLatest(
            FrequencyJobTopics topics, long windowStart, Predicate<EstimateWindow> until)
            throws InterruptedException {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        Map<String, EstimateWindow> latest = Map.of();
        while (System.nanoTime() < deadline) {
            latest = JobOutputs.latestValuePerKey(RUNTIME, topics.estimates());
            for (EstimateWindow window : latest.values()) {
                if (!window.getCumulative()
                        && window.getWindowStartMillis().toEpochMilli() == windowStart
                        && until.test(window)) {
                    EstimateWindow found = window;
                    assertThat(latest.values())
                            .extracting(EstimateWindow::getCumulative, EstimateWindow::getReports)
                            .contains(tuple(false, found.getReports()));
                    return found;
                }
            }
            Thread.sleep(500); // polling a real condition: the job's output so far
        }
        throw new AssertionError(
                "window "
                        + windowStart
                        + " never as expected within "
                        + TIMEOUT
                        + "; latest: "
                        + latest
                        + "; dead letters: "
                        + JobOutputs.deadLetters(RUNTIME, topics.deadLetters()));
    }

    private static JobClient start(FrequencyJobTopics topics, String replayTopic) throws Exception {
        Map<String, String> tuning = new HashMap<>();
        tuning.put(FrequencyJobOptions.WINDOW.key(), WINDOW + " ms");
        tuning.put(FrequencyJobOptions.CHECKPOINT_INTERVAL.key(), "1 s");
        tuning.put(FrequencyJobOptions.SHARDS.key(), "2");
        tuning.put(FrequencyJobOptions.OUT_OF_ORDERNESS.key(), "1 s");
        tuning.put(FrequencyJobOptions.IDLENESS.key(), "1 s");
        // Long enough for the model published after the letter to reach every shard before the
        // reports written after it give up waiting.
        tuning.put(FrequencyJobOptions.MODEL_WAIT.key(), "30 s");
        tuning.put(FrequencyJobOptions.REPLAY_TOPIC.key(), replayTopic);
        FrequencyJobOptions options = topics.options("replay-it", tuning);
        StreamExecutionEnvironment env = RUNTIME.environment();
        env.setParallelism(PARALLELISM);
        FrequencyEstimationJob.onKafka(options).buildInto(env);
        return env.executeAsync(FrequencyEstimationJob.NAME);
    }
}
