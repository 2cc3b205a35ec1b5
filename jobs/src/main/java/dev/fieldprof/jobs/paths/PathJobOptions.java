package dev.fieldprof.jobs.paths;

import dev.fieldprof.jobs.io.JobArguments;
import dev.fieldprof.jobs.io.KafkaJobOptions;
import dev.fieldprof.jobs.io.StateBackends;
import dev.fieldprof.paths.BranchTableText;
import dev.fieldprof.paths.ModelUpdater;
import dev.fieldprof.schemas.Topics;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.util.TimeUtils;

/**
 * The options of {@link PathModelJob}, parsed from {@code --key value} arguments (durations as
 * {@code 30 s}, {@code 1min}). The branch tables come from the program models on {@code
 * --programs-topic}; the optional {@code --branches} overrides them per app version with a branch
 * description file ({@code fieldprof-branches 1}, written by the path instrumenter into the
 * instrumented jar as {@code META-INF/fieldprof/branches.txt}): {@code
 * app:1=/path/a.txt,app:2=/path/b.txt}. Use it when the jar traces only some methods ({@code
 * --path-methods}) or the instrumenter skipped some. The files are read when the options are
 * parsed, so the job ships their text, not their paths.
 */
public record PathJobOptions(
        String bootstrap,
        String reportsTopic,
        String programsTopic,
        String modelsTopic,
        String deadLetterTopic,
        Duration window,
        boolean processingTime,
        int keepVersions,
        int targetTotal,
        String groupId,
        Duration checkpointInterval,
        String checkpointDir,
        String transactionalIdPrefix,
        Duration transactionTimeout,
        Duration outOfOrderness,
        Duration idleness,
        Duration tableWait,
        int shards,
        int maxWaiting,
        String stateBackend,
        Map<String, String> branches,
        String kafkaProperties)
        implements KafkaJobOptions {

    public static final String BOOTSTRAP = "bootstrap";
    public static final String KAFKA_PROPERTIES = KafkaJobOptions.KAFKA_PROPERTIES;
    public static final String REPORTS_TOPIC = "reports-topic";
    public static final String PROGRAMS_TOPIC = "programs-topic";
    public static final String MODELS_TOPIC = "models-topic";
    public static final String DEAD_LETTER_TOPIC = "dead-letter-topic";
    public static final String WINDOW = "window";
    public static final String TIME = "time";
    public static final String KEEP_VERSIONS = "keep-versions";
    public static final String TARGET_TOTAL = "target-total";
    public static final String GROUP_ID = "group-id";
    public static final String CHECKPOINT_INTERVAL = "checkpoint-interval";
    public static final String CHECKPOINT_DIR = "checkpoint-dir";
    public static final String TRANSACTIONAL_ID_PREFIX = "transactional-id-prefix";
    public static final String TRANSACTION_TIMEOUT = "transaction-timeout";
    public static final String OUT_OF_ORDERNESS = "out-of-orderness";
    public static final String IDLENESS = "idleness";
    public static final String TABLE_WAIT = "table-wait";
    public static final String BRANCHES = "branches";
    public static final String SHARDS = "shards";
    public static final String MAX_WAITING = "max-waiting";
    public static final String STATE_BACKEND = "state-backend";

    private static final Map<String, String> DEFAULTS = defaults();

    private static Map<String, String> defaults() {
        Map<String, String> d = new LinkedHashMap<>();
        d.put(BOOTSTRAP, null);
        // Optional: a Kafka client properties file, read where the job's main() runs.
        d.put(KAFKA_PROPERTIES, "");
        d.put(REPORTS_TOPIC, Topics.PATH_REPORTS);
        d.put(PROGRAMS_TOPIC, Topics.PROGRAMS);
        d.put(MODELS_TOPIC, Topics.EDGE_MODELS);
        d.put(DEAD_LETTER_TOPIC, Topics.DEAD_LETTERS);
        d.put(WINDOW, "1 min");
        d.put(TIME, "event");
        d.put(KEEP_VERSIONS, "4");
        d.put(TARGET_TOTAL, Integer.toString(ModelUpdater.DEFAULT_TARGET_TOTAL));
        d.put(GROUP_ID, "fieldprof-path-model");
        d.put(CHECKPOINT_INTERVAL, "10 s");
        d.put(CHECKPOINT_DIR, "");
        d.put(TRANSACTIONAL_ID_PREFIX, "fieldprof-path-model");
        d.put(TRANSACTION_TIMEOUT, "10 min");
        d.put(OUT_OF_ORDERNESS, "10 s");
        d.put(IDLENESS, "30 s");
        d.put(TABLE_WAIT, "1 min");
        d.put(SHARDS, "4");
        d.put(MAX_WAITING, "10000");
        d.put(STATE_BACKEND, StateBackends.CLUSTER);
        // Optional: the program models' CFGs give the tables; a file here overrides them.
        d.put(BRANCHES, "");
        return d;
    }

    public PathJobOptions {
        require(bootstrap != null && !bootstrap.isBlank(), "--" + BOOTSTRAP + " is required");
        require(!window.isNegative() && !window.isZero(), "--" + WINDOW + " must be > 0");
        require(keepVersions >= 1, "--" + KEEP_VERSIONS + " must be >= 1");
        require(
                targetTotal >= 2 && targetTotal <= 65536,
                "--" + TARGET_TOTAL + " must be in [2, 65536]");
        require(!checkpointInterval.isNegative(), "--" + CHECKPOINT_INTERVAL + " must be >= 0");
        require(!outOfOrderness.isNegative(), "--" + OUT_OF_ORDERNESS + " must be >= 0");
        require(!idleness.isNegative(), "--" + IDLENESS + " must be >= 0");
        require(!tableWait.isNegative(), "--" + TABLE_WAIT + " must be >= 0");
        require(shards >= 1 && shards <= 4096, "--" + SHARDS + " must be in [1, 4096]");
        require(maxWaiting >= 0, "--" + MAX_WAITING + " must be >= 0");
        require(
                StateBackends.NAMES.contains(stateBackend),
                "--" + STATE_BACKEND + " must be one of " + StateBackends.NAMES);
        for (Map.Entry<String, String> e : branches.entrySet()) {
            try {
                BranchTableText.parse(e.getValue());
            } catch (IllegalArgumentException bad) {
                throw new IllegalArgumentException(
                        "--" + BRANCHES + " of " + e.getKey() + ": " + bad.getMessage());
            }
        }
        branches = Map.copyOf(branches);
    }

    private static void require(boolean ok, String message) {
        JobArguments.require(ok, message);
    }

    /**
     * Parses {@code --key value} pairs.
     *
     * @throws IllegalArgumentException naming the option when one is unknown, missing, or bad
     */
    public static PathJobOptions parse(String... args) {
        JobArguments all = JobArguments.of(DEFAULTS, JobArguments.split(args));
        String time = all.string(TIME);
        if (!time.equals("event") && !time.equals("processing")) {
            throw new IllegalArgumentException("--" + TIME + " must be event or processing");
        }
        return new PathJobOptions(
                all.string(BOOTSTRAP),
                all.string(REPORTS_TOPIC),
                all.string(PROGRAMS_TOPIC),
                all.string(MODELS_TOPIC),
                all.string(DEAD_LETTER_TOPIC),
                all.duration(WINDOW),
                time.equals("processing"),
                all.integer(KEEP_VERSIONS),
                all.integer(TARGET_TOTAL),
                all.string(GROUP_ID),
                all.duration(CHECKPOINT_INTERVAL),
                all.string(CHECKPOINT_DIR),
                all.string(TRANSACTIONAL_ID_PREFIX),
                all.duration(TRANSACTION_TIMEOUT),
                all.duration(OUT_OF_ORDERNESS),
                all.duration(IDLENESS),
                all.duration(TABLE_WAIT),
                all.integer(SHARDS),
                all.integer(MAX_WAITING),
                all.string(STATE_BACKEND),
                readBranches(all.string(BRANCHES)),
                all.string(KAFKA_PROPERTIES));
    }

    /** Reads {@code app:1=/path,app:2=/path} into app version → branch description text. */
    static Map<String, String> readBranches(String value) {
        Map<String, String> out = new TreeMap<>();
        if (value.isBlank()) {
            return out;
        }
        for (String item : value.split(",")) {
            int equals = item.lastIndexOf('=');
            if (equals <= 0) {
                throw new IllegalArgumentException(
                        "--" + BRANCHES + " expects appVersion=file, got '" + item + "'");
            }
            Path file = Path.of(item.substring(equals + 1).strip());
            try {
                out.put(item.substring(0, equals).strip(), Files.readString(file));
            } catch (IOException e) {
                throw new UncheckedIOException(
                        "--" + BRANCHES + ": cannot read " + file + ": " + e.getMessage(), e);
            }
        }
        return out;
    }

    /** The scalar options by name (branch texts summarized by app version), for job parameters. */
    public Map<String, String> toMap() {
        Map<String, String> map = new LinkedHashMap<>();
        map.put(BOOTSTRAP, bootstrap);
        map.put(REPORTS_TOPIC, reportsTopic);
        map.put(PROGRAMS_TOPIC, programsTopic);
        map.put(MODELS_TOPIC, modelsTopic);
        map.put(DEAD_LETTER_TOPIC, deadLetterTopic);
        map.put(WINDOW, TimeUtils.formatWithHighestUnit(window));
        map.put(TIME, processingTime ? "processing" : "event");
        map.put(KEEP_VERSIONS, Integer.toString(keepVersions));
        map.put(TARGET_TOTAL, Integer.toString(targetTotal));
        map.put(GROUP_ID, groupId);
        map.put(CHECKPOINT_INTERVAL, TimeUtils.formatWithHighestUnit(checkpointInterval));
        map.put(CHECKPOINT_DIR, checkpointDir);
        map.put(TRANSACTIONAL_ID_PREFIX, transactionalIdPrefix);
        map.put(TRANSACTION_TIMEOUT, TimeUtils.formatWithHighestUnit(transactionTimeout));
        map.put(OUT_OF_ORDERNESS, TimeUtils.formatWithHighestUnit(outOfOrderness));
        map.put(IDLENESS, TimeUtils.formatWithHighestUnit(idleness));
        map.put(TABLE_WAIT, TimeUtils.formatWithHighestUnit(tableWait));
        map.put(SHARDS, Integer.toString(shards));
        map.put(MAX_WAITING, Integer.toString(maxWaiting));
        map.put(STATE_BACKEND, stateBackend);
        map.put(BRANCHES, String.join(",", new TreeMap<>(branches).keySet()));
        map.put(KAFKA_PROPERTIES, kafkaProperties); // the file's name, never its contents
        return map;
    }
}
