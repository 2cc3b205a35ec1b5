package dev.fieldprof.cli.programs;

import dev.fieldprof.schemas.ProgramModel;
import dev.fieldprof.schemas.RecordCodec;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Publishes a program model to the compacted programs topic, keyed by its app version, so the jobs
 * learn V, the order pairs and the privacy configurations of that version.
 */
public final class ProgramPublisher {
    private ProgramPublisher() {}

    /**
     * Writes the model and waits for the broker's acknowledgement (acks=all).
     *
     * @throws IllegalStateException naming the broker and topic when the write fails or times out
     */
    public static RecordMetadata publish(
            String bootstrapServers, String topic, ProgramModel model, Duration timeout) {
        Properties client = new Properties();
        client.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        return publish(client, topic, model, timeout);
    }

    /**
     * As above with the user's Kafka client properties (security) passed through unchanged beneath
     * the settings a model needs.
     *
     * @param client client properties with {@code bootstrap.servers}
     */
    public static RecordMetadata publish(
            Properties client, String topic, ProgramModel model, Duration timeout) {
        String bootstrapServers = client.getProperty(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG);
        Properties props = new Properties();
        props.putAll(client);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        // Models carry every CFG of the program (a guava-sized one is about 4.4 MB).
        props.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "zstd");
        props.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, Integer.toString(64 << 20));
        props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, Long.toString(timeout.toMillis()));
        // Kafka requires delivery.timeout.ms >= linger.ms + request.timeout.ms.
        long requestMillis = Math.max(500, Math.min(timeout.toMillis() / 2, 30_000));
        props.put(ProducerConfig.LINGER_MS_CONFIG, "0");
        props.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, Long.toString(requestMillis));
        props.put(
                ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG,
                Long.toString(Math.max(timeout.toMillis(), requestMillis)));
        byte[] value = RecordCodec.of(ProgramModel.class).encode(model);
        try (KafkaProducer<String, byte[]> producer =
                new KafkaProducer<>(props, new StringSerializer(), new ByteArraySerializer())) {
            return producer.send(new ProducerRecord<>(topic, model.getAppVersion(), value))
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException(
                    "cannot publish to "
                            + topic
                            + " at "
                            + bootstrapServers
                            + ": "
                            + e.getCause().getMessage(),
                    e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException(
                    "no acknowledgement from " + bootstrapServers + " within " + timeout, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while publishing", e);
        } catch (org.apache.kafka.common.KafkaException e) {
            throw new IllegalStateException(
                    "cannot publish to "
                            + topic
                            + " at "
                            + bootstrapServers
                            + ": "
                            + e.getMessage(),
                    e);
        }
    }
}
