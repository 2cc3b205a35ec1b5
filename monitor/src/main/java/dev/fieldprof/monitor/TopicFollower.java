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
import org.apache.kafka.common.errors.TimeoutException;

/**
 * Follows one topic for the monitor: starts at the first record of the look-back (or at the
 * beginning), hands every record to a callback, and survives a broker that goes away. Every poll
 * returns within about its timeout, broker or not: finding the topic's partitions and the
 * look-back's offsets waits at most the poll's timeout, and a broker that did not answer in time
 * leaves the consumer open, so its connection attempts go on into the next poll. Any other failure
 * (no such topic, no permission) closes the consumer, and a poll after a pause opens a new one that
 * resumes at the offsets reached. Not thread-safe; one thread polls it.
 */
final class TopicFollower implements AutoCloseable {
    private static final long RETRY_MILLIS = 1_000;

    private final Properties client;
    private final String topic;
    private final Duration lookBack;
    private final Map<TopicPartition, Long> next = new HashMap<>();
    private KafkaConsumer<byte[], byte[]> consumer;
    private boolean positioned;
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
     * Polls once for up to about {@code timeout}; returns the records handed on, 0 while the broker
     * or the topic cannot be reached (see {@link #lastError()}).
     */
    int poll(Duration timeout, Consumer<ConsumerRecord<byte[], byte[]>> sink) {
        try {
            if (consumer == null) {
                if (System.currentTimeMillis() < retryAtMillis) {
                    return 0;
                }
                consumer = TopicConsumers.unassigned(client, "fieldprof-monitor");
                positioned = false;
            }
            if (!positioned) {
                position(timeout);
                positioned = true;
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
        } catch (TimeoutException e) {
            lastError = describe(e);
            return 0;
        } catch (RuntimeException e) {
            lastError = describe(e);
            closeConsumer();
            retryAtMillis = System.currentTimeMillis() + RETRY_MILLIS;
            return 0;
        }
    }

    /** Why the last poll read nothing, or null when it worked. */
    String lastError() {
        return lastError;
    }

    /**
     * Assigns the topic's partitions and seeks each to where reading resumes: the offset reached
     * before, else the look-back's first record, else the beginning. Each request to the broker
     * waits at most {@code timeout}; after a timeout the next poll takes up where this one stopped.
     */
    private void position(Duration timeout) {
        if (consumer.assignment().isEmpty()) {
            TopicConsumers.assignAllPartitions(
                    consumer, topic, TopicConsumers.bootstrapServers(client), timeout);
        }
        List<TopicPartition> fresh = new ArrayList<>();
        for (TopicPartition partition : consumer.assignment()) {
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
        Map<TopicPartition, OffsetAndTimestamp> found = consumer.offsetsForTimes(query, timeout);
        Map<TopicPartition, Long> end = consumer.endOffsets(fresh, timeout);
        for (TopicPartition partition : fresh) {
            OffsetAndTimestamp at = found.get(partition);
            consumer.seek(partition, at != null ? at.offset() : end.get(partition));
        }
    }

    private static String describe(RuntimeException e) {
        return e.getClass().getSimpleName() + ": " + e.getMessage();
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
