package dev.fieldprof.jobs.io;

import java.time.Duration;
import java.util.Map;
import java.util.Properties;

/**
 * The parsed options of a fieldprof job ({@link JobOptionValues}), with the accessors of the
 * options every job takes ({@link CommonJobOptions}): its Kafka connection, windows, event time,
 * checkpoints and exactly-once output. Immutable.
 */
public abstract class KafkaJobOptions {
    /** The option naming a Kafka client properties file: {@code --kafka-properties FILE}. */
    public static final String KAFKA_PROPERTIES = "kafka-properties";

    private final JobOptionValues values;

    protected KafkaJobOptions(JobOptionValues values) {
        this.values = values;
    }

    /** The value of one of the job's options. */
    protected final <T> T get(JobOption<T> option) {
        return values.get(option);
    }

    protected final JobOptionValues values() {
        return values;
    }

    /**
     * Every option by name, defaults filled in (the properties file's name, never its contents).
     */
    public final Map<String, String> toMap() {
        return values.toMap();
    }

    /** Kafka bootstrap servers. */
    public final String bootstrap() {
        return get(CommonJobOptions.BOOTSTRAP);
    }

    /**
     * The Kafka client properties file (security settings, say), empty for none. A path where the
     * job's {@code main()} runs: the JobManager for a job submitted to a cluster, which needs the
     * file (and the trust and key stores it names) on its machines anyway.
     */
    public final String kafkaProperties() {
        return get(CommonJobOptions.KAFKA_PROPERTIES);
    }

    /**
     * The client properties every Kafka client of the job gets: the file's, unchanged, with the
     * bootstrap servers set.
     *
     * @throws IllegalArgumentException naming the option and file when it cannot be read
     */
    public final Properties kafkaClient() {
        return KafkaClientSettings.load(kafkaProperties(), "--" + KAFKA_PROPERTIES, bootstrap());
    }

    public final String programsTopic() {
        return get(CommonJobOptions.PROGRAMS_TOPIC);
    }

    public final String deadLetterTopic() {
        return get(CommonJobOptions.DEAD_LETTER_TOPIC);
    }

    public final Duration window() {
        return get(CommonJobOptions.WINDOW);
    }

    /** The consumer group of the job's reports. */
    public final String groupId() {
        return get(CommonJobOptions.GROUP_ID);
    }

    /** Checkpoint interval; zero disables checkpoints and with them exactly-once. */
    public final Duration checkpointInterval() {
        return get(CommonJobOptions.CHECKPOINT_INTERVAL);
    }

    /**
     * Where checkpoints go (a URI such as {@code file:///var/fieldprof/checkpoints} or {@code
     * s3://...}); empty: the cluster's configured directory, else one under the temporary
     * directory.
     */
    public final String checkpointDir() {
        return get(CommonJobOptions.CHECKPOINT_DIR);
    }

    /** Prefix of the sinks' transactional ids, unique per job. */
    public final String transactionalIdPrefix() {
        return get(CommonJobOptions.TRANSACTIONAL_ID_PREFIX);
    }

    /** Transaction timeout of the sinks, below the broker's maximum. */
    public final Duration transactionTimeout() {
        return get(CommonJobOptions.TRANSACTION_TIMEOUT);
    }

    public final Duration outOfOrderness() {
        return get(CommonJobOptions.OUT_OF_ORDERNESS);
    }

    public final Duration idleness() {
        return get(CommonJobOptions.IDLENESS);
    }

    public final String stateBackend() {
        return get(CommonJobOptions.STATE_BACKEND);
    }

    @Override
    public final boolean equals(Object other) {
        return other != null
                && other.getClass() == getClass()
                && values.equals(((KafkaJobOptions) other).values);
    }

    @Override
    public final int hashCode() {
        return values.hashCode();
    }

    @Override
    public final String toString() {
        return getClass().getSimpleName() + values;
    }
}
