package dev.fieldprof.jobs.io;

import java.time.Duration;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Tells whether a range of a partition holds a record that a {@code read_committed} reader can
 * read: what separates a reader that has read everything of a topic written in transactions (only
 * commit markers and aborted records left below the end offset) from one that is behind.
 *
 * <p>It reads the range with a {@code read_committed} consumer of its own, one record batch per
 * fetch: a committed record in the range is returned, markers and aborted records are skipped while
 * the consumer's position moves past them, and a transaction still open stops the position at its
 * first record (the last stable offset). So "nothing readable" is established only when the
 * position reaches the end of the range without a record below it: every record in the range is
 * then a marker or aborted, and none will ever be read. Used by one thread at a time.
 */
final class ReadableRecordsCheck implements AutoCloseable {
    private static final Duration POLL = Duration.ofMillis(100);

    private final KafkaConsumer<byte[], byte[]> consumer;

    /**
     * @param client the job's Kafka client properties, passed unchanged beneath the settings the
     *     check relies on
     */
    ReadableRecordsCheck(Properties client) {
        Properties properties = KafkaClientSettings.copyOf(client);
        properties.remove(ConsumerConfig.GROUP_ID_CONFIG);
        properties.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        // The broker still returns a whole first batch: the smallest fetch that makes progress.
        properties.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, "1");
        properties.put(ConsumerConfig.FETCH_MAX_BYTES_CONFIG, "1");
        properties.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "1");
        properties.putIfAbsent(ConsumerConfig.CLIENT_ID_CONFIG, "fieldprof-readable-check");
        this.consumer =
                new KafkaConsumer<>(
                        properties, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    /** What a check of a range found. */
    enum Finding {
        /** Every offset of the range is a marker or an aborted record: none will ever be read. */
        NOTHING_READABLE,
        /** The range holds a record a reader can read. */
        READABLE,
        /** Not known yet: a transaction in the range is still open, or the time ran out. */
        UNDECIDED
    }

    /**
     * What offsets {@code [from, end)} of {@code partition} hold for a {@code read_committed}
     * reader, as far as {@code timeout} lets the check tell.
     */
    Finding check(TopicPartition partition, long from, long end, Duration timeout) {
        if (from >= end) {
            return Finding.NOTHING_READABLE;
        }
        consumer.assign(List.of(partition));
        // read_committed: the last stable offset, below which no transaction is open.
        Long stable = consumer.endOffsets(List.of(partition), timeout).get(partition);
        if (stable == null || stable < end) {
            return Finding.UNDECIDED; // a transaction still open in the range (or no answer)
        }
        consumer.seek(partition, from);
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            for (ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL)) {
                if (record.offset() < end) {
                    return Finding.READABLE;
                }
            }
            if (consumer.position(partition, POLL) >= end) {
                return Finding.NOTHING_READABLE;
            }
        }
        return Finding.UNDECIDED;
    }

    @Override
    public void close() {
        consumer.close(Duration.ofSeconds(1));
    }
}
