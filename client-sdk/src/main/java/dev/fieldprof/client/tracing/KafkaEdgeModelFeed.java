package dev.fieldprof.client.tracing;

import dev.fieldprof.schemas.RecordCodec;
import dev.fieldprof.schemas.Topics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Follows the compacted {@code fieldprof.models.edges} topic on a daemon thread and offers every
 * model keyed by the store's app version to the {@link EdgeModelStore}. No consumer group: each
 * device reads the whole topic from the start (it is compacted to one model per app version) and
 * then follows it. Records that do not decode are counted and skipped.
 */
public final class KafkaEdgeModelFeed implements AutoCloseable {
    private static final RecordCodec<dev.fieldprof.schemas.EdgeModel> CODEC =
            RecordCodec.of(dev.fieldprof.schemas.EdgeModel.class);

    private final KafkaConsumer<String, byte[]> consumer;
    private final EdgeModelStore store;
    private final String topic;
    private final Thread thread;
    private final AtomicLong adopted = new AtomicLong();
    private final AtomicLong undecodable = new AtomicLong();
    private volatile boolean running = true;

    /** Follows {@link Topics#EDGE_MODELS}. */
    public KafkaEdgeModelFeed(String bootstrapServers, EdgeModelStore store) {
        this(bootstrapServers, Topics.EDGE_MODELS, store);
    }

    public KafkaEdgeModelFeed(String bootstrapServers, String topic, EdgeModelStore store) {
        this(bootstrapServers, topic, store, java.util.Map.of());
    }

    /**
     * @param clientProperties Kafka client properties (security) passed through unchanged
     */
    public KafkaEdgeModelFeed(
            String bootstrapServers,
            String topic,
            EdgeModelStore store,
            java.util.Map<String, String> clientProperties) {
        Properties p = new Properties();
        p.putAll(clientProperties);
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.CLIENT_ID_CONFIG, "fieldprof-device-models");
        this.consumer =
                new KafkaConsumer<>(p, new StringDeserializer(), new ByteArrayDeserializer());
        this.store = store;
        this.topic = topic;
        this.thread = new Thread(this::run, "fieldprof-edge-models");
        thread.setDaemon(true);
        thread.start();
    }

    private void run() {
        try {
            List<TopicPartition> partitions = new ArrayList<>();
            while (running && partitions.isEmpty()) {
                List<PartitionInfo> infos = consumer.partitionsFor(topic, Duration.ofSeconds(5));
                if (infos != null) {
                    for (PartitionInfo info : infos) {
                        partitions.add(new TopicPartition(topic, info.partition()));
                    }
                }
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            while (running) {
                for (ConsumerRecord<String, byte[]> record :
                        consumer.poll(Duration.ofMillis(200))) {
                    if (!store.appVersion().equals(record.key()) || record.value() == null) {
                        continue;
                    }
                    try {
                        if (store.offer(CODEC.decode(record.value()))) {
                            adopted.incrementAndGet();
                        }
                    } catch (RuntimeException e) {
                        undecodable.incrementAndGet();
                    }
                }
            }
        } catch (WakeupException e) {
            // closing
        } finally {
            consumer.close(Duration.ofSeconds(2));
        }
    }

    /** Models the store adopted from the topic. */
    public long adopted() {
        return adopted.get();
    }

    /** Records on the topic under this app version that were not EdgeModel records. */
    public long undecodable() {
        return undecodable.get();
    }

    @Override
    public void close() {
        running = false;
        consumer.wakeup();
        try {
            thread.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
