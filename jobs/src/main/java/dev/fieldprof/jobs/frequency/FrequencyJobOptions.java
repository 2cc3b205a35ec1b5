package dev.fieldprof.jobs.frequency;

import dev.fieldprof.jobs.io.JobArguments;
import dev.fieldprof.jobs.io.KafkaJobOptions;
import dev.fieldprof.jobs.io.StateBackends;
import dev.fieldprof.schemas.Topics;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.util.TimeUtils;

/**
 * The options of {@link FrequencyEstimationJob}, parsed once from {@code --key value} arguments
 * (durations as {@code 30 s}, {@code 1min}, {@code 500ms}). Immutable. {@link #toMap()} gives them
 * back with every default filled in, for the job's global parameters.
 */
public record FrequencyJobOptions(
        String bootstrap,
        String reportsTopic,
        String programsTopic,
        String estimatesTopic,
        String deadLetterTopic,
        Duration window,
        double hotThreshold,
        int top,
        String groupId,
        Duration checkpointInterval,
        String checkpointDir,
        int shards,
        String transactionalIdPrefix,
        Duration transactionTimeout,
        Duration outOfOrderness,
        Duration idleness,
        Duration modelWait,
        Duration holdLimit,
        int maxPending,
        Duration dedupTtl,
        String startingOffsets,
        String stateBackend,
        String kafkaProperties)
        implements KafkaJobOptions {

    public static final String BOOTSTRAP = "bootstrap";
    public static final String KAFKA_PROPERTIES = KafkaJobOptions.KAFKA_PROPERTIES;
    public static final String REPORTS_TOPIC = "reports-topic";
    public static final String PROGRAMS_TOPIC = "programs-topic";
    public static final String ESTIMATES_TOPIC = "estimates-topic";
    public static final String DEAD_LETTER_TOPIC = "dead-letter-topic";
    public static final String WINDOW = "window";
    public static final String HOT_THRESHOLD = "hot-threshold";
    public static final String TOP = "top";
    public static final String GROUP_ID = "group-id";
    public static final String CHECKPOINT_INTERVAL = "checkpoint-interval";
    public static final String CHECKPOINT_DIR = "checkpoint-dir";
    public static final String SHARDS = "shards";
    public static final String TRANSACTIONAL_ID_PREFIX = "transactional-id-prefix";
    public static final String TRANSACTION_TIMEOUT = "transaction-timeout";
    public static final String OUT_OF_ORDERNESS = "out-of-orderness";
    public static final String IDLENESS = "idleness";
    public static final String MODEL_WAIT = "model-wait";
    public static final String MAX_PENDING = "max-pending";
    public static final String HOLD_LIMIT = "hold-limit";
    public static final String DEDUP_TTL = "dedup-ttl";
    public static final String STARTING_OFFSETS = "starting-offsets";
    public static final String STATE_BACKEND = "state-backend";

    /** Every option with its default; {@code null} marks a required option. */
    private static final Map<String, String> DEFAULTS = defaults();

    private static Map<String, String> defaults() {
        Map<String, String> d = new LinkedHashMap<>();
        d.put(BOOTSTRAP, null);
        // Optional: a Kafka client properties file, read where the job's main() runs.
        d.put(KAFKA_PROPERTIES, "");
        d.put(REPORTS_TOPIC, Topics.FREQUENCY_REPORTS);
        d.put(PROGRAMS_TOPIC, Topics.PROGRAMS);
        d.put(ESTIMATES_TOPIC, Topics.ESTIMATES);
        d.put(DEAD_LETTER_TOPIC, Topics.DEAD_LETTERS);
        d.put(WINDOW, "1 min");
        d.put(HOT_THRESHOLD, "0.25");
        d.put(TOP, "20");
        d.put(GROUP_ID, "fieldprof-frequency-estimation");
        d.put(CHECKPOINT_INTERVAL, "10 s");
        d.put(CHECKPOINT_DIR, "");
        d.put(SHARDS, "4");
        d.put(TRANSACTIONAL_ID_PREFIX, "fieldprof-frequency-estimation");
        // Below the broker's transaction.max.timeout.ms (15 min by default).
        d.put(TRANSACTION_TIMEOUT, "10 min");
        d.put(OUT_OF_ORDERNESS, "10 s");
        d.put(IDLENESS, "30 s");
        d.put(MODEL_WAIT, "1 min");
        d.put(MAX_PENDING, "100000");
        d.put(HOLD_LIMIT, "10 s");
        d.put(DEDUP_TTL, "24 h");
        // committed: resume the consumer group (earliest when it has no offsets yet).
        d.put(STARTING_OFFSETS, "committed");
        d.put(STATE_BACKEND, StateBackends.CLUSTER);
        return d;
    }

    public FrequencyJobOptions {
        require(bootstrap != null && !bootstrap.isBlank(), "--" + BOOTSTRAP + " is required");
        require(positive(window), "--" + WINDOW + " must be > 0");
        require(
                hotThreshold >= 0 && hotThreshold <= 1,
                "--" + HOT_THRESHOLD + " must be in [0, 1]");
        require(top >= 0, "--" + TOP + " must be >= 0");
        require(!checkpointInterval.isNegative(), "--" + CHECKPOINT_INTERVAL + " must be >= 0");
        require(shards >= 1, "--" + SHARDS + " must be >= 1");
        require(positive(transactionTimeout), "--" + TRANSACTION_TIMEOUT + " must be > 0");
        require(!outOfOrderness.isNegative(), "--" + OUT_OF_ORDERNESS + " must be >= 0");
        require(!idleness.isNegative(), "--" + IDLENESS + " must be >= 0");
        require(!modelWait.isNegative(), "--" + MODEL_WAIT + " must be >= 0");
        require(maxPending >= 0, "--" + MAX_PENDING + " must be >= 0");
        require(!holdLimit.isNegative(), "--" + HOLD_LIMIT + " must be >= 0");
        require(positive(dedupTtl), "--" + DEDUP_TTL + " must be > 0");
        require(
                List.of("committed", "earliest", "latest").contains(startingOffsets),
                "--" + STARTING_OFFSETS + " must be committed, earliest or latest");
        require(
                StateBackends.NAMES.contains(stateBackend),
                "--" + STATE_BACKEND + " must be one of " + StateBackends.NAMES);
    }

    /**
     * Parses {@code --key value} pairs.
     *
     * @throws IllegalArgumentException naming the option when one is unknown, missing its value,
     *     required and absent, or out of range
     */
    public static FrequencyJobOptions parse(String... args) {
        return fromMap(JobArguments.split(args));
    }

    /** Options from a map of option names (without dashes) to values. */
    public static FrequencyJobOptions fromMap(Map<String, String> given) {
        JobArguments all = JobArguments.of(DEFAULTS, given);
        return new FrequencyJobOptions(
                all.string(BOOTSTRAP),
                all.string(REPORTS_TOPIC),
                all.string(PROGRAMS_TOPIC),
                all.string(ESTIMATES_TOPIC),
                all.string(DEAD_LETTER_TOPIC),
                all.duration(WINDOW),
                all.number(HOT_THRESHOLD),
                all.integer(TOP),
                all.string(GROUP_ID),
                all.duration(CHECKPOINT_INTERVAL),
                all.string(CHECKPOINT_DIR),
                all.integer(SHARDS),
                all.string(TRANSACTIONAL_ID_PREFIX),
                all.duration(TRANSACTION_TIMEOUT),
                all.duration(OUT_OF_ORDERNESS),
                all.duration(IDLENESS),
                all.duration(MODEL_WAIT),
                all.duration(HOLD_LIMIT),
                all.integer(MAX_PENDING),
                all.duration(DEDUP_TTL),
                all.string(STARTING_OFFSETS),
                all.string(STATE_BACKEND),
                all.string(KAFKA_PROPERTIES));
    }

    /** Every option by name, defaults filled in. */
    public Map<String, String> toMap() {
        Map<String, String> map = new LinkedHashMap<>();
        map.put(BOOTSTRAP, bootstrap);
        map.put(REPORTS_TOPIC, reportsTopic);
        map.put(PROGRAMS_TOPIC, programsTopic);
        map.put(ESTIMATES_TOPIC, estimatesTopic);
        map.put(DEAD_LETTER_TOPIC, deadLetterTopic);
        map.put(WINDOW, TimeUtils.formatWithHighestUnit(window));
        map.put(HOT_THRESHOLD, Double.toString(hotThreshold));
        map.put(TOP, Integer.toString(top));
        map.put(GROUP_ID, groupId);
        map.put(CHECKPOINT_INTERVAL, TimeUtils.formatWithHighestUnit(checkpointInterval));
        map.put(CHECKPOINT_DIR, checkpointDir);
        map.put(SHARDS, Integer.toString(shards));
        map.put(TRANSACTIONAL_ID_PREFIX, transactionalIdPrefix);
        map.put(TRANSACTION_TIMEOUT, TimeUtils.formatWithHighestUnit(transactionTimeout));
        map.put(OUT_OF_ORDERNESS, TimeUtils.formatWithHighestUnit(outOfOrderness));
        map.put(IDLENESS, TimeUtils.formatWithHighestUnit(idleness));
        map.put(MODEL_WAIT, TimeUtils.formatWithHighestUnit(modelWait));
        map.put(MAX_PENDING, Integer.toString(maxPending));
        map.put(HOLD_LIMIT, TimeUtils.formatWithHighestUnit(holdLimit));
        map.put(DEDUP_TTL, TimeUtils.formatWithHighestUnit(dedupTtl));
        map.put(STARTING_OFFSETS, startingOffsets);
        map.put(STATE_BACKEND, stateBackend);
        map.put(KAFKA_PROPERTIES, kafkaProperties); // the file's name, never its contents
        return map;
    }

    /** A copy with some options changed, e.g. {@code with(Map.of(SHARDS, "2"))}. */
    public FrequencyJobOptions with(Map<String, String> changes) {
        Map<String, String> map = toMap();
        map.putAll(changes);
        return fromMap(map);
    }

    private static boolean positive(Duration d) {
        return !d.isNegative() && !d.isZero();
    }

    private static void require(boolean condition, String message) {
        JobArguments.require(condition, message);
    }
}
