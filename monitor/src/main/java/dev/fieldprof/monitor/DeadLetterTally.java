package dev.fieldprof.monitor;

import dev.fieldprof.schemas.DeadLetter;
import dev.fieldprof.schemas.DeadLetterReason;
import dev.fieldprof.schemas.RecordCodec;
import dev.fieldprof.schemas.RecordDecodingException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Counts the dead letters of a deployment by reason, from the start of the topic, and keeps the
 * newest reason text, so a live view can show what the jobs rejected. Not thread-safe.
 */
public final class DeadLetterTally implements AutoCloseable {
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final RecordCodec<DeadLetter> codec = RecordCodec.of(DeadLetter.class);
    private final Map<DeadLetterReason, Long> byReason = new EnumMap<>(DeadLetterReason.class);
    private String newestReason;
    private long total;

    public DeadLetterTally(String bootstrapServers, String topic) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, "fieldprof-dead-letters-" + UUID.randomUUID());
        this.consumer =
                new KafkaConsumer<>(
                        props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        List<TopicPartition> partitions = new ArrayList<>();
        List<PartitionInfo> infos = consumer.partitionsFor(topic, Duration.ofSeconds(15));
        if (infos == null || infos.isEmpty()) {
            consumer.close();
            throw new IllegalStateException(
                    "topic " + topic + " does not exist at " + bootstrapServers);
        }
        for (PartitionInfo info : infos) {
            partitions.add(new TopicPartition(topic, info.partition()));
        }
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
    }

    /** Reads what arrived, waiting at most {@code timeout}; returns how many dead letters. */
    public int poll(Duration timeout) {
        int arrived = 0;
        for (ConsumerRecord<byte[], byte[]> record : consumer.poll(timeout)) {
            arrived++;
            total++;
            try {
                DeadLetter letter = codec.decode(record.value());
                byReason.merge(letter.getReasonCode(), 1L, Long::sum);
                newestReason = letter.getReason();
            } catch (RecordDecodingException e) {
                byReason.merge(DeadLetterReason.OTHER, 1L, Long::sum);
                newestReason = e.getMessage();
            }
        }
        return arrived;
    }

    public long total() {
        return total;
    }

    public Map<DeadLetterReason, Long> byReason() {
        return Map.copyOf(byReason);
    }

    /** The reason of the newest dead letter read, or null before the first. */
    public String newestReason() {
        return newestReason;
    }

    @Override
    public void close() {
        consumer.close(Duration.ofSeconds(5));
    }
}
