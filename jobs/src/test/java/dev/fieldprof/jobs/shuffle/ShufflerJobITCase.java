package dev.fieldprof.jobs.shuffle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.jobs.io.KafkaRecords;
import dev.fieldprof.jobs.io.RawRecord;
import dev.fieldprof.jobs.testing.JobsRuntimeExtension;
import dev.fieldprof.schemas.DeadLetter;
import dev.fieldprof.schemas.DeadLetterReason;
import dev.fieldprof.schemas.RecordCodec;
import dev.fieldprof.schemas.SealedReport;
import dev.fieldprof.schemas.ShuffledBatch;
import dev.fieldprof.schemas.Topics;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The shuffler on a real broker, read as the analyst reads it ({@code read_committed}): sealed
 * reports of several devices and two groups, a re-sent report and a poison record go in; every
 * distinct report comes out in exactly one released batch of at least the minimum, split into parts
 * that fit the 1 MiB topic, or in a dead letter with its reason, and no output byte holds a device
 * id.
 */
class ShufflerJobITCase {
    @RegisterExtension
    static final JobsRuntimeExtension RUNTIME = JobsRuntimeExtension.builder().taskSlots(2).build();

    private static final Duration TIMEOUT = Duration.ofSeconds(120);
    private static final RecordCodec<SealedReport> SEALED = RecordCodec.of(SealedReport.class);
    private static final RecordCodec<ShuffledBatch> BATCHES = RecordCodec.of(ShuffledBatch.class);
    private static final RecordCodec<DeadLetter> LETTERS = RecordCodec.of(DeadLetter.class);
    private static final int MIN = 4;
    private static final int MAX = 6;
    private static final String CONFIG = "shuffled";

    /** The topics of one test: input (two partitions), shuffled, dead letters. */
    private record TestTopics(String input, String shuffled, String deadLetters) {
        static TestTopics create() {
            return new TestTopics(
                    RUNTIME.createTopic("input", 2, Topics.reportSettings()),
                    RUNTIME.createTopic("shuffled", 1, Topics.resultSettings()),
                    RUNTIME.createTopic("dead-letters", 1, Topics.resultSettings()));
        }
    }

    /**
     * Ten devices of app it:1 (every other one with a payload of 400,000 bytes: the five large ones
     * fall into two batches, one of which holds three or more, more than one part of 1 MiB takes)
     * and four of it:2, one report re-sent, one record that is no SealedReport. With a minimum of 4
     * and a maximum of 6, it:1 comes out as batches of 4 to 6 reports covering its ten exactly once
     * (6 + 4, 5 + 5 or 4 + 6, as the looks fall), it:2 as one batch of four; the poison record is
     * one UNDECODABLE dead letter; the re-send is nowhere.
     */
    @Test
    void releasesEveryReportInExactlyOneBatchWithoutItsDevice() throws Exception {
        TestTopics topics = TestTopics.create();
        Random random = new Random(20261128L);
        List<ProducerRecord<String, byte[]>> records = new ArrayList<>();
        Map<String, String> expectedGroupOf = new HashMap<>();
        for (int d = 0; d < 10; d++) {
            SealedReport report =
                    report("device-" + d, "it:1", 1, d % 2 == 0 ? 400_000 : 40, random);
            records.add(record(topics.input, report));
            expectedGroupOf.put(marker(report), "it:1");
        }
        for (int d = 10; d < 14; d++) {
            SealedReport report = report("device-" + d, "it:2", 1, 40, random);
            records.add(record(topics.input, report));
            expectedGroupOf.put(marker(report), "it:2");
        }
        records.add(records.get(3)); // a re-send of device-3's report
        byte[] poison = "no sealed report".getBytes(StandardCharsets.UTF_8);
        records.add(new ProducerRecord<>(topics.input, "device-x", poison));

        JobClient job = start(topics, Duration.ofMinutes(10));
        try {
            RUNTIME.produce(records);
            List<ShuffledBatch> parts =
                    awaitParts(topics.shuffled, ps -> markers(ps).size() >= expectedGroupOf.size());
            Map<String, List<ShuffledBatch>> byBatch = new TreeMap<>();
            for (ShuffledBatch part : parts) {
                byBatch.computeIfAbsent(part.getBatchId(), id -> new ArrayList<>()).add(part);
            }
            for (List<ShuffledBatch> batch : byBatch.values()) {
                ShuffledBatch first = batch.get(0);
                assertThat(batch)
                        .as("each part once, all of the batch's")
                        .extracting(ShuffledBatch::getPart)
                        .containsExactlyInAnyOrderElementsOf(
                                java.util.stream.IntStream.range(0, first.getParts())
                                        .boxed()
                                        .toList());
                assertThat(batch.stream().mapToInt(p -> p.getSealed().size()).sum())
                        .as("parts sum to the batch size")
                        .isEqualTo(first.getBatchSize());
                assertThat(first.getBatchSize()).isBetween(MIN, MAX);
                assertThat(batch).extracting(ShuffledBatch::getMinBatchSize).containsOnly(MIN);
                for (ShuffledBatch part : batch) {
                    assertThat(markers(List.of(part)))
                            .allSatisfy(
                                    m ->
                                            assertThat(expectedGroupOf.get(m))
                                                    .isEqualTo(part.getAppVersion()));
                }
            }
            List<String> released = markers(parts);
            assertThat(released)
                    .as("every distinct report exactly once")
                    .containsExactlyInAnyOrderElementsOf(expectedGroupOf.keySet());
            assertThat(parts.stream().filter(p -> p.getParts() > 1))
                    .as("a batch of it:1 with three or more large payloads needs parts")
                    .isNotEmpty();

            List<DeadLetter> letters = awaitDeadLetters(topics.deadLetters, 1);
            assertThat(letters).hasSize(1);
            assertThat(letters.get(0).getReasonCode()).isEqualTo(DeadLetterReason.UNDECODABLE);
            assertThat(SealedReports.bytes(letters.get(0).getValue())).isEqualTo(poison);

            for (byte[] bytes : allBytes(topics.shuffled)) {
                assertThat(new String(bytes, StandardCharsets.ISO_8859_1))
                        .as("no device id in any output byte")
                        .doesNotContain("device-");
            }
        } finally {
            job.cancel().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    /**
     * Three reports of a group whose minimum is 4 release nothing: after the maximum wait each is
     * one SHUFFLE_WAIT_EXPIRED dead letter holding its SealedReport exactly as sent.
     */
    @Test
    void deadLettersAGroupThatNeverReachesTheMinimum() throws Exception {
        TestTopics topics = TestTopics.create();
        Random random = new Random(7L);
        List<ProducerRecord<String, byte[]>> records = new ArrayList<>();
        List<byte[]> sent = new ArrayList<>();
        for (int d = 0; d < 3; d++) {
            ProducerRecord<String, byte[]> record =
                    record(topics.input, report("device-" + d, "it:3", 1, 40, random));
            records.add(record);
            sent.add(record.value());
        }
        JobClient job = start(topics, Duration.ofSeconds(2));
        try {
            RUNTIME.produce(records);
            List<DeadLetter> letters = awaitDeadLetters(topics.deadLetters, 3);
            assertThat(letters)
                    .extracting(DeadLetter::getReasonCode)
                    .containsOnly(DeadLetterReason.SHUFFLE_WAIT_EXPIRED);
            assertThat(letters.stream().map(l -> SealedReports.bytes(l.getValue())).toList())
                    .containsExactlyInAnyOrderElementsOf(sent);
            assertThat(allBytes(topics.shuffled)).as("nothing released").isEmpty();
        } finally {
            job.cancel().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    /**
     * The job fails once mid-stream (an exception in its source 3 s in, with checkpoints every 100
     * ms) and Flink restores it from its last checkpoint. A release whose checkpoint had not
     * completed is aborted with its transaction; the restored state releases those reports again,
     * in another batch. Read {@code read_committed}, 40 reports in batches of exactly 5 (minimum =
     * maximum) are 8 batches with each report exactly once: no batch is released twice and no
     * report is in two batches.
     */
    @Test
    void releasesNoBatchTwiceAcrossARestoreFromACheckpoint() throws Exception {
        TestTopics topics = TestTopics.create();
        Random random = new Random(11L);
        List<RawRecord> records = new ArrayList<>();
        List<String> expected = new ArrayList<>();
        for (int d = 0; d < 40; d++) {
            SealedReport report = report("device-" + d, "it:4", 1, 40, random);
            records.add(
                    new RawRecord(
                            topics.input,
                            0,
                            d,
                            1_000 + d,
                            report.getDeviceId().getBytes(StandardCharsets.UTF_8),
                            SEALED.encode(report)));
            expected.add(marker(report));
        }
        String id = UUID.randomUUID().toString();
        ShufflerJobOptions options =
                ShufflerJobOptions.fromMap(
                        Map.of(
                                ShufflerJobOptions.BOOTSTRAP.key(),
                                RUNTIME.bootstrapServers(),
                                ShufflerJobOptions.MIN_BATCH_SIZE.key(),
                                "5",
                                ShufflerJobOptions.MAX_BATCH_SIZE.key(),
                                "5",
                                ShufflerJobOptions.CHECKPOINT_INTERVAL.key(),
                                "100 ms",
                                ShufflerJobOptions.TRANSACTIONAL_ID_PREFIX.key(),
                                "shuffler-restore-" + id));
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        new ShufflerJob(
                        options,
                        FailingOnceSource.of(records, 30, id, 10),
                        KafkaRecords.sink(
                                options, topics.shuffled, "shuffled", Topics.MAX_REPORT_BYTES),
                        KafkaRecords.sink(
                                options,
                                topics.deadLetters,
                                "dead-letters",
                                Topics.MAX_RESULT_BYTES))
                .buildInto(env);
        env.execute("shuffler-restore-test");

        assertThat(FailingOnceSource.FAILED).containsKey(id);
        List<ShuffledBatch> parts =
                awaitParts(topics.shuffled, ps -> markers(ps).size() >= expected.size());
        assertThat(parts).hasSize(8);
        assertThat(parts).extracting(ShuffledBatch::getBatchSize).containsOnly(5);
        assertThat(parts.stream().map(ShuffledBatch::getBatchId).distinct()).hasSize(8);
        assertThat(markers(parts)).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(allBytes(topics.deadLetters)).isEmpty();
        // What the run went through (depends on when the failure fell between checkpoints).
        System.out.printf(
                "restore: first record generated %d time(s); %d payloads on the shuffled topic"
                        + " read_uncommitted against %d committed%n",
                FailingOnceSource.GENERATED.get(id).get(0),
                uncommittedPayloads(topics.shuffled),
                markers(parts).size());
    }

    /** How many payloads a read_uncommitted reader sees: aborted releases included. */
    private static int uncommittedPayloads(String topic) {
        int payloads = 0;
        for (ConsumerRecord<byte[], byte[]> record : RUNTIME.drainUncommitted(topic)) {
            payloads += BATCHES.decode(record.value()).getSealed().size();
        }
        return payloads;
    }

    private static JobClient start(TestTopics topics, Duration maxWait) throws Exception {
        Map<String, String> options = new HashMap<>();
        options.put(ShufflerJobOptions.BOOTSTRAP.key(), RUNTIME.bootstrapServers());
        options.put(ShufflerJobOptions.INPUT_TOPIC.key(), topics.input);
        options.put(ShufflerJobOptions.SHUFFLED_TOPIC.key(), topics.shuffled);
        options.put(ShufflerJobOptions.DEAD_LETTER_TOPIC.key(), topics.deadLetters);
        options.put(ShufflerJobOptions.GROUP_ID.key(), "shuffler-" + topics.input);
        options.put(ShufflerJobOptions.TRANSACTIONAL_ID_PREFIX.key(), "shuffler-" + topics.input);
        options.put(ShufflerJobOptions.MIN_BATCH_SIZE.key(), Integer.toString(MIN));
        options.put(ShufflerJobOptions.MAX_BATCH_SIZE.key(), Integer.toString(MAX));
        options.put(ShufflerJobOptions.RELEASE_INTERVAL.key(), "500 ms");
        options.put(ShufflerJobOptions.MAX_WAIT.key(), maxWait.toMillis() + " ms");
        options.put(ShufflerJobOptions.CHECKPOINT_INTERVAL.key(), "1 s");
        options.put(ShufflerJobOptions.STARTING_OFFSETS.key(), "earliest");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        ShufflerJob.onKafka(ShufflerJobOptions.fromMap(options)).buildInto(env);
        return env.executeAsync(ShufflerJob.NAME);
    }

    /**
     * A device's report: its payload starts with a marker naming it ({@code sealed(3#1)}, never the
     * device id itself) and is filled up to {@code bytes} with random bytes.
     */
    private static SealedReport report(
            String device, String app, long sequence, int bytes, Random random) {
        byte[] marker = SealedReports.payload(device, sequence);
        byte[] payload = new byte[Math.max(bytes, marker.length + 1)];
        random.nextBytes(payload);
        System.arraycopy(marker, 0, payload, 0, marker.length);
        payload[marker.length] = 0;
        return SealedReport.newBuilder()
                .setDeviceId(device)
                .setAppVersion(app)
                .setConfigId(CONFIG)
                .setSequence(sequence)
                .setSealed(ByteBuffer.wrap(payload))
                .build();
    }

    private static ProducerRecord<String, byte[]> record(String topic, SealedReport report) {
        return new ProducerRecord<>(topic, report.getDeviceId(), SEALED.encode(report));
    }

    private static String marker(SealedReport report) {
        return marker(report.getSealed());
    }

    /** The payload's marker: its bytes up to the first zero. */
    private static String marker(ByteBuffer payload) {
        byte[] bytes = SealedReports.bytes(payload);
        int end = 0;
        while (end < bytes.length && bytes[end] != 0) {
            end++;
        }
        return new String(bytes, 0, end, StandardCharsets.ISO_8859_1);
    }

    private static List<String> markers(List<ShuffledBatch> parts) {
        List<String> markers = new ArrayList<>();
        for (ShuffledBatch part : parts) {
            for (ByteBuffer payload : part.getSealed()) {
                markers.add(marker(payload));
            }
        }
        return markers;
    }

    /** The committed parts once {@code enough} holds of them, and whatever comes in 3 s more. */
    private static List<ShuffledBatch> awaitParts(
            String topic, Predicate<List<ShuffledBatch>> enough) {
        // A batch released twice would come after the first: read on for a while.
        return RUNTIME.await(topic, BATCHES::decode, enough, Duration.ofSeconds(3));
    }

    /** The committed dead letters once there are {@code count}, and whatever comes in 3 s more. */
    private static List<DeadLetter> awaitDeadLetters(String topic, int count) {
        return RUNTIME.await(
                topic, LETTERS::decode, letters -> letters.size() >= count, Duration.ofSeconds(3));
    }

    /** Every key and value byte array committed on {@code topic} so far. */
    private static List<byte[]> allBytes(String topic) {
        List<byte[]> bytes = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> record : RUNTIME.drain(topic)) {
            bytes.add(record.key());
            bytes.add(record.value());
        }
        return bytes;
    }
}
