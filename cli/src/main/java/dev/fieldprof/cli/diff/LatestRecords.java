package dev.fieldprof.cli.diff;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reads a whole topic once, committed records only (the jobs write transactionally), from the
 * beginning to the end offsets taken at the start: no consumer group, no waiting for records that
 * may never come. Used by {@code fieldprof diff --estimates} to find the newest estimate and
 * program model of an app version.
 */
final class LatestRecords {
    private LatestRecords() {}

    /**
     * Hands every committed record of {@code topic} to {@code sink}, partition by partition in
     * offset order.
     *
     * @param maxRecordBytes the largest record expected (program models reach 64 MiB)
     * @throws IllegalStateException when the topic does not exist or the end is not reached in time
     */
    static void drain(
            Properties client,
            String topic,
            int maxRecordBytes,
            Duration timeout,
            Consumer<ConsumerRecord<byte[], byte[]>> sink) {
        String bootstrap = client.getProperty(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG);
        Properties props = new Properties();
        props.putAll(client);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, "fieldprof-diff-" + UUID.randomUUID());
        props.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, maxRecordBytes);
        props.put(ConsumerConfig.FETCH_MAX_BYTES_CONFIG, maxRecordBytes);
        props.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "15000");
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(
                        props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<PartitionInfo> infos = consumer.partitionsFor(topic, Duration.ofSeconds(15));
            if (infos == null || infos.isEmpty()) {
                throw new IllegalStateException(
                        "topic " + topic + " does not exist at " + bootstrap);
            }
            List<TopicPartition> partitions = new ArrayList<>();
            for (PartitionInfo info : infos) {
                partitions.add(new TopicPartition(topic, info.partition()));
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            // With read_committed, endOffsets are the last stable offsets: what a reader can reach.
            Map<TopicPartition, Long> end = new HashMap<>(consumer.endOffsets(partitions));
            Instant deadline = Instant.now().plus(timeout);
            while (true) {
                end.entrySet().removeIf(e -> consumer.position(e.getKey()) >= e.getValue());
                if (end.isEmpty()) {
                    return;
                }
                if (Instant.now().isAfter(deadline)) {
                    throw new IllegalStateException(
                            "did not reach the end of " + topic + " within " + timeout);
                }
                for (ConsumerRecord<byte[], byte[]> record :
                        consumer.poll(Duration.ofMillis(500))) {
                    Long stop = end.get(new TopicPartition(record.topic(), record.partition()));
                    if (stop != null && record.offset() < stop) {
                        sink.accept(record);
                    }
                }
            }
        }
    }
}
