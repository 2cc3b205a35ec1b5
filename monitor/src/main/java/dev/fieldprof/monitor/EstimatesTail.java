package dev.fieldprof.monitor;

import dev.fieldprof.schemas.EstimateWindow;
import dev.fieldprof.schemas.RecordCodec;
import dev.fieldprof.schemas.RecordDecodingException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;

/**
 * Follows the estimates topic: starts a little before the end of every partition (so the newest
 * windows show at once) and hands each decodable estimate to a callback. Reads committed records
 * only, since the estimation job writes transactionally. Not thread-safe; {@link #close()} from the
 * polling thread.
 */
public final class EstimatesTail implements AutoCloseable {
    /** Records per partition re-read at start so the view is not empty until the next window. */
    private static final int BACKLOG_PER_PARTITION = 200;

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final RecordCodec<EstimateWindow> codec = RecordCodec.of(EstimateWindow.class);
    private long undecodable;

    public EstimatesTail(String bootstrapServers, String topic) {
        this(TopicConsumers.bootstrapOnly(bootstrapServers), topic);
    }

    /**
     * @param client Kafka client properties with the bootstrap servers (security settings passed
     *     through unchanged)
     */
    public EstimatesTail(Properties client, String topic) {
        this.consumer = TopicConsumers.assignedToAllPartitions(client, topic, "fieldprof-watch");
        List<TopicPartition> partitions = new ArrayList<>(consumer.assignment());
        Map<TopicPartition, Long> begin = consumer.beginningOffsets(partitions);
        Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
        for (TopicPartition partition : partitions) {
            long from = Math.max(begin.get(partition), end.get(partition) - BACKLOG_PER_PARTITION);
            consumer.seek(partition, from);
        }
    }

    /** Polls once, up to {@code timeout}, and returns how many estimates were delivered. */
    public int poll(Duration timeout, Consumer<EstimateWindow> sink) {
        int delivered = 0;
        for (ConsumerRecord<byte[], byte[]> record : consumer.poll(timeout)) {
            try {
                sink.accept(codec.decode(record.value()));
                delivered++;
            } catch (RecordDecodingException e) {
                undecodable++;
            }
        }
        return delivered;
    }

    /**
     * Polls once, up to {@code timeout}, handing each estimate with its record's Kafka timestamp;
     * returns how many estimates were delivered.
     */
    public int pollWithTimes(Duration timeout, BiConsumer<EstimateWindow, Long> sink) {
        int delivered = 0;
        for (ConsumerRecord<byte[], byte[]> record : consumer.poll(timeout)) {
            try {
                sink.accept(codec.decode(record.value()), record.timestamp());
                delivered++;
            } catch (RecordDecodingException e) {
                undecodable++;
            }
        }
        return delivered;
    }

    /** Records on the topic that were not estimates this version can read. */
    public long undecodable() {
        return undecodable;
    }

    @Override
    public void close() {
        consumer.close(Duration.ofSeconds(5));
    }
}
