package dev.fieldprof.it;

import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Whether a credential is refused a topic, found by trying as a client would: a produce that the
 * broker answers, or a read from the beginning to the end of partition 0. Anything other than an
 * authorization refusal (of the topic, or of producing at all for a principal that may write
 * nowhere) or a success fails the test.
 */
final class KafkaRefusal {
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    /** Polls after reaching the end: a refused fetch is answered by the first fetch response. */
    private static final int POLLS_AT_END = 3;

    private KafkaRefusal() {}

    /** True when writing one record to {@code topic} is refused, false when it is acknowledged. */
    static boolean ofProduce(Properties credential, String topic) throws InterruptedException {
        Properties p = new Properties();
        p.putAll(credential);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, (int) TIMEOUT.toMillis());
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
            producer.send(new ProducerRecord<>(topic, new byte[] {1}))
                    .get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            return false;
        } catch (ExecutionException | org.apache.kafka.common.KafkaException e) {
            // A refused idempotent producer fails its next call with a KafkaException ("error
            // state") whose cause is the refusal; a refused send fails its future.
            for (Throwable t = e; t != null; t = t.getCause()) {
                if (t instanceof AuthorizationException) {
                    return true;
                }
            }
            throw new AssertionError("writing " + topic + " failed otherwise", e);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError("writing " + topic + ": no answer within " + TIMEOUT, e);
        }
    }

    /**
     * True when reading partition 0 of {@code topic} is refused, false when it reads to its end.
     */
    static boolean ofRead(Properties credential, String topic) {
        Properties p = new Properties();
        p.putAll(credential);
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        TopicPartition partition = new TopicPartition(topic, 0);
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            long end = consumer.endOffsets(List.of(partition), TIMEOUT).get(partition);
            long deadline = System.nanoTime() + TIMEOUT.toNanos();
            int pollsAtEnd = 0;
            while (pollsAtEnd < POLLS_AT_END) {
                consumer.poll(Duration.ofMillis(500));
                if (consumer.position(partition, TIMEOUT) >= end) {
                    pollsAtEnd++;
                }
                if (System.nanoTime() > deadline) {
                    throw new AssertionError(topic + ": not read to offset " + end + " in time");
                }
            }
            return false;
        } catch (AuthorizationException e) {
            return true;
        }
    }
}
