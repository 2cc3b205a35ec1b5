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
    /** How long the one-shot views wait for the broker's answer to one request. */
    private static final Duration API_TIMEOUT = Duration.ofSeconds(15);

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
     *
     * @throws IllegalStateException naming the topic and broker when the topic does not exist
     */
    static KafkaConsumer<byte[], byte[]> assignedToAllPartitions(
            Properties client, String topic, String clientPrefix) {
        KafkaConsumer<byte[], byte[]> consumer = unassigned(client, clientPrefix);
        try {
            assignAllPartitions(consumer, topic, bootstrapServers(client), API_TIMEOUT);
        } catch (RuntimeException e) {
            consumer.close();
            throw e;
        }
        return consumer;
    }

    /**
     * A consumer with the views' settings and no partition yet; making one does not reach the
     * broker.
     */
    static KafkaConsumer<byte[], byte[]> unassigned(Properties client, String clientPrefix) {
        Properties props = new Properties();
        props.putAll(client);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        // A view only reads: asking for a topic that is not there must not create it.
        props.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, "false");
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, clientPrefix + "-" + UUID.randomUUID());
        props.putIfAbsent(
                ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
                String.valueOf(API_TIMEOUT.toMillis()));
        return new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    /**
     * Assigns every partition of {@code topic} to {@code consumer}, waiting at most {@code timeout}
     * for the broker's answer.
     *
     * @throws org.apache.kafka.common.errors.TimeoutException when the broker did not answer in
     *     time (the consumer stays usable)
     * @throws IllegalStateException naming the topic and broker when the topic does not exist
     */
    static void assignAllPartitions(
            KafkaConsumer<byte[], byte[]> consumer,
            String topic,
            String bootstrapServers,
            Duration timeout) {
        List<PartitionInfo> infos = consumer.partitionsFor(topic, timeout);
        if (infos == null || infos.isEmpty()) {
            throw new IllegalStateException(
                    "topic " + topic + " does not exist at " + bootstrapServers);
        }
        List<TopicPartition> partitions = new ArrayList<>();
        for (PartitionInfo info : infos) {
            partitions.add(new TopicPartition(topic, info.partition()));
        }
        consumer.assign(partitions);
    }

    /** The bootstrap servers named in {@code client}, for messages. */
    static String bootstrapServers(Properties client) {
        return client.getProperty(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG);
    }
}
