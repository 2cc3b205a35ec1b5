package dev.fieldprof.jobs.paths;

import dev.fieldprof.schemas.EdgeModel;
import dev.fieldprof.schemas.RecordCodec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Reads the newest published EdgeModel per app version from the compacted model topic, so that a
 * PathModelJob started without state continues at M+1 instead of publishing version 1 again (which
 * devices holding M would ignore). Records that do not decode are skipped.
 */
public final class PublishedModels {
    private static final RecordCodec<EdgeModel> CODEC = RecordCodec.of(EdgeModel.class);

    private PublishedModels() {}

    /** App version → record bytes of its newest model, reading the topic to its end offsets. */
    public static Map<String, byte[]> read(Properties client, String topic, Duration timeout) {
        Properties p = new Properties();
        p.putAll(client);
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        Map<String, byte[]> newest = new TreeMap<>();
        Map<String, Long> versions = new TreeMap<>();
        try (KafkaConsumer<String, byte[]> consumer =
                new KafkaConsumer<>(p, new StringDeserializer(), new ByteArrayDeserializer())) {
            List<PartitionInfo> infos = consumer.partitionsFor(topic, timeout);
            if (infos == null || infos.isEmpty()) {
                return newest;
            }
            List<TopicPartition> partitions = new ArrayList<>();
            for (PartitionInfo info : infos) {
                partitions.add(new TopicPartition(topic, info.partition()));
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions, timeout);
            long deadline = System.nanoTime() + timeout.toNanos();
            while (!reachedEnd(consumer, end)) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(
                            "could not read " + topic + " to its end within " + timeout);
                }
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    if (r.key() == null || r.value() == null) {
                        continue;
                    }
                    try {
                        long v = CODEC.decode(r.value()).getVersion();
                        if (v > versions.getOrDefault(r.key(), -1L)) {
                            versions.put(r.key(), v);
                            newest.put(r.key(), r.value());
                        }
                    } catch (RuntimeException e) {
                        // not an EdgeModel record: nothing to resume from
                    }
                }
            }
        }
        return newest;
    }

    private static boolean reachedEnd(
            KafkaConsumer<String, byte[]> consumer, Map<TopicPartition, Long> end) {
        for (Map.Entry<TopicPartition, Long> e : end.entrySet()) {
            if (consumer.position(e.getKey()) < e.getValue()) {
                return false;
            }
        }
        return true;
    }
}
