package dev.fieldprof.client.transport.kafka;

import dev.fieldprof.schemas.Topics;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What a {@link KafkaReportTransport} is made of: where it sends, how long a Kafka wait may take,
 * where reports wait while the broker is away, and, in the shuffled mode, which reports it seals
 * and to where. Immutable and thread-safe; every value is checked by {@link Builder#build()}, which
 * throws {@link IllegalArgumentException} naming the setting and its valid range.
 *
 * <pre>{@code
 * KafkaTransportSettings settings = KafkaTransportSettings.builder("broker:9092", Path.of("spool"))
 *         .timeout(Duration.ofSeconds(10))
 *         .clientProperty("security.protocol", "SSL")
 *         .build();
 * ReportTransport transport = new KafkaReportTransport(settings);
 * }</pre>
 *
 * <p>A plain class rather than a record: a record's {@code toString()} would print the Kafka client
 * properties, whose values may be credentials ({@code sasl.jaas.config}); this one names their keys
 * only. It links no Kafka or sealing class, so that the SDK's core can build it before it knows
 * whether kafka-clients is on the class path.
 */
public final class KafkaTransportSettings {
    /** Lower bound of {@link Builder#timeout}: a Kafka client cannot do a round trip in less. */
    public static final Duration MIN_TIMEOUT = Duration.ofMillis(100);

    /**
     * Upper bound of {@link Builder#timeout}; the producer's delivery timeout (this plus its
     * linger) must stay an int of milliseconds.
     */
    public static final Duration MAX_TIMEOUT = Duration.ofHours(1);

    /** Upper bound of {@link Builder#spoolMaxBytes}, 1 TiB. */
    public static final long MAX_SPOOL_BYTES = 1L << 40;

    /** Upper bound of {@link Builder#queueCapacity}: the queue is an array of this many slots. */
    public static final int MAX_QUEUE_CAPACITY = 1_000_000;

    private final String bootstrapServers;
    private final String topic;
    private final Duration timeout;
    private final Path spoolDir;
    private final long spoolMaxBytes;
    private final int queueCapacity;
    private final Map<String, String> clientProperties;
    private final boolean connectAtStart;
    private final String shuffledConfigId;
    private final Path analystPublicKeyset;
    private final String shufflerTopic;

    private KafkaTransportSettings(Builder b) {
        this.bootstrapServers = b.bootstrapServers;
        this.topic = b.topic;
        this.timeout = b.timeout;
        this.spoolDir = b.spoolDir;
        this.spoolMaxBytes = b.spoolMaxBytes;
        this.queueCapacity = b.queueCapacity;
        this.clientProperties = Collections.unmodifiableMap(new TreeMap<>(b.clientProperties));
        this.connectAtStart = b.connectAtStart;
        this.shuffledConfigId = b.shuffledConfigId;
        this.analystPublicKeyset = b.analystPublicKeyset;
        this.shufflerTopic = b.shufflerTopic;
    }

    /**
     * Settings to be completed and checked by {@link Builder#build()}: topic {@value
     * Topics#FREQUENCY_REPORTS}, timeout 30 s, a 16 MiB spool, a queue of 1024 reports, no client
     * properties, connecting at start, nothing sealed (the defaults of {@code ClientConfig}).
     *
     * @param bootstrapServers host:port list, non-empty
     * @param spoolDir where reports wait while the broker is unreachable, non-null (created on
     *     first use)
     */
    public static Builder builder(String bootstrapServers, Path spoolDir) {
        return new Builder(bootstrapServers, spoolDir);
    }

    /** The host:port list the producer bootstraps from. */
    public String bootstrapServers() {
        return bootstrapServers;
    }

    /** The topic of reports that are not sealed. */
    public String topic() {
        return topic;
    }

    /** The bound of every Kafka wait (metadata, request, delivery). */
    public Duration timeout() {
        return timeout;
    }

    /** Where reports wait while the broker is unreachable. */
    public Path spoolDir() {
        return spoolDir;
    }

    /** The spool's cap in bytes; past it the oldest reports are dropped (counted). */
    public long spoolMaxBytes() {
        return spoolMaxBytes;
    }

    /** Reports that wait in memory for the transport's thread at most. */
    public int queueCapacity() {
        return queueCapacity;
    }

    /** Kafka producer properties passed beneath the settings a report needs; unmodifiable. */
    public Map<String, String> clientProperties() {
        return clientProperties;
    }

    /** Whether the transport connects as it starts even with an empty spool. */
    public boolean connectAtStart() {
        return connectAtStart;
    }

    /** The shuffled configuration whose reports are sealed; empty when nothing is sealed. */
    public Optional<String> shuffledConfigId() {
        return Optional.ofNullable(shuffledConfigId);
    }

    /** The analyst's public keyset file reports are sealed to; empty when none was given. */
    public Optional<Path> analystPublicKeyset() {
        return Optional.ofNullable(analystPublicKeyset);
    }

    /** The topic of sealed reports; empty when nothing is sealed. */
    public Optional<String> shufflerTopic() {
        return Optional.ofNullable(shufflerTopic);
    }

    /** The settings, with the client properties' keys but not their values (may be secrets). */
    @Override
    public String toString() {
        return "KafkaTransportSettings[bootstrapServers="
                + bootstrapServers
                + ", topic="
                + topic
                + ", timeout="
                + timeout
                + ", spoolDir="
                + spoolDir
                + ", spoolMaxBytes="
                + spoolMaxBytes
                + ", queueCapacity="
                + queueCapacity
                + ", clientProperties="
                + clientProperties.keySet()
                + ", connectAtStart="
                + connectAtStart
                + (shuffledConfigId == null
                        ? ""
                        : ", shuffledConfigId="
                                + shuffledConfigId
                                + ", analystPublicKeyset="
                                + analystPublicKeyset
                                + ", shufflerTopic="
                                + shufflerTopic)
                + "]";
    }

    /** Collects the settings; not thread-safe, and {@link #build()} may be called repeatedly. */
    public static final class Builder {
        private final String bootstrapServers;
        private final Path spoolDir;
        private String topic = Topics.FREQUENCY_REPORTS;
        private Duration timeout = Duration.ofSeconds(30);
        private long spoolMaxBytes = 16L << 20;
        private int queueCapacity = 1024;
        private Map<String, String> clientProperties = Map.of();
        private boolean connectAtStart = true;
        private String shuffledConfigId;
        private Path analystPublicKeyset;
        private String shufflerTopic;

        private Builder(String bootstrapServers, Path spoolDir) {
            this.bootstrapServers = bootstrapServers;
            this.spoolDir = spoolDir;
        }

        /** The topic of reports that are not sealed, non-empty. */
        public Builder topic(String topic) {
            this.topic = topic;
            return this;
        }

        /** The bound of every Kafka wait (metadata, request, delivery), in [100 ms, 1 h]. */
        public Builder timeout(Duration timeout) {
            this.timeout = timeout;
            return this;
        }

        /** The spool's cap in bytes, in [1, 2^40]. */
        public Builder spoolMaxBytes(long spoolMaxBytes) {
            this.spoolMaxBytes = spoolMaxBytes;
            return this;
        }

        /** Reports waiting in memory at most, in [1, 1 000 000]; past it a submit is dropped. */
        public Builder queueCapacity(int queueCapacity) {
            this.queueCapacity = queueCapacity;
            return this;
        }

        /**
         * Kafka producer properties (security, e.g. {@code security.protocol}) passed to the
         * producer beneath the settings a report needs; non-null, none required, no null key or
         * value. Replaces any given before.
         */
        public Builder clientProperties(Map<String, String> clientProperties) {
            this.clientProperties = clientProperties;
            return this;
        }

        /**
         * Whether a report may be due in this run. True (the default): connect as the transport
         * starts, so that a report made at exit does not wait for the client. False: connect at
         * start only if the spool holds reports of an earlier run, else only when a report is
         * submitted.
         */
        public Builder connectAtStart(boolean connectAtStart) {
            this.connectAtStart = connectAtStart;
            return this;
        }

        /**
         * The shuffled mode: reports of {@code configId} are sealed to the analyst's public keyset
         * and sent to {@code shufflerTopic}, or not at all.
         *
         * @param configId the shuffled configuration, non-empty
         * @param analystPublicKeyset the public keyset file (Tink JSON), or null when none was
         *     given: then every report of {@code configId} is dropped as unsealable
         * @param shufflerTopic the topic of sealed reports, non-empty
         */
        public Builder shuffled(String configId, Path analystPublicKeyset, String shufflerTopic) {
            this.shuffledConfigId = configId;
            this.analystPublicKeyset = analystPublicKeyset;
            this.shufflerTopic = shufflerTopic;
            return this;
        }

        /**
         * The checked settings.
         *
         * @throws IllegalArgumentException naming the first setting out of its range
         */
        public KafkaTransportSettings build() {
            if (bootstrapServers == null || bootstrapServers.isBlank()) {
                throw new IllegalArgumentException(
                        "bootstrapServers must be a non-empty host:port list");
            }
            if (spoolDir == null) {
                throw new IllegalArgumentException("spoolDir must be a directory path, got null");
            }
            requireNonEmpty("topic", topic);
            if (timeout == null
                    || timeout.compareTo(MIN_TIMEOUT) < 0
                    || timeout.compareTo(MAX_TIMEOUT) > 0) {
                throw new IllegalArgumentException(
                        "timeout must be in [100 ms, 1 h], got " + timeout);
            }
            if (spoolMaxBytes < 1 || spoolMaxBytes > MAX_SPOOL_BYTES) {
                throw new IllegalArgumentException(
                        "spoolMaxBytes must be in [1, 2^40], got " + spoolMaxBytes);
            }
            if (queueCapacity < 1 || queueCapacity > MAX_QUEUE_CAPACITY) {
                throw new IllegalArgumentException(
                        "queueCapacity must be in [1, 1000000], got " + queueCapacity);
            }
            if (clientProperties == null) {
                throw new IllegalArgumentException("clientProperties must be a map, got null");
            }
            for (Map.Entry<String, String> property : clientProperties.entrySet()) {
                if (property.getKey() == null || property.getValue() == null) {
                    // The value is not named: it may be a secret.
                    throw new IllegalArgumentException(
                            "clientProperties must hold no null key or value, got one for key "
                                    + property.getKey());
                }
            }
            if (shuffledConfigId != null || shufflerTopic != null) {
                requireNonEmpty("shuffled configId", shuffledConfigId);
                requireNonEmpty("shufflerTopic", shufflerTopic);
            }
            return new KafkaTransportSettings(this);
        }

        private static void requireNonEmpty(String name, String value) {
            if (value == null || value.isBlank()) {
                throw new IllegalArgumentException(
                        name
                                + " must be non-empty, got "
                                + (value == null ? "null" : "\"" + value + "\""));
            }
        }
    }
}
