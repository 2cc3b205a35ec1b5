package dev.fieldprof.monitor;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Consumers for the live views: read committed records only (the jobs write transactionally), no
 * consumer group (every view reads the whole topic for itself), every partition assigned.
 */
final class TopicConsumers {
    private TopicConsumers() {}

    /**
     * A consumer assigned to every partition of {@code topic}.
     *
     * @throws IllegalStateException naming the topic and broker when the topic does not exist
     */
    static KafkaConsumer<byte[], byte[]> assignedToAllPartitions(
            String bootstrapServers, String topic, String clientPrefix) {
        return assignedToAllPartitions(bootstrapOnly(bootstrapServers), topic, clientPrefix);
    }

    /** Client properties naming only the bootstrap servers. */
    static Properties bootstrapOnly(String bootstrapServers) {
        Properties client = new Properties();
        client.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        return client;
    }

    /**
     * A consumer assigned to every partition of {@code topic}, with the user's client properties
     * (security, timeouts) passed through unchanged beneath the settings the views rely on.
     */
    static KafkaConsumer<byte[], byte[]> assignedToAllPartitions(
            Properties client, String topic, String clientPrefix) {
        Properties props = new Properties();
        props.putAll(client);
        String bootstrapServers = props.getProperty(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, clientPrefix + "-" + UUID.randomUUID());
        props.putIfAbsent(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "15000");
        KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(
                        props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        List<PartitionInfo> infos;
        try {
            infos = consumer.partitionsFor(topic, Duration.ofSeconds(15));
        } catch (RuntimeException e) {
            consumer.close();
            throw e;
        }
        if (infos == null || infos.isEmpty()) {
            consumer.close();
            throw new IllegalStateException(
                    "topic " + topic + " does not exist at " + bootstrapServers);
        }
        List<TopicPartition> partitions = new ArrayList<>();
        for (PartitionInfo info : infos) {
            partitions.add(new TopicPartition(topic, info.partition()));
        }
        consumer.assign(partitions);
        return consumer;
    }
}
