package dev.fieldprof.benchmarks.estimation;

import dev.fieldprof.jobs.frequency.FrequencyEstimationJob;
import dev.fieldprof.jobs.frequency.FrequencyJobOptions;
import dev.fieldprof.runtime.EmbeddedRuntime;
import dev.fieldprof.schemas.EstimateWindow;
import dev.fieldprof.schemas.FrequencyReport;
import dev.fieldprof.schemas.ProgramModel;
import dev.fieldprof.schemas.RecordCodec;
import dev.fieldprof.schemas.Topics;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
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
 * second once they are all summed, so job start-up and checkpoint latency are not counted.
 */
public final class PipelineThroughput {
    private static final long WINDOW = 60_000;
    // Event time starts minutes ago, not years: the broker deletes records stamped older than its
    // retention (7 days) at its first retention check, 30 s after it starts, in mid-run.
    private static final long BASE = System.currentTimeMillis() / WINDOW * WINDOW - 20 * WINDOW;

    /** The figures of one run. */
    public record Figures(
            int methods,
            int reports,
            int inputReports,
            double megabytes,
            double produceRate,
            double consumeRate,
            double jobRate,
            double secondsToFirstEstimate,
            double secondsToFinalEstimate) {}

    private PipelineThroughput() {}

    public static Figures run(int methods, int reports, int partitions) throws Exception {
        int warmUp = Math.max(100, reports / 20);
        ReportFixture fixture = new ReportFixture(methods, 64, 3);
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
            runtime.kafka().createTopic(estimatesTopic, 1, Topics.resultSettings());
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
                        i < warmUp
                                ? BASE + i * (WINDOW / warmUp)
                                : BASE + WINDOW + (i - warmUp) * (WINDOW / reports);
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
            double produceSeconds;
            try (KafkaProducer<byte[], byte[]> producer = producer(bootstrap)) {
                producer.send(
                                new ProducerRecord<>(
                                        programsTopic,
                                        null,
                                        BASE,
                                        ReportFixture.APP.getBytes(StandardCharsets.UTF_8),
                                        RecordCodec.of(ProgramModel.class).encode(fixture.model)))
                        .get();
                long started = System.nanoTime();
                List<Future<RecordMetadata>> sent = new ArrayList<>(records.size());
                for (ProducerRecord<byte[], byte[]> record : records) {
                    sent.add(producer.send(record));
                }
                producer.flush();
                produceSeconds = (System.nanoTime() - started) / 1e9;
                for (Future<RecordMetadata> future : sent) {
                    future.get(); // a lost record would make every figure below wrong
                }
            }
            double consumeSeconds = drain(bootstrap, reportsTopic, partitions);

            Map<String, String> settings = new HashMap<>();
            settings.put(FrequencyJobOptions.BOOTSTRAP.key(), bootstrap);
            settings.put(FrequencyJobOptions.REPORTS_TOPIC.key(), reportsTopic);
            settings.put(FrequencyJobOptions.PROGRAMS_TOPIC.key(), programsTopic);
            settings.put(FrequencyJobOptions.ESTIMATES_TOPIC.key(), estimatesTopic);
            settings.put(FrequencyJobOptions.DEAD_LETTER_TOPIC.key(), deadTopic);
            settings.put(FrequencyJobOptions.CHECKPOINT_INTERVAL.key(), "1 s");
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
            JobClient job = env.executeAsync(FrequencyEstimationJob.NAME);
            Map<Long, long[]> estimates =
                    awaitEstimates(bootstrap, estimatesTopic, warmUp, reports);
            job.cancel().get();
            long[] first = estimates.get(BASE + WINDOW);
            long[] second = estimates.get(BASE + 2 * WINDOW);
            return new Figures(
                    methods,
                    reports,
                    total,
                    bytes / 1e6,
                    total / produceSeconds,
                    total / consumeSeconds,
                    // Emission times: the first window closes when the measured reports start
                    // flowing, the second when they are all summed (the late reports follow them).
                    reports / ((second[1] - first[1]) / 1e3),
                    (first[0] - submitted) / 1e9,
                    (second[0] - submitted) / 1e9);
        }
    }

    private static KafkaProducer<byte[], byte[]> producer(String bootstrap) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        p.put(ProducerConfig.BATCH_SIZE_CONFIG, Integer.toString(512 * 1024));
        p.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, Integer.toString(8 * 1024 * 1024));
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

    /**
     * Polls the estimates until both window estimates (not the cumulative ones) are committed;
     * returns per window end the nanoTime it was first seen and the job's emission wall clock.
     */
    private static Map<Long, long[]> awaitEstimates(
            String bootstrap, String topic, int warmUp, int reports) {
        RecordCodec<EstimateWindow> codec = RecordCodec.of(EstimateWindow.class);
        Map<Long, long[]> seen = new HashMap<>();
        long deadline = System.nanoTime() + Duration.ofMinutes(10).toNanos();
        try (KafkaConsumer<byte[], byte[]> consumer = consumer(bootstrap)) {
            TopicPartition partition = new TopicPartition(topic, 0);
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            while (seen.size() < 2) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("no estimates after 10 minutes: " + seen);
                }
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(50))) {
                    EstimateWindow estimate = codec.decode(record.value());
                    if (estimate.getCumulative()) {
                        continue;
                    }
                    long end = estimate.getWindowEndMillis().toEpochMilli();
                    if (end != BASE + WINDOW && end != BASE + 2 * WINDOW) {
                        continue; // the sentinels' window, closed by the wall clock later on
                    }
                    long expected = end == BASE + WINDOW ? warmUp : reports;
                    if (estimate.getReports() != expected) {
                        throw new IllegalStateException(
                                "window ending "
                                        + end
                                        + " counted "
                                        + estimate.getReports()
                                        + " reports, expected "
                                        + expected);
                    }
                    seen.putIfAbsent(
                            end,
                            new long[] {
                                System.nanoTime(), estimate.getEmittedAtMillis().toEpochMilli()
                            });
                }
            }
        }
        return seen;
    }
}
