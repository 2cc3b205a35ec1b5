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
 *
 * <p>The thread never dies and never prints: any failure (a broker that does not answer, a metadata
 * timeout, a bug) is counted in {@link #failures()} and the feed starts over from the topic's
 * metadata after a backoff that doubles from {@link #FIRST_BACKOFF} up to {@link #MAX_BACKOFF}, and
 * is reset once a poll succeeds. {@link #close()} ends a backoff at once.
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
    private final AtomicLong failures = new AtomicLong();
    private final java.util.concurrent.CountDownLatch closing =
            new java.util.concurrent.CountDownLatch(1);
    private volatile boolean running = true;

    /** The wait after the first failure in a row. */
    public static final Duration FIRST_BACKOFF = Duration.ofSeconds(1);

    /** The longest wait between two tries. */
    public static final Duration MAX_BACKOFF = Duration.ofMinutes(1);

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
        Duration backoff = FIRST_BACKOFF;
        try {
            while (running) {
                try {
                    follow();
                } catch (WakeupException e) {
                    // closing
                } catch (Throwable e) {
                    // Never out of this thread: counted, and tried again after a while.
                    failures.incrementAndGet();
                    if (!pause(backoff)) {
                        return;
                    }
                    backoff = backoff.multipliedBy(2);
                    if (backoff.compareTo(MAX_BACKOFF) > 0) {
                        backoff = MAX_BACKOFF;
                    }
                    continue;
                }
                backoff = FIRST_BACKOFF;
            }
        } finally {
            try {
                consumer.close(Duration.ofSeconds(2));
            } catch (Throwable ignored) {
                // the thread ends either way; nothing to tell the host
            }
        }
    }

    /** Reads the topic from its start and follows it until closed; throws on any failure. */
    private void follow() {
        List<TopicPartition> partitions = new ArrayList<>();
        while (running && partitions.isEmpty()) {
            List<PartitionInfo> infos = consumer.partitionsFor(topic, Duration.ofSeconds(5));
            if (infos != null) {
                for (PartitionInfo info : infos) {
                    partitions.add(new TopicPartition(topic, info.partition()));
                }
            }
        }
        if (!running) {
            return;
        }
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
        while (running) {
            for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(200))) {
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
    }

    /** Waits {@code backoff} unless closed first; returns whether to go on. */
    private boolean pause(Duration backoff) {
        try {
            return !closing.await(backoff.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS)
                    && running;
        } catch (InterruptedException e) {
            return running;
        }
    }

    /**
     * Failures of the feed's thread so far (the broker unreachable, metadata not in time, anything
     * else); each was followed by a backoff and a new try.
     */
    public long failures() {
        return failures.get();
    }

    /** Whether the feed's thread runs (until {@link #close()}). */
    public boolean alive() {
        return thread.isAlive();
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
        closing.countDown();
        consumer.wakeup();
        try {
            thread.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
