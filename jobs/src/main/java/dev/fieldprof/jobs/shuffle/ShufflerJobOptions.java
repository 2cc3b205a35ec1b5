package dev.fieldprof.jobs.shuffle;

import dev.fieldprof.jobs.io.CommonJobOptions;
import dev.fieldprof.jobs.io.JobOption;
import dev.fieldprof.jobs.io.JobOptionValues;
import dev.fieldprof.jobs.io.KafkaJobOptions;
import dev.fieldprof.schemas.Topics;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The options of {@link ShufflerJob}, each declared once below ({@link JobOption}: name, type,
 * default, range, meaning), parsed once from {@code --name value} arguments. Immutable. {@link
 * #help()} is what {@code --help} prints; docs/jobs.md has the same list.
 */
public final class ShufflerJobOptions extends KafkaJobOptions {
    public static final JobOption<String> BOOTSTRAP = CommonJobOptions.BOOTSTRAP;
    public static final JobOption<String> KAFKA_PROPERTIES = CommonJobOptions.KAFKA_PROPERTIES;
    public static final JobOption<String> INPUT_TOPIC =
            JobOption.string(
                    "input-topic",
                    Topics.SHUFFLER_INPUT,
                    "the devices' sealed reports (SealedReport), which only the shuffler reads");
    public static final JobOption<String> SHUFFLED_TOPIC =
            JobOption.string(
                    "shuffled-topic",
                    Topics.SHUFFLED_REPORTS,
                    "where the released batches go (ShuffledBatch parts), which only the analyst"
                            + " reads");
    public static final JobOption<String> DEAD_LETTER_TOPIC =
            CommonJobOptions.DEAD_LETTER_TOPIC.withDefault("fieldprof.shuffler.dead-letters");
    public static final JobOption<Integer> MIN_BATCH_SIZE =
            JobOption.integer(
                            "min-batch-size",
                            "1000",
                            "the fewest distinct reports of one (app version, config) a batch is"
                                    + " released with: the n of the central guarantee")
                    .check(n -> n >= 1, "must be >= 1");
    public static final JobOption<Integer> MAX_BATCH_SIZE =
            JobOption.integer(
                            "max-batch-size",
                            "100000",
                            "the most reports in one batch; a group that reaches it is released"
                                    + " at once (held in memory while it is shuffled)")
                    .check(n -> n >= 1, "must be >= 1");
    public static final JobOption<Duration> RELEASE_INTERVAL =
            JobOption.duration(
                            "release-interval",
                            "1 min",
                            "how often (wall clock) a group's reports are looked at and released"
                                    + " as one batch when they reach --min-batch-size")
                    .check(JobOption::positive, "must be > 0");
    public static final JobOption<Duration> MAX_WAIT =
            JobOption.duration(
                            "max-wait",
                            "7 d",
                            "how long (wall clock) a group below --min-batch-size holds its"
                                    + " oldest report; then each held report is a"
                                    + " SHUFFLE_WAIT_EXPIRED dead letter")
                    .check(JobOption::positive, "must be > 0");
    public static final JobOption<Duration> DEVICE_TTL =
            JobOption.duration(
                            "device-ttl",
                            "90 d",
                            "how long the sequence window of a device that sends no new report"
                                    + " is kept: a re-send within it is forwarded once")
                    .check(JobOption::positive, "must be > 0");
    public static final JobOption<String> GROUP_ID =
            CommonJobOptions.GROUP_ID.withDefault("fieldprof-shuffler");
    public static final JobOption<Duration> CHECKPOINT_INTERVAL =
            CommonJobOptions.CHECKPOINT_INTERVAL;
    public static final JobOption<String> CHECKPOINT_DIR = CommonJobOptions.CHECKPOINT_DIR;
    public static final JobOption<String> TRANSACTIONAL_ID_PREFIX =
            CommonJobOptions.TRANSACTIONAL_ID_PREFIX.withDefault("fieldprof-shuffler");
    public static final JobOption<Duration> TRANSACTION_TIMEOUT =
            CommonJobOptions.TRANSACTION_TIMEOUT;
    public static final JobOption<String> STARTING_OFFSETS =
            JobOption.choice(
                    "starting-offsets",
                    "committed",
                    List.of("committed", "earliest", "latest"),
                    "where the sealed reports are read from on a fresh start: committed (the"
                            + " consumer group's offsets, earliest without), earliest or latest");
    public static final JobOption<String> STATE_BACKEND = CommonJobOptions.STATE_BACKEND;

    /** Every option of the job, in the order {@code --help} lists them. */
    public static final List<JobOption<?>> ALL =
            List.of(
                    BOOTSTRAP,
                    KAFKA_PROPERTIES,
                    INPUT_TOPIC,
                    SHUFFLED_TOPIC,
                    DEAD_LETTER_TOPIC,
                    MIN_BATCH_SIZE,
                    MAX_BATCH_SIZE,
                    RELEASE_INTERVAL,
                    MAX_WAIT,
                    DEVICE_TTL,
                    GROUP_ID,
                    CHECKPOINT_INTERVAL,
                    CHECKPOINT_DIR,
                    TRANSACTIONAL_ID_PREFIX,
                    TRANSACTION_TIMEOUT,
                    STARTING_OFFSETS,
                    STATE_BACKEND);

    private ShufflerJobOptions(JobOptionValues values) {
        super(values);
        if (minBatchSize() > maxBatchSize()) {
            throw new IllegalArgumentException(
                    "--min-batch-size "
                            + minBatchSize()
                            + " must be <= --max-batch-size "
                            + maxBatchSize());
        }
    }

    /**
     * Parses {@code --name value} pairs.
     *
     * @throws IllegalArgumentException naming the option when one is unknown, missing its value,
     *     required and absent, or out of range
     */
    public static ShufflerJobOptions parse(String... args) {
        return new ShufflerJobOptions(JobOptionValues.parse(ALL, args));
    }

    /** Options from a map of option names (without dashes) to values. */
    public static ShufflerJobOptions fromMap(Map<String, String> given) {
        return new ShufflerJobOptions(JobOptionValues.parse(ALL, given));
    }

    /** What {@code --help} prints: every option with its meaning and default. */
    public static String help() {
        return JobOptionValues.help(ALL);
    }

    public String inputTopic() {
        return get(INPUT_TOPIC);
    }

    public String shuffledTopic() {
        return get(SHUFFLED_TOPIC);
    }

    public int minBatchSize() {
        return get(MIN_BATCH_SIZE);
    }

    public int maxBatchSize() {
        return get(MAX_BATCH_SIZE);
    }

    public Duration releaseInterval() {
        return get(RELEASE_INTERVAL);
    }

    public Duration maxWait() {
        return get(MAX_WAIT);
    }

    public Duration deviceTtl() {
        return get(DEVICE_TTL);
    }

    public String startingOffsets() {
        return get(STARTING_OFFSETS);
    }
}
