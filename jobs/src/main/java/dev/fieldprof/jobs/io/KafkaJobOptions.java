package dev.fieldprof.jobs.io;

import java.time.Duration;

/** What every fieldprof job's options say about its Kafka connection and exactly-once output. */
public interface KafkaJobOptions {
    /** Kafka bootstrap servers. */
    String bootstrap();

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
