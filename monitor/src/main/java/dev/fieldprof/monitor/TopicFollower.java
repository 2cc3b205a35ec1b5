package dev.fieldprof.monitor;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.TopicPartition;

/**
 * Follows one topic for the monitor: starts at the first record of the look-back (or at the
 * beginning), hands every record to a callback, and survives a broker that goes away: a failed poll
 * closes the consumer, and the next poll after a pause opens a new one that resumes at the offsets
 * reached. Not thread-safe; one thread polls it.
 */
final class TopicFollower implements AutoCloseable {
    private static final long RETRY_MILLIS = 1_000;

    private final Properties client;
    private final String topic;
    private final Duration lookBack;
    private final Map<TopicPartition, Long> next = new HashMap<>();
    private KafkaConsumer<byte[], byte[]> consumer;
    private long retryAtMillis;
    private String lastError;

    /**
     * @param client Kafka client properties with at least the bootstrap servers
     * @param lookBack read records stamped at most this long ago at start, or null for all
     */
    TopicFollower(Properties client, String topic, Duration lookBack) {
        this.client = client;
        this.topic = topic;
        this.lookBack = lookBack;
    }

    /**
     * Polls once for up to {@code timeout}; returns the records handed on, 0 while the broker or
     * the topic cannot be reached (see {@link #lastError()}).
     */
    int poll(Duration timeout, Consumer<ConsumerRecord<byte[], byte[]>> sink) {
        try {
            if (consumer == null) {
                if (System.currentTimeMillis() < retryAtMillis) {
                    return 0;
                }
                open();
            }
            int handed = 0;
            for (ConsumerRecord<byte[], byte[]> record : consumer.poll(timeout)) {
                next.put(
                        new TopicPartition(record.topic(), record.partition()),
                        record.offset() + 1);
                sink.accept(record);
                handed++;
            }
            lastError = null;
            return handed;
        } catch (RuntimeException e) {
            lastError = e.getClass().getSimpleName() + ": " + e.getMessage();
            closeConsumer();
            retryAtMillis = System.currentTimeMillis() + RETRY_MILLIS;
            return 0;
        }
    }

    /** Why the last poll read nothing, or null when it worked. */
    String lastError() {
        return lastError;
    }

    private void open() {
        consumer = TopicConsumers.assignedToAllPartitions(client, topic, "fieldprof-monitor");
        List<TopicPartition> partitions = new ArrayList<>(consumer.assignment());
        List<TopicPartition> fresh = new ArrayList<>();
        for (TopicPartition partition : partitions) {
            Long resume = next.get(partition);
            if (resume != null) {
                consumer.seek(partition, resume);
            } else {
                fresh.add(partition);
            }
        }
        if (fresh.isEmpty()) {
            return;
        }
        if (lookBack == null) {
            consumer.seekToBeginning(fresh);
            return;
        }
        long since = System.currentTimeMillis() - lookBack.toMillis();
        Map<TopicPartition, Long> query = new HashMap<>();
        fresh.forEach(p -> query.put(p, since));
        Map<TopicPartition, OffsetAndTimestamp> found = consumer.offsetsForTimes(query);
        Map<TopicPartition, Long> end = consumer.endOffsets(fresh);
        for (TopicPartition partition : fresh) {
            OffsetAndTimestamp at = found.get(partition);
            consumer.seek(partition, at != null ? at.offset() : end.get(partition));
        }
    }

    private void closeConsumer() {
        if (consumer != null) {
            try {
                consumer.close(Duration.ofSeconds(1));
            } catch (RuntimeException ignored) {
                // Closing a consumer of a broker that is gone: nothing more to release.
            }
            consumer = null;
        }
    }

    @Override
    public void close() {
        closeConsumer();
    }
}
