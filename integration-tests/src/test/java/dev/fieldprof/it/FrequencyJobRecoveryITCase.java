package dev.fieldprof.it;

import static dev.fieldprof.it.KnownReports.CONFIG;
import static dev.fieldprof.it.KnownReports.METHODS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.assertj.core.api.Assertions.within;

import dev.fieldprof.estimation.FrequencyEstimate;
import dev.fieldprof.estimation.FrequencyEstimator;
import dev.fieldprof.estimation.PartialSum;
import dev.fieldprof.it.KnownReports.Report;
import dev.fieldprof.jobs.frequency.FrequencyEstimationJob;
import dev.fieldprof.jobs.frequency.FrequencyJobOptions;
import dev.fieldprof.jobs.frequency.core.ProgramIndex;
import dev.fieldprof.schemas.DeadLetter;
import dev.fieldprof.schemas.DeadLetterReason;
import dev.fieldprof.schemas.EstimateWindow;
import dev.fieldprof.schemas.ProgramModel;
import dev.fieldprof.schemas.RecordCodec;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.ExternalizedCheckpointRetention;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.runtime.checkpoint.CheckpointStatsSnapshot;
import org.apache.flink.runtime.checkpoint.CompletedCheckpointStats;
import org.apache.flink.runtime.checkpoint.RestoredCheckpointStats;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The frequency estimation job as it runs in production (unbounded Kafka sources, exactly-once
 * Kafka sinks, checkpoints every second) is stopped mid-stream and restored from its last retained
 * checkpoint or from a stop-with-savepoint, on the shared broker and MiniCluster. A known set of
 * randomized reports, fed half before and half after the stop, must be counted exactly once:
 * per-window and cumulative report counts and ĝ equal what the estimation core computes in the test
 * from the same randomized counts, in the windows of the broker's append times (the report topic is
 * stamped by the broker, as every report topic of fieldprof).
 */
class FrequencyJobRecoveryITCase {
    private static final long SEED = 20_261_122L;
    private static final String APP = "recovery-it:1.0";
    private static final int PARTITIONS = 2;
    private static final int REPORTS_PER_HALF = 24;
    // Windows on the broker's append time: long enough that the window open at the stop is often
    // still open after the restore (it then holds reports of both runs), short for a quick test.
    private static final long WINDOW = Duration.ofSeconds(8).toMillis();
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    @RegisterExtension
    static final FieldprofRuntimeExtension RUNTIME =
            FieldprofRuntimeExtension.builder()
                    .partitions(PARTITIONS)
                    .taskSlots(PARTITIONS)
                    .fieldprofTopics(false)
                    .build();

    @TempDir Path work;

    /** How the first run ends and where the second one starts from. */
    private enum Stop {
        /** Cancel after a completed checkpoint; restore from the checkpoint retained on cancel. */
        CANCEL_AND_RESTORE_RETAINED_CHECKPOINT,
        /** Stop with a savepoint (no drain, so windows stay open); restore from the savepoint. */
        STOP_WITH_SAVEPOINT
    }

    /** Jobs a test started; cancelled after it so that a failed test leaves its slots free. */
    private final List<JobClient> jobs = new ArrayList<>();

    @AfterEach
    void cancelJobs() throws Exception {
        for (JobClient job : jobs) {
            if (!miniCluster().getJobStatus(job.getJobID()).get().isGloballyTerminalState()) {
                job.cancel().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            }
        }
    }

    @Test
    void countsEveryReportExactlyOnceAfterCancelAndRestoreFromRetainedCheckpoint()
            throws Exception {
        stopRestoreAndCheck(Stop.CANCEL_AND_RESTORE_RETAINED_CHECKPOINT, SEED, false);
    }

    @Test
    void countsEveryReportExactlyOnceAfterStopWithSavepointAndRestore() throws Exception {
        stopRestoreAndCheck(Stop.STOP_WITH_SAVEPOINT, SEED + 1, false);
    }

    /**
     * The same run with the program model stamped after every report (as when a model is
     * republished while older reports are still to come). The programs input must not drive event
     * time: if it did, while the reports input is idle the middle window would close in the first
     * run with only its first-half reports, and after the restore (watermarks are not checkpointed)
     * the second-half ones would make a second estimate of the same window.
     */
    @Test
    void countsEveryReportExactlyOnceWhenTheModelIsStampedAfterTheReports() throws Exception {
        stopRestoreAndCheck(Stop.STOP_WITH_SAVEPOINT, SEED + 2, true);
    }

    /**
     * Restored with twice the shards and twice the parallelism. The program models are not read
     * again (the programs source resumes past them), so every new shard must know them from the
     * restored state, or its reports would wait and expire.
     */
    @Test
    void countsEveryReportExactlyOnceAfterARestoreWithOtherShardsAndParallelism() throws Exception {
        stopRestoreAndCheck(Stop.STOP_WITH_SAVEPOINT, SEED + 3, false, true);
    }

    private void stopRestoreAndCheck(Stop stop, long seed, boolean modelAfterReports)
            throws Exception {
        stopRestoreAndCheck(stop, seed, modelAfterReports, false);
    }

    private void stopRestoreAndCheck(
            Stop stop, long seed, boolean modelAfterReports, boolean rescale) throws Exception {
        FrequencyJobTopics topics = FrequencyJobTopics.create(RUNTIME, PARTITIONS);
        String reportsTopic = topics.reports();
        String programsTopic = topics.programs();
        String estimatesTopic = topics.estimates();
        String deadLetterTopic = topics.deadLetters();

        // The program model is stamped long before its reports (a model published before its app
        // version ships) or an hour after them (republished while they are in flight): program
        // models never take part in event time, so neither may change what the windows hold.
        ProgramModel model = KnownReports.model(APP);
        List<Report> known =
                KnownReports.randomized(seed, APP, "recovery-" + seed, 2 * REPORTS_PER_HALF);
        List<Report> firstWindow = known.subList(0, REPORTS_PER_HALF / 2);
        List<Report> beforeStop = known.subList(REPORTS_PER_HALF / 2, REPORTS_PER_HALF);
        List<Report> afterRestore = known.subList(REPORTS_PER_HALF, known.size());

        long now = System.currentTimeMillis();
        RUNTIME.produce(
                List.of(
                        new ProducerRecord<>(
                                programsTopic,
                                0,
                                modelAfterReports ? now + Duration.ofHours(1).toMillis() : 0L,
                                APP,
                                RecordCodec.of(ProgramModel.class).encode(model))),
                new StringSerializer(),
                new ByteArraySerializer());

        FrequencyJobOptions options =
                topics.options(
                        "recovery-it",
                        Map.of(
                                FrequencyJobOptions.WINDOW.key(), WINDOW + " ms",
                                FrequencyJobOptions.CHECKPOINT_INTERVAL.key(), "1 s",
                                FrequencyJobOptions.SHARDS.key(), "2",
                                FrequencyJobOptions.OUT_OF_ORDERNESS.key(), "1 s",
                                // How often end offsets are observed (any value is safe).
                                FrequencyJobOptions.IDLENESS.key(), "3 s"));

        // Run 1: the first half. A quarter at the start of a window, which closes and is committed
        // before the stop; then a quarter into the next window, which is open at the stop.
        Configuration checkpoints = new Configuration();
        checkpoints.set(
                CheckpointingOptions.CHECKPOINTS_DIRECTORY,
                work.resolve("checkpoints").toUri().toString());
        checkpoints.set(
                CheckpointingOptions.EXTERNALIZED_CHECKPOINT_RETENTION,
                ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION);
        if (rescale) {
            checkpoints.set(CoreOptions.DEFAULT_PARALLELISM, 1);
        }
        JobClient first = start(options, checkpoints);
        awaitWindowStart();
        List<Report> sent = new ArrayList<>(produce(reportsTopic, firstWindow, List.of()));
        long firstStart = windowStart(sent.get(0).timestamp());
        List<EstimateWindow> committedBeforeStop =
                decodeEstimates(
                        RUNTIME.awaitRecords(
                                estimatesTopic, new ByteArrayDeserializer(), 2, TIMEOUT));
        assertThat(committedBeforeStop)
                .as("seed %d: the first window and its cumulative, committed before the stop", seed)
                .extracting(
                        w -> w.getWindowStartMillis().toEpochMilli(), EstimateWindow::getReports)
                .containsExactlyInAnyOrder(
                        tuple(firstStart, countIn(sent, firstStart)),
                        tuple(firstStart, countIn(sent, firstStart)));
        sent.addAll(produce(reportsTopic, beforeStop, List.of()));

        String restorePath = stop(first, stop);
        assertThat(restorePath).as("restore path").isNotNull();

        // Run 2: restored with the same uids; then the second half and one undecodable record per
        // partition (a dead letter, which must not move event time). The quiet partitions then
        // follow the wall clock, which closes the last window.
        Configuration restore = new Configuration(checkpoints);
        restore.set(StateRecoveryOptions.SAVEPOINT_PATH, restorePath);
        FrequencyJobOptions restoredOptions = options;
        if (rescale) {
            Map<String, String> moreShards = new HashMap<>(options.toMap());
            moreShards.put(FrequencyJobOptions.SHARDS.key(), "4");
            restoredOptions = FrequencyJobOptions.fromMap(moreShards);
            restore.set(CoreOptions.DEFAULT_PARALLELISM, 2);
        }
        JobClient second = start(restoredOptions, restore);
        List<byte[]> sentinels = new ArrayList<>();
        for (int p = 0; p < PARTITIONS; p++) {
            sentinels.add(("watermark-sentinel-" + p).getBytes(StandardCharsets.UTF_8));
        }
        sent.addAll(produce(reportsTopic, afterRestore, sentinels));
        long windows = sent.stream().map(r -> windowStart(r.timestamp())).distinct().count();
        RUNTIME.awaitRecords(
                estimatesTopic, new ByteArrayDeserializer(), (int) (2 * windows), TIMEOUT);
        // Two more completed checkpoints: any further (duplicate) estimate of the restored job
        // would now be committed and visible to the drain below.
        awaitCompletedCheckpoints(second.getJobID(), completedCheckpoints(second.getJobID()) + 2);
        RestoredCheckpointStats restored =
                checkpointStats(second.getJobID()).getLatestRestoredCheckpoint();
        second.cancel().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        awaitStatus(second.getJobID(), JobStatus.CANCELED);

        assertThat(restored).as("the second run restored state").isNotNull();
        assertThat(restored.getExternalPath()).isEqualTo(restorePath);

        List<EstimateWindow> estimates =
                decodeEstimates(RUNTIME.drain(estimatesTopic, new ByteArrayDeserializer()));
        checkExactlyOnce(estimates, sent, firstStart, seed);
        checkDeadLetters(deadLetterTopic, reportsTopic);
    }

    private void checkExactlyOnce(
            List<EstimateWindow> estimates, List<Report> known, long base, long seed) {
        FrequencyEstimator estimator = new FrequencyEstimator(KnownReports.privacy());
        TreeMap<Long, PartialSum> expectedWindows = KnownReports.sumsByWindow(known, WINDOW);
        PartialSum all = new PartialSum(METHODS);
        for (Report report : known) {
            all.add(report.counts());
        }
        assertThat(expectedWindows)
                .as("the known set spans at least two windows")
                .hasSizeGreaterThan(1);

        List<EstimateWindow> tumbling =
                estimates.stream()
                        .filter(w -> !w.getCumulative())
                        .sorted(Comparator.comparing(EstimateWindow::getWindowStartMillis))
                        .toList();
        List<EstimateWindow> cumulative =
                estimates.stream()
                        .filter(EstimateWindow::getCumulative)
                        .sorted(Comparator.comparing(EstimateWindow::getWindowEndMillis))
                        .toList();
        assertThat(tumbling)
                .as(
                        "seed %d: one estimate per window, none twice; committed: %s",
                        seed, describe(estimates))
                .extracting(w -> w.getWindowStartMillis().toEpochMilli())
                .containsExactlyElementsOf(expectedWindows.keySet());
        assertThat(tumbling.stream().mapToLong(EstimateWindow::getReports).sum())
                .as("seed %d: reports over all windows", seed)
                .isEqualTo(known.size());

        int i = 0;
        for (Map.Entry<Long, PartialSum> entry : expectedWindows.entrySet()) {
            EstimateWindow window = tumbling.get(i++);
            assertThat(window.getWindowEndMillis().toEpochMilli())
                    .isEqualTo(entry.getKey() + WINDOW);
            assertThat(window.getReports())
                    .as("seed %d: reports in window %s", seed, window.getWindowStartMillis())
                    .isEqualTo(entry.getValue().getReports());
            assertSameEstimate(window, estimator.estimate(entry.getValue()), seed);
        }

        // One cumulative estimate per window, each since the first window's start, growing by
        // exactly that window's reports.
        assertThat(cumulative)
                .as("seed %d: cumulative estimates", seed)
                .hasSize(expectedWindows.size());
        long running = 0;
        i = 0;
        for (PartialSum window : expectedWindows.values()) {
            running += window.getReports();
            EstimateWindow estimate = cumulative.get(i++);
            assertThat(estimate.getWindowStartMillis().toEpochMilli()).isEqualTo(base);
            assertThat(estimate.getReports()).as("seed %d: cumulative n", seed).isEqualTo(running);
        }
        EstimateWindow last = cumulative.get(cumulative.size() - 1);
        assertThat(last.getReports()).isEqualTo(known.size());
        long lastStart = expectedWindows.lastKey();
        assertThat(last.getWindowEndMillis().toEpochMilli()).isEqualTo(lastStart + WINDOW);
        FrequencyEstimate expected = estimator.estimate(all);
        assertSameEstimate(last, expected, seed);
        double[] consistent =
                ProgramIndex.of(KnownReports.model(APP))
                        .projection()
                        .project(expected.normalized())
                        .solution();
        for (int v = 0; v < METHODS; v++) {
            assertThat(last.getConsistent().get(v))
                    .as("seed %d: g*(%d) of the final cumulative estimate", seed, v)
                    .isCloseTo(consistent[v], within(1e-12));
        }
    }

    /** Window start, kind, n and emission time of each estimate, for failure messages. */
    private static List<String> describe(List<EstimateWindow> estimates) {
        return estimates.stream()
                .map(
                        w ->
                                (w.getCumulative() ? "cumulative " : "window ")
                                        + w.getWindowStartMillis()
                                        + ".."
                                        + w.getWindowEndMillis()
                                        + " n="
                                        + w.getReports()
                                        + " emitted "
                                        + w.getEmittedAtMillis())
                .toList();
    }

    private static void assertSameEstimate(
            EstimateWindow window, FrequencyEstimate expected, long seed) {
        assertThat(window.getNormalized()).hasSize(METHODS);
        for (int v = 0; v < METHODS; v++) {
            assertThat(window.getNormalized().get(v))
                    .as(
                            "seed %d: ĝ(%d) of %s window at %s",
                            seed,
                            v,
                            window.getCumulative() ? "cumulative" : "tumbling",
                            window.getWindowStartMillis())
                    .isCloseTo(expected.normalized()[v], within(1e-12));
        }
        assertThat(window.getStandardError()).isCloseTo(expected.standardError(), within(1e-15));
    }

    /** The only dead letters are the watermark sentinels: no report was rejected or late. */
    private static void checkDeadLetters(String deadLetterTopic, String reportsTopic) {
        RecordCodec<DeadLetter> codec = RecordCodec.of(DeadLetter.class);
        List<DeadLetter> letters = new ArrayList<>();
        for (byte[] bytes : RUNTIME.drain(deadLetterTopic, new ByteArrayDeserializer())) {
            letters.add(codec.decode(bytes));
        }
        assertThat(letters)
                .extracting(
                        DeadLetter::getReasonCode,
                        DeadLetter::getSourceTopic,
                        letter -> new String(letter.getValue().array(), StandardCharsets.UTF_8))
                .containsExactlyInAnyOrder(
                        tuple(DeadLetterReason.UNDECODABLE, reportsTopic, "watermark-sentinel-0"),
                        tuple(DeadLetterReason.UNDECODABLE, reportsTopic, "watermark-sentinel-1"));
    }

    private JobClient start(FrequencyJobOptions options, Configuration configuration)
            throws Exception {
        StreamExecutionEnvironment env = RUNTIME.environment();
        env.configure(configuration);
        FrequencyEstimationJob.onKafka(options).buildInto(env);
        JobClient job = env.executeAsync(FrequencyEstimationJob.NAME);
        jobs.add(job);
        return job;
    }

    /** Ends the first run as {@code stop} says; returns the path the second run restores from. */
    private String stop(JobClient job, Stop stop) throws Exception {
        JobID id = job.getJobID();
        if (stop == Stop.STOP_WITH_SAVEPOINT) {
            return job.stopWithSavepoint(
                            false,
                            work.resolve("savepoints").toUri().toString(),
                            SavepointFormatType.CANONICAL)
                    .get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        }
        // The estimates seen so far were committed by a completed checkpoint; cancel and take
        // the latest completed one, which RETAIN_ON_CANCELLATION keeps on disk.
        job.cancel().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        awaitStatus(id, JobStatus.CANCELED);
        CompletedCheckpointStats latest =
                miniCluster()
                        .getArchivedExecutionGraph(id)
                        .get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                        .getCheckpointStatsSnapshot()
                        .getHistory()
                        .getLatestCompletedCheckpoint();
        assertThat(latest).as("a completed checkpoint before the cancel").isNotNull();
        String path = latest.getExternalPath();
        assertThat(Files.isRegularFile(Path.of(URI.create(path)).resolve("_metadata")))
                .as("retained checkpoint %s of the cancelled run", path)
                .isTrue();
        return path;
    }

    private static MiniCluster miniCluster() {
        return RUNTIME.flink().miniCluster();
    }

    private static CheckpointStatsSnapshot checkpointStats(JobID id) throws Exception {
        return miniCluster()
                .getExecutionGraph(id)
                .get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                .getCheckpointStatsSnapshot();
    }

    private static long completedCheckpoints(JobID id) throws Exception {
        return checkpointStats(id).getCounts().getNumberOfCompletedCheckpoints();
    }

    private static void awaitCompletedCheckpoints(JobID id, long count) throws Exception {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (completedCheckpoints(id) < count) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(
                        "fewer than " + count + " completed checkpoints within " + TIMEOUT);
            }
            Thread.sleep(50); // polling interval of a real condition
        }
    }

    private static void awaitStatus(JobID id, JobStatus status) throws Exception {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        JobStatus current;
        while ((current = miniCluster().getJobStatus(id).get()) != status) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("job " + id + " is " + current + ", not " + status);
            }
            Thread.sleep(50); // polling interval of a real condition
        }
    }

    /**
     * Writes reports keyed by device id, round-robin over the partitions, then the sentinels, one
     * per partition; returns the reports with the append times the broker gave them.
     */
    private static List<Report> produce(
            String topic, List<Report> reports, List<byte[]> sentinels) {
        List<ProducerRecord<String, byte[]>> extra = new ArrayList<>();
        for (int p = 0; p < sentinels.size(); p++) {
            extra.add(new ProducerRecord<>(topic, p, null, sentinels.get(p)));
        }
        return KnownReports.produce(
                RUNTIME, topic, reports, r -> r.index() % PARTITIONS, r -> null, extra);
    }

    /** Waits (on the wall clock, which is event time here) until a window has just begun. */
    private static void awaitWindowStart() throws InterruptedException {
        long intoWindow = Math.floorMod(System.currentTimeMillis(), WINDOW);
        if (intoWindow > WINDOW / 4) {
            Thread.sleep(WINDOW - intoWindow + 100); // event time is the broker's clock
        }
    }

    private static List<EstimateWindow> decodeEstimates(List<byte[]> values) {
        RecordCodec<EstimateWindow> codec = RecordCodec.of(EstimateWindow.class);
        List<EstimateWindow> estimates = new ArrayList<>();
        for (byte[] bytes : values) {
            EstimateWindow estimate = codec.decode(bytes);
            assertThat(estimate.getAppVersion()).isEqualTo(APP);
            assertThat(estimate.getConfigId()).isEqualTo(CONFIG);
            estimates.add(estimate);
        }
        return estimates;
    }

    private static long countIn(List<Report> reports, long windowStart) {
        return reports.stream().filter(r -> windowStart(r.timestamp()) == windowStart).count();
    }

    private static long windowStart(long timestamp) {
        return KnownReports.windowStart(timestamp, WINDOW);
    }
}
