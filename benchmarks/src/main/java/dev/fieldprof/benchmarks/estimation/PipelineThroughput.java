package dev.fieldprof.benchmarks.estimation;

import dev.fieldprof.jobs.frequency.FrequencyEstimationJob;
import dev.fieldprof.jobs.frequency.FrequencyJobOptions;
import dev.fieldprof.ldp.SubsetSelection;
import dev.fieldprof.runtime.EmbeddedRuntime;
import dev.fieldprof.schemas.EstimateWindow;
import dev.fieldprof.schemas.FrequencyReport;
import dev.fieldprof.schemas.ProgramModel;
import dev.fieldprof.schemas.RecordCodec;
import dev.fieldprof.schemas.Topics;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.Future;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Sustained end-to-end throughput of the frequency estimation job through the embedded broker and
 * MiniCluster with exactly-once output, next to the raw Kafka produce and consume rates of the same
 * bytes, the ceiling any Kafka job on this machine has.
 *
 * <p>Method: a warm-up window of reports, then the measured window of {@code n} reports, then one
 * late report per partition that moves the watermark past it, all written before the job starts.
 * The job's rate is {@code n} over the time between the emissions of the two windows' estimates
 * (their {@code emittedAtMillis}): the first is emitted as the measured reports start to flow, the
 * second once they are all summed, so job start-up and checkpoint latency are not counted. The raw
 * produce rate is the median of three timed sends of the same records: one into the report topic
 * before the job starts, two into a topic of their own after it has stopped.
 *
 * <p>Reports are ε-t reports (k = 5·|V| counts each) or user-level ones (one ω-subset of method ids
 * each, ω set by |V| and ε). Besides the rates, a run reads the job's largest completed checkpoint
 * (its full state with the heap backend; what changed since the last one with RocksDB's incremental
 * checkpoints) and its longest end-to-end duration from Flink's REST API, and the measured window's
 * projection time from its estimate.
 *
 * <p>{@link #main}: {@code [--mode epsilon-t|user-level] [--methods N,N..] [--epsilon E,E..]
 * [--reports N] [--partitions N] [--state-backend hashmap|rocksdb] [--checkpoint-interval D]
 * [--cpu-only]}, one row per (|V|, ε) pair (the lists pair up; a single ε goes with every |V|); ε
 * is a number or {@code ln(X)}. In user-level mode a table of the per-report CPU time (decode,
 * validate, add; no Kafka or Flink) comes first, with the dense summation the job used before as
 * its baseline; {@code --cpu-only} prints only that table. {@code --checkpoint-interval} is the
 * job's (default {@code 1 s}; the production default is {@code 10 s}).
 */
public final class PipelineThroughput {
    private static final long WINDOW = 60_000;
    // Event time starts minutes ago, not years: the broker deletes records stamped older than its
    // retention (7 days) at its first retention check, 30 s after it starts, in mid-run.
    private static final long BASE = System.currentTimeMillis() / WINDOW * WINDOW - 20 * WINDOW;

    /** The figures of one run. */
    public record Figures(
            Mode mode,
            int methods,
            double epsilon,
            int subsetSize,
            double bytesPerReport,
            long checkpointBytes,
            long checkpointMillis,
            double solveMillis,
            long estimateBytes,
            int reports,
            int inputReports,
            double megabytes,
            double produceRate,
            double produceRateLowest,
            double produceRateHighest,
            double consumeRate,
            double jobRate,
            double secondsToFirstEstimate,
            double secondsToFinalEstimate,
            double secondsToFirstEmission,
            double secondsToFinalEmission) {}

    /** What the devices report. */
    public enum Mode {
        /** k = 5·|V| randomized counts per report. */
        EPSILON_T,
        /** The ω method ids of one event's subset-selection output per report. */
        USER_LEVEL
    }

    private PipelineThroughput() {}

    /** Runs the configurations of the arguments (see the class comment) and prints a table. */
    public static void main(String[] args) throws Exception {
        List<String> list = List.of(args);
        Mode mode =
                Mode.valueOf(
                        option(list, "--mode", "user-level")
                                .toUpperCase(java.util.Locale.ROOT)
                                .replace('-', '_'));
        String[] methods = option(list, "--methods", "10000,1000000").split(",");
        String[] epsilons = option(list, "--epsilon", "ln(9)").split(",");
        int reports = Integer.parseInt(option(list, "--reports", "2000"));
        int partitions = Integer.parseInt(option(list, "--partitions", "2"));
        String stateBackend = option(list, "--state-backend", "hashmap");
        String checkpointInterval = option(list, "--checkpoint-interval", "1 s");
        if (mode == Mode.USER_LEVEL) {
            printPerReportCpu(methods, epsilons);
        }
        if (list.contains("--cpu-only")) {
            return;
        }
        System.out.printf(
                java.util.Locale.ROOT,
                "== End to end, %s reports, %d per window, %d partitions, exactly-once,"
                        + " checkpoints every %s, %s state, %d cores, load average %.1f%n",
                mode.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-'),
                reports,
                partitions,
                checkpointInterval,
                stateBackend,
                Runtime.getRuntime().availableProcessors(),
                java.lang.management.ManagementFactory.getOperatingSystemMXBean()
                        .getSystemLoadAverage());
        System.out.printf(
                java.util.Locale.ROOT,
                "  %9s %6s %7s %10s | %22s %14s %14s %8s %10s | %13s %13s %12s %11s | %s%n",
                "|V|",
                "eps",
                "omega",
                "bytes/rep",
                "produce rep/s (range)",
                "consume rep/s",
                "job rep/s",
                "job/prod",
                "job us/rep",
                "checkpoint MB",
                "checkpoint ms",
                "solve ms/win",
                "estimate MB",
                "emitted s (warm-up, measured)");
        for (int i = 0; i < methods.length; i++) {
            String epsilon = epsilons[epsilons.length == 1 ? 0 : i];
            Figures f =
                    run(
                            mode,
                            Integer.parseInt(methods[i]),
                            epsilon(epsilon),
                            reports,
                            partitions,
                            stateBackend,
                            checkpointInterval);
            System.out.printf(
                    java.util.Locale.ROOT,
                    "  %9d %6.3f %7d %10.0f | %6.0f (%6.0f-%6.0f) %14.0f %14.0f %7.0f%% %10.1f |"
                            + " %13.1f %13d %12.0f %11.1f | %6.1f %6.1f%n",
                    f.methods(),
                    f.epsilon(),
                    f.subsetSize(),
                    f.bytesPerReport(),
                    f.produceRate(),
                    f.produceRateLowest(),
                    f.produceRateHighest(),
                    f.consumeRate(),
                    f.jobRate(),
                    100 * f.jobRate() / f.produceRate(),
                    1e6 / f.jobRate(),
                    f.checkpointBytes() / 1e6,
                    f.checkpointMillis(),
                    f.solveMillis(),
                    f.estimateBytes() / 1e6,
                    f.secondsToFirstEmission(),
                    f.secondsToFinalEmission());
            System.out.flush();
        }
        System.out.printf(
                java.util.Locale.ROOT,
                "  load average after: %.1f%n",
                java.lang.management.ManagementFactory.getOperatingSystemMXBean()
                        .getSystemLoadAverage());
    }

    /**
     * Decode + validate + add per user-level report on one core (thread CPU time, no Kafka or
     * Flink), summed from the subset's ids as the job does and, the baseline, as a dense 0/1 vector
     * of |V| ints as it did before.
     */
    private static void printPerReportCpu(String[] methods, String[] epsilons) {
        System.out.printf(
                java.util.Locale.ROOT,
                "== User-level reports: decode + validate + add, one core, thread CPU time%n"
                        + "  %9s %6s %7s %10s | %16s %16s%n",
                "|V|",
                "eps",
                "omega",
                "bytes/rep",
                "ids (reports/s)",
                "dense (before)");
        for (int i = 0; i < methods.length; i++) {
            int v = Integer.parseInt(methods[i]);
            double epsilon = epsilon(epsilons[epsilons.length == 1 ? 0 : i]);
            ReportFixture fixture = ReportFixture.userLevel(v, epsilon, 64, 5);
            double bytes = 0;
            for (byte[] report : fixture.reports) {
                bytes += report.length;
            }
            // Each path gets calls enough for the JIT: the dense one's cost grows with |V|, the
            // ids' only with the report (at a million methods the dense count left the ids'
            // path a few hundred calls, and its figure moved 3x between JVMs).
            int sparseCalls = (int) Math.max(50, Math.min(20_000, 2e9 / (100 * bytes)));
            int denseCalls = (int) Math.max(50, Math.min(20_000, 2e9 / (8.0 * v + 100 * bytes)));
            double sparse =
                    IngestCpuTime.reportsPerCpuSecond(
                            new ReportIngest(fixture, v, false), sparseCalls, 5);
            double dense =
                    IngestCpuTime.reportsPerCpuSecond(
                            new ReportIngest(fixture, v, true), denseCalls, 5);
            System.out.printf(
                    java.util.Locale.ROOT,
                    "  %9d %6.3f %7d %10.0f | %16.0f %16.0f%n",
                    v,
                    epsilon,
                    new SubsetSelection(v, epsilon).subsetSize(),
                    bytes / fixture.reports.length,
                    sparse,
                    dense);
            System.out.flush();
        }
    }

    private static double epsilon(String text) {
        return text.startsWith("ln(")
                ? Math.log(Double.parseDouble(text.substring(3, text.length() - 1)))
                : Double.parseDouble(text);
    }

    private static String option(List<String> args, String name, String fallback) {
        int at = args.indexOf(name);
        return at >= 0 && at + 1 < args.size() ? args.get(at + 1) : fallback;
    }

    /** ε-t reports at ε = ln 9, t = 10, k = 5·|V|. */
    public static Figures run(int methods, int reports, int partitions) throws Exception {
        return run(Mode.EPSILON_T, methods, Math.log(9), reports, partitions, "hashmap", "1 s");
    }

    /**
     * @param stateBackend the job's {@code --state-backend}: hashmap (the MiniCluster's default) or
     *     rocksdb
     * @param checkpointInterval the job's {@code --checkpoint-interval}, e.g. {@code 1 s}
     */
    public static Figures run(
            Mode mode,
            int methods,
            double epsilon,
            int reports,
            int partitions,
            String stateBackend,
            String checkpointInterval)
            throws Exception {
        int warmUp = Math.max(100, reports / 20);
        ReportFixture fixture =
                mode == Mode.USER_LEVEL
                        ? ReportFixture.userLevel(methods, epsilon, 64, 3)
                        : new ReportFixture(methods, 64, 3);
        int subsetSize =
                mode == Mode.USER_LEVEL ? new SubsetSelection(methods, epsilon).subsetSize() : 0;
        RecordCodec<FrequencyReport> codec = RecordCodec.of(FrequencyReport.class);
        List<FrequencyReport> bodies = new ArrayList<>();
        for (byte[] bytes : fixture.reports) {
            bodies.add(codec.decode(bytes));
        }
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        String reportsTopic = "bench.reports." + suffix;
        String programsTopic = "bench.programs." + suffix;
        String estimatesTopic = "bench.estimates." + suffix;
        String deadTopic = "bench.dead." + suffix;
        try (EmbeddedRuntime runtime =
                EmbeddedRuntime.builder()
                        .partitions(partitions)
                        .createTopics(false)
                        .build()
                        .start()) {
            // The producer's time, unlike fieldprof's report topics: the benchmark stamps the
            // warm-up and the measured reports into windows of their own.
            runtime.kafka().createTopic(reportsTopic, partitions, Topics.resultSettings());
            runtime.kafka().createTopic(programsTopic, 1, Topics.compactedSettings());
            runtime.kafka().createTopic(estimatesTopic, 1, Topics.estimateSettings());
            runtime.kafka().createTopic(deadTopic, 1, Topics.resultSettings());
            String bootstrap = runtime.bootstrapServers();

            // Encode everything first: the produce rate is Kafka's, not Avro's.
            List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
            long bytes = 0;
            int total = warmUp + reports;
            for (int i = 0; i < total; i++) {
                FrequencyReport body =
                        FrequencyReport.newBuilder(bodies.get(i % bodies.size()))
                                .setReportId("r-" + suffix + "-" + i)
                                .build();
                byte[] value = codec.encode(body);
                bytes += value.length;
                long timestamp =
                        // Spread over each window (at more reports than milliseconds per
                        // window as well): the first measured reports close the warm-up window.
                        i < warmUp
                                ? BASE + (long) i * WINDOW / warmUp
                                : BASE + WINDOW + (long) (i - warmUp) * WINDOW / reports;
                records.add(
                        new ProducerRecord<>(
                                reportsTopic,
                                null,
                                timestamp,
                                body.getDeviceId().getBytes(StandardCharsets.UTF_8),
                                value));
            }
            for (int p = 0; p < partitions; p++) {
                records.add(
                        new ProducerRecord<>(
                                reportsTopic,
                                p,
                                BASE + 10 * WINDOW,
                                null,
                                codec.encode(
                                        FrequencyReport.newBuilder(bodies.get(0))
                                                .setReportId("late-" + suffix + "-" + p)
                                                .build())));
            }
            double[] produceSeconds = new double[3];
            try (KafkaProducer<byte[], byte[]> producer = producer(bootstrap)) {
                producer.send(
                                new ProducerRecord<>(
                                        programsTopic,
                                        null,
                                        BASE,
                                        ReportFixture.APP.getBytes(StandardCharsets.UTF_8),
                                        RecordCodec.of(ProgramModel.class).encode(fixture.model)))
                        .get();
                produceSeconds[0] = timedSend(producer, records, reportsTopic);
            }
            double consumeSeconds = drain(bootstrap, reportsTopic, partitions);

            Map<String, String> settings = new HashMap<>();
            settings.put(FrequencyJobOptions.BOOTSTRAP.key(), bootstrap);
            settings.put(FrequencyJobOptions.REPORTS_TOPIC.key(), reportsTopic);
            settings.put(FrequencyJobOptions.PROGRAMS_TOPIC.key(), programsTopic);
            settings.put(FrequencyJobOptions.ESTIMATES_TOPIC.key(), estimatesTopic);
            settings.put(FrequencyJobOptions.DEAD_LETTER_TOPIC.key(), deadTopic);
            settings.put(FrequencyJobOptions.CHECKPOINT_INTERVAL.key(), checkpointInterval);
            settings.put(FrequencyJobOptions.STATE_BACKEND.key(), stateBackend);
            // A model of a million methods (tens of MB) takes longer to read and decode than the
            // default hold: the reports that wait for it must not see their window close first.
            settings.put(FrequencyJobOptions.HOLD_LIMIT.key(), "10 min");
            settings.put(FrequencyJobOptions.MODEL_WAIT.key(), "10 min");
            settings.put(FrequencyJobOptions.SHARDS.key(), Integer.toString(partitions));
            settings.put(FrequencyJobOptions.OUT_OF_ORDERNESS.key(), "1 s");
            // The reports are read as a backlog and their sentinels close the windows; with a long
            // idleness (how often end offsets are observed) the wall clock plays no part.
            settings.put(FrequencyJobOptions.IDLENESS.key(), "60 s");
            settings.put(FrequencyJobOptions.GROUP_ID.key(), "bench-" + suffix);
            settings.put(FrequencyJobOptions.STARTING_OFFSETS.key(), "earliest");
            settings.put(FrequencyJobOptions.TRANSACTIONAL_ID_PREFIX.key(), "bench-" + suffix);
            FrequencyJobOptions options = FrequencyJobOptions.fromMap(settings);
            StreamExecutionEnvironment env = runtime.environment();
            // One source subtask per partition, so that every source subtask holds one.
            env.setParallelism(partitions);
            FrequencyEstimationJob.onKafka(options).buildInto(env);
            long submitted = System.nanoTime();
            long submittedMillis = System.currentTimeMillis();
            JobClient job = env.executeAsync(FrequencyEstimationJob.NAME);
            Map<Long, long[]> estimates =
                    awaitEstimates(bootstrap, estimatesTopic, warmUp, reports);
            long[] checkpoints =
                    largestCheckpoint(runtime.flink().restAddress(), job.getJobID().toString());
            job.cancel().get();
            // The raw produce rate twice more, now that the job is done, into a topic of its own:
            // the load of the machine moves within a run, and one burst of under a second alone
            // made the job's share swing by tens of percent.
            String rawTopic = "bench.raw-produce." + suffix;
            runtime.kafka().createTopic(rawTopic, partitions, Topics.resultSettings());
            try (KafkaProducer<byte[], byte[]> producer = producer(bootstrap)) {
                produceSeconds[1] = timedSend(producer, records, rawTopic);
                produceSeconds[2] = timedSend(producer, records, rawTopic);
            }
            Arrays.sort(produceSeconds);
            long[] first = estimates.get(BASE + WINDOW);
            long[] second = estimates.get(BASE + 2 * WINDOW);
            return new Figures(
                    mode,
                    methods,
                    epsilon,
                    subsetSize,
                    bytes / (double) total,
                    checkpoints[0],
                    checkpoints[1],
                    second[2] / 1e3,
                    second[3],
                    reports,
                    total,
                    bytes / 1e6,
                    // The median of the three sends; the other two beside it.
                    total / produceSeconds[1],
                    total / produceSeconds[2],
                    total / produceSeconds[0],
                    total / consumeSeconds,
                    // Emission times: the first window closes when the measured reports start
                    // flowing, the second when they are all summed (the late reports follow them).
                    reports / ((second[1] - first[1]) / 1e3),
                    (first[0] - submitted) / 1e9,
                    (second[0] - submitted) / 1e9,
                    (first[1] - submittedMillis) / 1e3,
                    (second[1] - submittedMillis) / 1e3);
        }
    }

    /**
     * Sends {@code records} to {@code topic} (their partitions, keys, timestamps and values kept)
     * and returns the seconds until the last was acknowledged by every replica.
     */
    private static double timedSend(
            KafkaProducer<byte[], byte[]> producer,
            List<ProducerRecord<byte[], byte[]>> records,
            String topic)
            throws Exception {
        long started = System.nanoTime();
        List<Future<RecordMetadata>> sent = new ArrayList<>(records.size());
        for (ProducerRecord<byte[], byte[]> record : records) {
            sent.add(
                    producer.send(
                            topic.equals(record.topic())
                                    ? record
                                    : new ProducerRecord<>(
                                            topic,
                                            record.partition(),
                                            record.timestamp(),
                                            record.key(),
                                            record.value())));
        }
        producer.flush();
        double seconds = (System.nanoTime() - started) / 1e9;
        for (Future<RecordMetadata> future : sent) {
            future.get(); // a lost record would make every figure below wrong
        }
        return seconds;
    }

    private static KafkaProducer<byte[], byte[]> producer(String bootstrap) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        p.put(ProducerConfig.BATCH_SIZE_CONFIG, Integer.toString(512 * 1024));
        p.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, Integer.toString(Topics.MAX_MODEL_BYTES));
        return new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
    }

    private static KafkaConsumer<byte[], byte[]> consumer(String bootstrap) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, Integer.toString(8 * 1024 * 1024));
        return new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    /** Reads a topic from the start to its end offsets; returns the seconds it took. */
    private static double drain(String bootstrap, String topic, int partitions) {
        try (KafkaConsumer<byte[], byte[]> consumer = consumer(bootstrap)) {
            List<TopicPartition> all = new ArrayList<>();
            for (int p = 0; p < partitions; p++) {
                all.add(new TopicPartition(topic, p));
            }
            consumer.assign(all);
            consumer.seekToBeginning(all);
            Map<TopicPartition, Long> end = consumer.endOffsets(all);
            long started = System.nanoTime();
            long sink = 0;
            while (all.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))) {
                for (ConsumerRecord<byte[], byte[]> record :
                        consumer.poll(Duration.ofMillis(200))) {
                    sink += record.value().length;
                }
            }
            if (sink == 0) {
                throw new IllegalStateException("read nothing from " + topic);
            }
            return (System.nanoTime() - started) / 1e9;
        }
    }

    private static final java.util.regex.Pattern SUMMARY_MAX =
            java.util.regex.Pattern.compile(
                    "\"(state_size|end_to_end_duration)\":\\{[^}]*\"max\":(\\d+)");

    /**
     * The largest full state size (bytes) and longest end-to-end duration (ms) of the job's
     * completed checkpoints, from the summary of {@code GET /jobs/ID/checkpoints}, once one has
     * completed after the measured window was summed.
     */
    private static long[] largestCheckpoint(java.net.URI rest, String jobId) throws Exception {
        java.net.http.HttpClient client = java.net.http.HttpClient.newHttpClient();
        java.net.http.HttpRequest request =
                java.net.http.HttpRequest.newBuilder(
                                rest.resolve("/jobs/" + jobId + "/checkpoints"))
                        .build();
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        long completedBefore = -1;
        while (true) {
            String body =
                    client.send(request, java.net.http.HttpResponse.BodyHandlers.ofString()).body();
            java.util.regex.Matcher completed =
                    java.util.regex.Pattern.compile("\"completed\":(\\d+)").matcher(body);
            long count = completed.find() ? Long.parseLong(completed.group(1)) : 0;
            if (completedBefore < 0) {
                completedBefore = count;
            } else if (count > completedBefore) {
                long[] figures = new long[2];
                java.util.regex.Matcher max = SUMMARY_MAX.matcher(body);
                while (max.find()) {
                    int at = max.group(1).equals("state_size") ? 0 : 1;
                    figures[at] = Math.max(figures[at], Long.parseLong(max.group(2)));
                }
                return figures;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("no checkpoint completed in 2 minutes: " + body);
            }
            Thread.sleep(200); // polling Flink's REST API for a completed checkpoint
        }
    }

    /**
     * Polls the estimates until both window estimates (not the cumulative ones) are committed;
     * returns per window end the nanoTime it was first seen and the job's emission wall clock.
     */
    private static Map<Long, long[]> awaitEstimates(
            String bootstrap, String topic, int warmUp, int reports) {
        RecordCodec<EstimateWindow> codec = RecordCodec.of(EstimateWindow.class);
        Map<Long, byte[]> arrived = new HashMap<>();
        Map<Long, Long> arrivedAt = new HashMap<>();
        long deadline = System.nanoTime() + Duration.ofMinutes(10).toNanos();
        try (KafkaConsumer<byte[], byte[]> consumer = consumer(bootstrap)) {
            TopicPartition partition = new TopicPartition(topic, 0);
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            while (arrived.size() < 2) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("no estimates after 10 minutes: " + arrived);
                }
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(50))) {
                    // Only the fields ahead of the arrays while the job runs: decoding a whole
                    // estimate (24 MB at a million methods, the window and the cumulative one)
                    // here would take the job's CPU in the middle of the measured window.
                    EstimatePrefix prefix = EstimatePrefix.of(record.value());
                    if (prefix.cumulative()) {
                        continue;
                    }
                    long end = prefix.windowEndMillis();
                    if (end != BASE + WINDOW && end != BASE + 2 * WINDOW) {
                        continue; // the sentinels' window, closed by the wall clock later on
                    }
                    long expected = end == BASE + WINDOW ? warmUp : reports;
                    if (prefix.reports() != expected) {
                        throw new IllegalStateException(
                                "window ending "
                                        + end
                                        + " counted "
                                        + prefix.reports()
                                        + " reports, expected "
                                        + expected);
                    }
                    if (arrived.putIfAbsent(end, record.value()) == null) {
                        arrivedAt.put(end, System.nanoTime());
                    }
                }
            }
        }
        Map<Long, long[]> seen = new HashMap<>();
        for (Map.Entry<Long, byte[]> entry : arrived.entrySet()) {
            EstimateWindow estimate = codec.decode(entry.getValue());
            seen.put(
                    entry.getKey(),
                    new long[] {
                        arrivedAt.get(entry.getKey()),
                        estimate.getEmittedAtMillis().toEpochMilli(),
                        Math.round(estimate.getSolve().getMillis() * 1e3),
                        entry.getValue().length
                    });
        }
        return seen;
    }
}
