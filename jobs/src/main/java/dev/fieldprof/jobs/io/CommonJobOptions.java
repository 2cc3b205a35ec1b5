package dev.fieldprof.jobs.io;

import dev.fieldprof.schemas.Topics;
import java.time.Duration;

/**
 * The options both fieldprof jobs take, declared once ({@link JobOption}); a job whose default
 * differs takes the declaration {@link JobOption#withDefault with its own default}.
 */
public final class CommonJobOptions {
    public static final JobOption<String> BOOTSTRAP =
            JobOption.string("bootstrap", null, "Kafka bootstrap servers, HOST:PORT[,HOST:PORT...]")
                    .check(s -> !s.isBlank(), "is required");

    public static final JobOption<String> KAFKA_PROPERTIES =
            JobOption.string(
                    KafkaJobOptions.KAFKA_PROPERTIES,
                    "",
                    "a Kafka client properties file (security settings, say) passed unchanged to"
                            + " every source, sink and admin client of the job; read where main()"
                            + " runs");

    public static final JobOption<String> PROGRAMS_TOPIC =
            JobOption.string("programs-topic", Topics.PROGRAMS, "the program models (compacted)");

    public static final JobOption<String> DEAD_LETTER_TOPIC =
            JobOption.string(
                    "dead-letter-topic",
                    Topics.DEAD_LETTERS,
                    "where every record the job cannot use goes, with its reason");

    public static final JobOption<Duration> WINDOW =
            JobOption.duration("window", "1 min", "size of the tumbling event-time windows")
                    .check(JobOption::positive, "must be > 0");

    /** No default of its own: each job has its consumer group. */
    public static final JobOption<String> GROUP_ID =
            JobOption.string("group-id", null, "consumer group of the reports");

    public static final JobOption<Duration> CHECKPOINT_INTERVAL =
            JobOption.duration(
                            "checkpoint-interval",
                            "10 s",
                            "how often state is checkpointed; 0 disables checkpoints and with"
                                    + " them exactly-once output")
                    .check(JobOption::notNegative, "must be >= 0");

    public static final JobOption<String> CHECKPOINT_DIR =
            JobOption.string(
                    "checkpoint-dir",
                    "",
                    "where checkpoints go (a URI); none: the cluster's configured directory, else"
                            + " one under the temporary directory");

    /** No default of its own: unique per job. */
    public static final JobOption<String> TRANSACTIONAL_ID_PREFIX =
            JobOption.string(
                    "transactional-id-prefix",
                    null,
                    "prefix of the exactly-once sinks' transactional ids, unique per job");

    public static final JobOption<Duration> TRANSACTION_TIMEOUT =
            JobOption.duration(
                            "transaction-timeout",
                            "10 min",
                            "the sinks' transaction timeout, below the brokers'"
                                    + " transaction.max.timeout.ms (15 min by default)")
                    .check(JobOption::positive, "must be > 0");

    public static final JobOption<Duration> OUT_OF_ORDERNESS =
            JobOption.duration(
                            "out-of-orderness",
                            "10 s",
                            "how much earlier than the latest report time a report may still"
                                    + " come; also the tolerated difference of the brokers' and"
                                    + " the job's clocks")
                    .check(JobOption::notNegative, "must be >= 0");

    public static final JobOption<Duration> IDLENESS =
            JobOption.duration(
                            "idleness",
                            "30 s",
                            "how often the end offsets of the job's input partitions are"
                                    + " observed: a partition read to its end follows the wall"
                                    + " clock this much later at most (any value is safe)")
                    .check(JobOption::notNegative, "must be >= 0");

    public static final JobOption<String> STATE_BACKEND =
            JobOption.choice(
                    "state-backend",
                    StateBackends.CLUSTER,
                    StateBackends.NAMES,
                    "where keyed state lives: cluster (the cluster's configuration), hashmap (the"
                            + " heap) or rocksdb (local disk, incremental checkpoints)");

    private CommonJobOptions() {}
}
