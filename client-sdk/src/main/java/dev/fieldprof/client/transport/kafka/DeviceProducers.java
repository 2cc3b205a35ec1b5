package dev.fieldprof.client.transport.kafka;

import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/** The producer, its settings and its shutdown, as every device-side Kafka publisher has them. */
public final class DeviceProducers {
    private static final int LINGER_MS = 20;

    private DeviceProducers() {}

    /**
     * An idempotent, acks=all, lz4-compressed producer whose every wait (metadata, request,
     * delivery) is bounded by {@code timeout}.
     */
    public static Properties properties(
            String bootstrapServers, Duration timeout, String clientId) {
        return properties(bootstrapServers, timeout, clientId, Map.of());
    }

    /**
     * As above, with the user's Kafka client properties (security, say) passed through unchanged
     * over fieldprof's defaults; only the bootstrap servers and client id stay fieldprof's.
     */
    public static Properties properties(
            String bootstrapServers,
            Duration timeout,
            String clientId,
            Map<String, String> clientProperties) {
        Properties p = new Properties();
        int ms = (int) Math.min(Integer.MAX_VALUE, timeout.toMillis());
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
        p.put(ProducerConfig.LINGER_MS_CONFIG, Integer.toString(LINGER_MS));
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, Integer.toString(ms));
        p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, Integer.toString(ms));
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, Integer.toString(ms + LINGER_MS));
        p.put(ProducerConfig.RECONNECT_BACKOFF_MS_CONFIG, "200");
        p.put(ProducerConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, "10000");
        p.putAll(clientProperties);
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(ProducerConfig.CLIENT_ID_CONFIG, clientId);
        return p;
    }

    /**
     * A producer of string keys and byte values with {@code properties} (see {@link #properties}).
     */
    public static Producer<String, byte[]> create(Properties properties) {
        return new KafkaProducer<>(properties, new StringSerializer(), new ByteArraySerializer());
    }

    /**
     * Whether {@code failure} or one of its causes is the broker refusing the device's credentials
     * or a TLS handshake: retrying cannot help until the settings change, and an operator needs to
     * see it counted apart from an unreachable broker.
     */
    public static boolean isAuthenticationFailure(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof AuthenticationException) {
                return true;
            }
        }
        return false;
    }

    /**
     * Closes {@code producer} (if any) on a publisher thread that is being shut down: the interrupt
     * that stops the thread is cleared first so that the producer gets its graceful close, and a
     * failing close (a dead broker) is swallowed; unsent records fail through their callbacks.
     */
    public static void closeOnPublisherThread(Producer<?, ?> producer, Duration timeout) {
        if (producer == null) {
            return;
        }
        Thread.interrupted();
        try {
            producer.close(timeout);
        } catch (RuntimeException ignored) {
            // see above
        }
    }
}
