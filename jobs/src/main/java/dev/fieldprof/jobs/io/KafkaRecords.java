package dev.fieldprof.jobs.io;

import java.time.Duration;
import java.util.Properties;
import java.util.regex.Pattern;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;

/**
 * The Kafka sources and sinks of the jobs: sources of raw records read {@code read_committed}, and
 * sinks of encoded records that are exactly-once while checkpoints run (docs/architecture.md,
 * "Runtimes": a transactional-id prefix unique per job and role, a transaction timeout below the
 * broker's maximum) and at-least-once without them.
 */
public final class KafkaRecords {
    private KafkaRecords() {}

    /**
     * A source of the raw records of {@code topic}.
     *
     * @param client the user's Kafka client properties ({@link KafkaJobOptions#kafkaClient()}),
     *     passed unchanged beneath the settings the job relies on
     * @param offsets where a fresh start reads from (a restore uses the checkpointed offsets)
     */
    public static KafkaSource<RawRecord> source(
            Properties client, String topic, String groupId, OffsetsInitializer offsets) {
        return KafkaSource.<RawRecord>builder()
                .setProperties(KafkaClientSettings.copyOf(client))
                .setTopics(topic)
                .setGroupId(groupId)
                .setStartingOffsets(offsets)
                .setDeserializer(new RawRecordDeserializer())
                .setProperty(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed")
                .build();
    }

    /**
     * A source of the raw records of the topics matching {@code topics}, read {@code
     * read_committed}; none may exist yet (partition discovery finds them later).
     */
    public static KafkaSource<RawRecord> patternSource(
            Properties client, Pattern topics, String groupId, OffsetsInitializer offsets) {
        return KafkaSource.<RawRecord>builder()
                .setProperties(KafkaClientSettings.copyOf(client))
                .setTopicPattern(topics)
                .setGroupId(groupId)
                .setStartingOffsets(offsets)
                .setDeserializer(new RawRecordDeserializer())
                .setProperty(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed")
                .build();
    }

    /**
     * A source of the raw records of {@code topic} that knows how far it has read against the end
     * offsets Kafka reports, observed every {@code observeEvery} while it runs: what event time
     * needs to follow the wall clock ({@link EventTime}, {@link ReadProgress}). Where a fresh start
     * reads from is resolved to offsets when a partition is assigned ({@link
     * ResolvedStartingOffsets}).
     */
    public static ProgressTrackingSource trackedSource(
            Properties client,
            String topic,
            String groupId,
            ResolvedStartingOffsets.From from,
            Duration observeEvery) {
        return new ProgressTrackingSource(
                source(client, topic, groupId, new ResolvedStartingOffsets(from)),
                ReadProgress.against(KafkaEndOffsets.of(client, topic, observeEvery)));
    }

    /**
     * A sink of encoded records into {@code topic}: exactly-once when the job checkpoints,
     * at-least-once otherwise.
     *
     * @param role makes the transactional-id prefix unique among the job's sinks
     * @param maxRecordBytes the largest record the topic takes (its max.message.bytes): the
     *     producer's max.request.size, unless the job's Kafka properties set one
     */
    public static KafkaSink<EncodedRecord> sink(
            KafkaJobOptions options, String topic, String role, int maxRecordBytes) {
        boolean exactlyOnce = !options.checkpointInterval().isZero();
        Properties producer = options.kafkaClient();
        producer.putIfAbsent(
                ProducerConfig.MAX_REQUEST_SIZE_CONFIG, Integer.toString(maxRecordBytes));
        return KafkaSink.<EncodedRecord>builder()
                .setKafkaProducerConfig(producer)
                .setRecordSerializer(new EncodedRecordSerializer(topic))
                .setDeliveryGuarantee(
                        exactlyOnce
                                ? DeliveryGuarantee.EXACTLY_ONCE
                                : DeliveryGuarantee.AT_LEAST_ONCE)
                .setTransactionalIdPrefix(options.transactionalIdPrefix() + "-" + role)
                .setProperty(
                        ProducerConfig.TRANSACTION_TIMEOUT_CONFIG,
                        Long.toString(options.transactionTimeout().toMillis()))
                .build();
    }
}
