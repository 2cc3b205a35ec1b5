package dev.fieldprof.jobs.io;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.runtime.EmbeddedKafka;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import org.apache.flink.connector.kafka.source.split.KafkaPartitionSplit;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * On a real broker, a topic written in transactions (as the shuffler writes its batches): commit
 * markers hold the last offsets of a partition, so a reader that has read every record never
 * reaches the end offset; the observer establishes that only markers are left, and the reader then
 * counts as read to its end. Aborted records count as markers; an open transaction does not.
 */
class TransactionalTopicReadProgressITCase {
    private static final Duration DEADLINE = Duration.ofMinutes(2);

    private static EmbeddedKafka kafka;

    @BeforeAll
    static void startKafka() {
        kafka = EmbeddedKafka.builder().start();
    }

    @AfterAll
    static void stopKafka() {
        if (kafka != null) {
            kafka.close();
        }
    }

    @Test
    void aReaderOfEveryCommittedRecordIsReadToTheEndDespiteTheCommitMarker() throws Exception {
        String topic = topic();
        try (KafkaProducer<byte[], byte[]> producer = transactional()) {
            producer.initTransactions();
            producer.beginTransaction();
            for (int i = 0; i < 3; i++) {
                producer.send(new ProducerRecord<>(topic, 0, null, new byte[] {(byte) i}));
            }
            producer.commitTransaction(); // records at 0, 1, 2; the marker at 3
        }
        long committedAt = System.currentTimeMillis();
        ReadProgress progress =
                ReadProgress.against(
                        KafkaEndOffsets.of(kafka.clientProperties(), topic, Duration.ZERO));
        progress.readerOpened(1);
        try {
            progress.splitsAdded(List.of(new KafkaPartitionSplit(new TopicPartition(topic, 0), 0)));
            for (long offset = 0; offset < 3; offset++) {
                progress.consumed(0, offset);
            }

            long readToEnd = awaitReadToEnd(progress);

            assertThat(readToEnd)
                    .as("read to the end as of an observation made after the commit")
                    .isGreaterThanOrEqualTo(committedAt);
        } finally {
            progress.readerClosed();
        }
    }

    @Test
    void aReaderWithACommittedRecordLeftIsNotReadToTheEnd() throws Exception {
        String topic = topic();
        try (KafkaProducer<byte[], byte[]> producer = transactional()) {
            producer.initTransactions();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>(topic, 0, null, new byte[] {1}));
            producer.send(new ProducerRecord<>(topic, 0, null, new byte[] {2}));
            producer.commitTransaction();
        }
        TopicPartition partition = new TopicPartition(topic, 0);
        awaitEndOffset(partition, 3); // the coordinator writes the marker after the commit returns
        try (ReadableRecordsCheck check = new ReadableRecordsCheck(kafka.clientProperties())) {
            Duration timeout = Duration.ofSeconds(30);

            assertThat(check.check(partition, 1, 3, timeout))
                    .isEqualTo(ReadableRecordsCheck.Finding.READABLE);
            assertThat(check.check(partition, 2, 3, timeout))
                    .isEqualTo(ReadableRecordsCheck.Finding.NOTHING_READABLE);
        }
    }

    @Test
    void anOpenTransactionIsUndecidedAndOnceAbortedNothingInItIsReadable() throws Exception {
        String topic = topic();
        TopicPartition partition = new TopicPartition(topic, 0);
        try (KafkaProducer<byte[], byte[]> producer = transactional();
                ReadableRecordsCheck check = new ReadableRecordsCheck(kafka.clientProperties())) {
            producer.initTransactions();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>(topic, 0, null, new byte[] {1}));
            producer.commitTransaction(); // record 0, marker 1
            awaitEndOffset(partition, 2);
            producer.beginTransaction();
            producer.send(new ProducerRecord<>(topic, 0, null, new byte[] {2}));
            producer.send(new ProducerRecord<>(topic, 0, null, new byte[] {3}));
            producer.flush(); // records 2 and 3 appended, not committed

            assertThat(endOffset(partition)).isEqualTo(4);
            assertThat(check.check(partition, 1, 4, Duration.ofSeconds(1)))
                    .isEqualTo(ReadableRecordsCheck.Finding.UNDECIDED);

            producer.abortTransaction(); // the abort marker at 4
            awaitEndOffset(partition, 5);
            assertThat(check.check(partition, 1, 5, Duration.ofSeconds(30)))
                    .isEqualTo(ReadableRecordsCheck.Finding.NOTHING_READABLE);
        }
    }

    private static long awaitReadToEnd(ReadProgress progress) throws InterruptedException {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        long readToEnd = progress.readToEndAt();
        while (readToEnd == ReadProgress.UNKNOWN && System.nanoTime() < deadline) {
            Thread.sleep(50); // the observer's next round; the deadline only bounds a failure
            readToEnd = progress.readToEndAt();
        }
        return readToEnd;
    }

    /** Waits until the partition's end offset is {@code expected}: the markers are written. */
    private static void awaitEndOffset(TopicPartition partition, long expected) throws Exception {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        long end = endOffset(partition);
        while (end < expected && System.nanoTime() < deadline) {
            Thread.sleep(20); // asking the broker again; the deadline only bounds a failure
            end = endOffset(partition);
        }
        assertThat(end).as("end offset of %s", partition).isEqualTo(expected);
    }

    private static long endOffset(TopicPartition partition) throws Exception {
        return kafka.admin()
                .listOffsets(Map.of(partition, OffsetSpec.latest()))
                .partitionResult(partition)
                .get()
                .offset();
    }

    private static String topic() {
        String topic = "it.transactional." + UUID.randomUUID().toString().substring(0, 8);
        kafka.createTopic(topic, 1, Map.of());
        return topic;
    }

    private static KafkaProducer<byte[], byte[]> transactional() {
        Properties properties = kafka.clientProperties();
        properties.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "it-" + UUID.randomUUID());
        return new KafkaProducer<>(
                properties, new ByteArraySerializer(), new ByteArraySerializer());
    }
}
