package dev.fieldprof.jobs.io;

import java.time.Duration;
import java.util.Properties;

/** What every fieldprof job's options say about its Kafka connection and exactly-once output. */
public interface KafkaJobOptions {
    /** The option naming a Kafka client properties file: {@code --kafka-properties FILE}. */
    String KAFKA_PROPERTIES = "kafka-properties";

    /** Kafka bootstrap servers. */
    String bootstrap();

    /**
     * The Kafka client properties file (security settings, say), empty for none. A path where the
     * job's {@code main()} runs: the JobManager for a job submitted to a cluster, which needs the
     * file (and the trust and key stores it names) on its machines anyway.
     */
    String kafkaProperties();

    /**
     * The client properties every Kafka client of the job gets: the file's, unchanged, with the
     * bootstrap servers set.
     *
     * @throws IllegalArgumentException naming the option and file when it cannot be read
     */
    default Properties kafkaClient() {
        return KafkaClientSettings.load(kafkaProperties(), "--" + KAFKA_PROPERTIES, bootstrap());
    }

    /** Checkpoint interval; zero disables checkpoints and with them exactly-once. */
    Duration checkpointInterval();

    /**
     * Where checkpoints go (a URI such as {@code file:///var/fieldprof/checkpoints} or {@code
     * s3://...}); empty: the cluster's configured directory, else one under the temporary
     * directory.
     */
    String checkpointDir();

    /** Prefix of the sinks' transactional ids, unique per job. */
    String transactionalIdPrefix();

    /** Transaction timeout of the sinks, below the broker's maximum. */
    Duration transactionTimeout();
}
