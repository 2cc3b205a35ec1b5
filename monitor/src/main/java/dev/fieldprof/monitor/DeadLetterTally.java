package dev.fieldprof.monitor;

import dev.fieldprof.schemas.DeadLetter;
import dev.fieldprof.schemas.DeadLetterReason;
import dev.fieldprof.schemas.RecordCodec;
import dev.fieldprof.schemas.RecordDecodingException;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;

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
        this(TopicConsumers.bootstrapOnly(bootstrapServers), topic);
    }

    /**
     * @param client Kafka client properties with the bootstrap servers (security settings passed
     *     through unchanged)
     */
    public DeadLetterTally(Properties client, String topic) {
        this.consumer =
                TopicConsumers.assignedToAllPartitions(client, topic, "fieldprof-dead-letters");
        consumer.seekToBeginning(consumer.assignment());
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
