package dev.fieldprof.jobs.frequency;

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
        int shards,
        String transactionalIdPrefix,
        Duration transactionTimeout,
        Duration outOfOrderness,
        Duration idleness,
        Duration modelWait,
        int maxPending,
        Duration dedupTtl,
        String startingOffsets) {

    public static final String BOOTSTRAP = "bootstrap";
    public static final String REPORTS_TOPIC = "reports-topic";
    public static final String PROGRAMS_TOPIC = "programs-topic";
    public static final String ESTIMATES_TOPIC = "estimates-topic";
    public static final String DEAD_LETTER_TOPIC = "dead-letter-topic";
    public static final String WINDOW = "window";
    public static final String HOT_THRESHOLD = "hot-threshold";
    public static final String TOP = "top";
    public static final String GROUP_ID = "group-id";
    public static final String CHECKPOINT_INTERVAL = "checkpoint-interval";
    public static final String SHARDS = "shards";
    public static final String TRANSACTIONAL_ID_PREFIX = "transactional-id-prefix";
    public static final String TRANSACTION_TIMEOUT = "transaction-timeout";
    public static final String OUT_OF_ORDERNESS = "out-of-orderness";
    public static final String IDLENESS = "idleness";
    public static final String MODEL_WAIT = "model-wait";
    public static final String MAX_PENDING = "max-pending";
    public static final String DEDUP_TTL = "dedup-ttl";
    public static final String STARTING_OFFSETS = "starting-offsets";

    /** Every option with its default; {@code null} marks a required option. */
    private static final Map<String, String> DEFAULTS = defaults();

    private static Map<String, String> defaults() {
        Map<String, String> d = new LinkedHashMap<>();
        d.put(BOOTSTRAP, null);
        d.put(REPORTS_TOPIC, Topics.FREQUENCY_REPORTS);
        d.put(PROGRAMS_TOPIC, Topics.PROGRAMS);
        d.put(ESTIMATES_TOPIC, Topics.ESTIMATES);
        d.put(DEAD_LETTER_TOPIC, Topics.DEAD_LETTERS);
        d.put(WINDOW, "1 min");
        d.put(HOT_THRESHOLD, "0.25");
        d.put(TOP, "20");
        d.put(GROUP_ID, "fieldprof-frequency-estimation");
        d.put(CHECKPOINT_INTERVAL, "10 s");
        d.put(SHARDS, "4");
        d.put(TRANSACTIONAL_ID_PREFIX, "fieldprof-frequency-estimation");
        // Below the broker's transaction.max.timeout.ms (15 min by default).
        d.put(TRANSACTION_TIMEOUT, "10 min");
        d.put(OUT_OF_ORDERNESS, "10 s");
        d.put(IDLENESS, "30 s");
        d.put(MODEL_WAIT, "5 min");
        d.put(MAX_PENDING, "10000");
        d.put(DEDUP_TTL, "24 h");
        // committed: resume the consumer group (earliest when it has no offsets yet).
        d.put(STARTING_OFFSETS, "committed");
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
        require(positive(idleness), "--" + IDLENESS + " must be > 0");
        require(!modelWait.isNegative(), "--" + MODEL_WAIT + " must be >= 0");
        require(maxPending >= 0, "--" + MAX_PENDING + " must be >= 0");
        require(positive(dedupTtl), "--" + DEDUP_TTL + " must be > 0");
        require(
                List.of("committed", "earliest", "latest").contains(startingOffsets),
                "--" + STARTING_OFFSETS + " must be committed, earliest or latest");
    }

    /**
     * Parses {@code --key value} pairs.
     *
     * @throws IllegalArgumentException naming the option when one is unknown, missing its value,
     *     required and absent, or out of range
     */
    public static FrequencyJobOptions parse(String... args) {
        Map<String, String> given = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (!arg.startsWith("--")) {
                throw new IllegalArgumentException("expected --option, got '" + arg + "'");
            }
            String name = arg.substring(2);
            String value;
            int equals = name.indexOf('=');
            if (equals >= 0) {
                value = name.substring(equals + 1);
                name = name.substring(0, equals);
            } else if (i + 1 < args.length) {
                value = args[++i];
            } else {
                throw new IllegalArgumentException("--" + name + " needs a value");
            }
            given.put(name, value);
        }
        return fromMap(given);
    }

    /** Options from a map of option names (without dashes) to values. */
    public static FrequencyJobOptions fromMap(Map<String, String> given) {
        for (String name : given.keySet()) {
            if (!DEFAULTS.containsKey(name)) {
                throw new IllegalArgumentException(
                        "unknown option --"
                                + name
                                + "; known: --"
                                + String.join(", --", DEFAULTS.keySet()));
            }
        }
        Map<String, String> all = new LinkedHashMap<>(DEFAULTS);
        all.putAll(given);
        List<String> missing =
                all.entrySet().stream()
                        .filter(e -> e.getValue() == null)
                        .map(Map.Entry::getKey)
                        .toList();
        if (!missing.isEmpty()) {
            throw new IllegalArgumentException(
                    "missing required option(s): --" + String.join(", --", missing));
        }
        return new FrequencyJobOptions(
                all.get(BOOTSTRAP),
                all.get(REPORTS_TOPIC),
                all.get(PROGRAMS_TOPIC),
                all.get(ESTIMATES_TOPIC),
                all.get(DEAD_LETTER_TOPIC),
                duration(all, WINDOW),
                number(all, HOT_THRESHOLD),
                integer(all, TOP),
                all.get(GROUP_ID),
                duration(all, CHECKPOINT_INTERVAL),
                integer(all, SHARDS),
                all.get(TRANSACTIONAL_ID_PREFIX),
                duration(all, TRANSACTION_TIMEOUT),
                duration(all, OUT_OF_ORDERNESS),
                duration(all, IDLENESS),
                duration(all, MODEL_WAIT),
                integer(all, MAX_PENDING),
                duration(all, DEDUP_TTL),
                all.get(STARTING_OFFSETS));
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
        map.put(SHARDS, Integer.toString(shards));
        map.put(TRANSACTIONAL_ID_PREFIX, transactionalIdPrefix);
        map.put(TRANSACTION_TIMEOUT, TimeUtils.formatWithHighestUnit(transactionTimeout));
        map.put(OUT_OF_ORDERNESS, TimeUtils.formatWithHighestUnit(outOfOrderness));
        map.put(IDLENESS, TimeUtils.formatWithHighestUnit(idleness));
        map.put(MODEL_WAIT, TimeUtils.formatWithHighestUnit(modelWait));
        map.put(MAX_PENDING, Integer.toString(maxPending));
        map.put(DEDUP_TTL, TimeUtils.formatWithHighestUnit(dedupTtl));
        map.put(STARTING_OFFSETS, startingOffsets);
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
        if (!condition) {
            throw new IllegalArgumentException(message);
        }
    }

    private static Duration duration(Map<String, String> all, String name) {
        try {
            return TimeUtils.parseDuration(all.get(name));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(
                    "--" + name + ": not a duration: '" + all.get(name) + "'", e);
        }
    }

    private static int integer(Map<String, String> all, String name) {
        try {
            return Integer.parseInt(all.get(name).strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    "--" + name + ": not an integer: '" + all.get(name) + "'", e);
        }
    }

    private static double number(Map<String, String> all, String name) {
        try {
            return Double.parseDouble(all.get(name).strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    "--" + name + ": not a number: '" + all.get(name) + "'", e);
        }
    }
}
