package dev.fieldprof.jobs.frequency;

import dev.fieldprof.jobs.io.CommonJobOptions;
import dev.fieldprof.jobs.io.JobOption;
import dev.fieldprof.jobs.io.JobOptionValues;
import dev.fieldprof.jobs.io.KafkaJobOptions;
import dev.fieldprof.schemas.Topics;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The options of {@link FrequencyEstimationJob}, each declared once below ({@link JobOption}: name,
 * type, default, range, meaning), parsed once from {@code --name value} arguments (durations as
 * {@code 30 s}, {@code 1min}, {@code 500ms}). Immutable. {@link #toMap()} gives them back with
 * every default filled in, for the job's global parameters; {@link #help()} is what {@code --help}
 * prints.
 */
public final class FrequencyJobOptions extends KafkaJobOptions {
    public static final JobOption<String> BOOTSTRAP = CommonJobOptions.BOOTSTRAP;
    public static final JobOption<String> KAFKA_PROPERTIES = CommonJobOptions.KAFKA_PROPERTIES;
    public static final JobOption<String> REPORTS_TOPIC =
            JobOption.string(
                    "reports-topic", Topics.FREQUENCY_REPORTS, "the devices' frequency reports");
    public static final JobOption<String> REPLAY_TOPIC =
            JobOption.string(
                    "replay-topic",
                    Topics.FREQUENCY_REPLAY,
                    "reports re-submitted from dead letters by `fieldprof dead-letters replay`,"
                            + " each counted once in its original window; read once it exists");
    public static final JobOption<String> SHUFFLED_TOPIC =
            JobOption.string(
                    "shuffled-topic",
                    Topics.SHUFFLED_REPORTS,
                    "the shuffler's batches of sealed reports (the shuffled mode); read only with"
                            + " --analyst-keyset");
    public static final JobOption<String> ANALYST_KEYSET =
            JobOption.string(
                    "analyst-keyset",
                    "",
                    "a file holding the analyst's private keyset (Tink JSON, docs/architecture.md):"
                            + " with it the job also reads --shuffled-topic and opens its reports;"
                            + " none: local-only configurations alone");
    public static final JobOption<String> PROGRAMS_TOPIC = CommonJobOptions.PROGRAMS_TOPIC;
    public static final JobOption<String> ESTIMATES_TOPIC =
            JobOption.string("estimates-topic", Topics.ESTIMATES, "where the window estimates go");
    public static final JobOption<String> DEAD_LETTER_TOPIC = CommonJobOptions.DEAD_LETTER_TOPIC;
    public static final JobOption<Duration> WINDOW = CommonJobOptions.WINDOW;
    public static final JobOption<Double> HOT_THRESHOLD =
            JobOption.number("hot-threshold", "0.25", "ℓ of the hot set {v : g(v) ≥ ℓ·max g}")
                    .check(x -> x >= 0 && x <= 1, "must be in [0, 1]");
    public static final JobOption<Integer> TOP =
            JobOption.integer("top", "20", "methods ranked with their signatures per estimate")
                    .check(n -> n >= 0, "must be >= 0");
    public static final JobOption<String> GROUP_ID =
            CommonJobOptions.GROUP_ID.withDefault("fieldprof-frequency-estimation");
    public static final JobOption<Duration> CHECKPOINT_INTERVAL =
            CommonJobOptions.CHECKPOINT_INTERVAL;
    public static final JobOption<String> CHECKPOINT_DIR = CommonJobOptions.CHECKPOINT_DIR;
    public static final JobOption<Integer> SHARDS =
            JobOption.integer("shards", "4", "parallel partial sums per (app version, config)")
                    .check(n -> n >= 1, "must be >= 1");
    public static final JobOption<String> TRANSACTIONAL_ID_PREFIX =
            CommonJobOptions.TRANSACTIONAL_ID_PREFIX.withDefault("fieldprof-frequency-estimation");
    public static final JobOption<Duration> TRANSACTION_TIMEOUT =
            CommonJobOptions.TRANSACTION_TIMEOUT;
    public static final JobOption<Duration> OUT_OF_ORDERNESS = CommonJobOptions.OUT_OF_ORDERNESS;
    public static final JobOption<Duration> IDLENESS = CommonJobOptions.IDLENESS;
    public static final JobOption<Duration> ALLOWED_LATENESS =
            JobOption.duration(
                            "allowed-lateness",
                            "1 d",
                            "how long after a window's end (event time) a report that arrives"
                                    + " after its estimate was published is still added to it,"
                                    + " and the window published again as its next revision;"
                                    + " later ones are LATE dead letters")
                    .check(JobOption::notNegative, "must be >= 0");
    public static final JobOption<Duration> MODEL_WAIT =
            JobOption.duration(
                            "model-wait",
                            "1 min",
                            "how long (wall clock) a report waits for its program model")
                    .check(JobOption::notNegative, "must be >= 0");
    public static final JobOption<Integer> MAX_PENDING =
            JobOption.integer(
                            "max-pending",
                            "100000",
                            "reports waiting for their models in one validation instance, over"
                                    + " all app versions")
                    .check(n -> n >= 0, "must be >= 0");
    public static final JobOption<Duration> HOLD_LIMIT =
            JobOption.duration(
                            "hold-limit",
                            "10 s",
                            "how long a waiting report holds event time back: the most an app"
                                    + " version that is never published can delay the others'"
                                    + " windows")
                    .check(JobOption::notNegative, "must be >= 0");
    public static final JobOption<Duration> DEDUP_TTL =
            JobOption.duration(
                            "dedup-ttl",
                            "24 h",
                            "how long the id of an unnumbered (v1) report is remembered (a"
                                    + " device's sequence window is kept 90 days after its last"
                                    + " new report)")
                    .check(JobOption::positive, "must be > 0");
    public static final JobOption<String> STARTING_OFFSETS =
            JobOption.choice(
                    "starting-offsets",
                    "committed",
                    List.of("committed", "earliest", "latest"),
                    "where the reports are read from on a fresh start: committed (the consumer"
                            + " group's offsets, earliest without), earliest or latest");
    public static final JobOption<String> STATE_BACKEND = CommonJobOptions.STATE_BACKEND;

    /** Every option of the job, in the order {@code --help} lists them. */
    public static final List<JobOption<?>> ALL =
            List.of(
                    BOOTSTRAP,
                    KAFKA_PROPERTIES,
                    REPORTS_TOPIC,
                    REPLAY_TOPIC,
                    SHUFFLED_TOPIC,
                    ANALYST_KEYSET,
                    PROGRAMS_TOPIC,
                    ESTIMATES_TOPIC,
                    DEAD_LETTER_TOPIC,
                    WINDOW,
                    HOT_THRESHOLD,
                    TOP,
                    GROUP_ID,
                    CHECKPOINT_INTERVAL,
                    CHECKPOINT_DIR,
                    SHARDS,
                    TRANSACTIONAL_ID_PREFIX,
                    TRANSACTION_TIMEOUT,
                    OUT_OF_ORDERNESS,
                    IDLENESS,
                    ALLOWED_LATENESS,
                    MODEL_WAIT,
                    MAX_PENDING,
                    HOLD_LIMIT,
                    DEDUP_TTL,
                    STARTING_OFFSETS,
                    STATE_BACKEND);

    private FrequencyJobOptions(JobOptionValues values) {
        super(values);
    }

    /**
     * Parses {@code --name value} pairs.
     *
     * @throws IllegalArgumentException naming the option when one is unknown, missing its value,
     *     required and absent, or out of range
     */
    public static FrequencyJobOptions parse(String... args) {
        return new FrequencyJobOptions(JobOptionValues.parse(ALL, args));
    }

    /** Options from a map of option names (without dashes) to values. */
    public static FrequencyJobOptions fromMap(Map<String, String> given) {
        return new FrequencyJobOptions(JobOptionValues.parse(ALL, given));
    }

    /** What {@code --help} prints: every option with its meaning and default. */
    public static String help() {
        return JobOptionValues.help(ALL);
    }

    /** A copy with some options changed, e.g. {@code with(Map.of(SHARDS.key(), "2"))}. */
    public FrequencyJobOptions with(Map<String, String> changes) {
        return new FrequencyJobOptions(values().with(changes));
    }

    public String reportsTopic() {
        return get(REPORTS_TOPIC);
    }

    public String replayTopic() {
        return get(REPLAY_TOPIC);
    }

    public String shuffledTopic() {
        return get(SHUFFLED_TOPIC);
    }

    /** The analyst's private keyset file, or "" for a job without the shuffled mode. */
    public String analystKeyset() {
        return get(ANALYST_KEYSET);
    }

    public String estimatesTopic() {
        return get(ESTIMATES_TOPIC);
    }

    public double hotThreshold() {
        return get(HOT_THRESHOLD);
    }

    public int top() {
        return get(TOP);
    }

    public int shards() {
        return get(SHARDS);
    }

    public Duration allowedLateness() {
        return get(ALLOWED_LATENESS);
    }

    public Duration modelWait() {
        return get(MODEL_WAIT);
    }

    public int maxPending() {
        return get(MAX_PENDING);
    }

    public Duration holdLimit() {
        return get(HOLD_LIMIT);
    }

    public Duration dedupTtl() {
        return get(DEDUP_TTL);
    }

    public String startingOffsets() {
        return get(STARTING_OFFSETS);
    }
}
