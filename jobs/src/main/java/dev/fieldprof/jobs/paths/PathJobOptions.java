package dev.fieldprof.jobs.paths;

import dev.fieldprof.jobs.io.CommonJobOptions;
import dev.fieldprof.jobs.io.JobOption;
import dev.fieldprof.jobs.io.JobOptionValues;
import dev.fieldprof.jobs.io.KafkaJobOptions;
import dev.fieldprof.paths.BranchTableText;
import dev.fieldprof.paths.ModelUpdater;
import dev.fieldprof.schemas.Topics;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The options of {@link PathModelJob}, parsed from {@code --key value} arguments (durations as
 * {@code 30 s}, {@code 1min}). The branch tables come from the program models on {@code
 * --programs-topic}; the optional {@code --branches} overrides them per app version with a branch
 * description file ({@code fieldprof-branches 1}, written by the path instrumenter into the
 * instrumented jar as {@code META-INF/fieldprof/branches.txt}): {@code
 * app:1=/path/a.txt,app:2=/path/b.txt}. Use it when the jar traces only some methods ({@code
 * --path-methods}) or the instrumenter skipped some. The files are read when the options are
 * parsed, so the job ships their text, not their paths. Each option is declared once below ({@link
 * JobOption}); {@link #help()} is what {@code --help} prints.
 */
public final class PathJobOptions extends KafkaJobOptions {
    public static final JobOption<String> BOOTSTRAP = CommonJobOptions.BOOTSTRAP;
    public static final JobOption<String> KAFKA_PROPERTIES = CommonJobOptions.KAFKA_PROPERTIES;
    public static final JobOption<String> REPORTS_TOPIC =
            JobOption.string("reports-topic", Topics.PATH_REPORTS, "the devices' path reports");
    public static final JobOption<String> PROGRAMS_TOPIC = CommonJobOptions.PROGRAMS_TOPIC;
    public static final JobOption<String> MODELS_TOPIC =
            JobOption.string(
                    "models-topic",
                    Topics.EDGE_MODELS,
                    "the edge models, read at start and published per window (compacted)");
    public static final JobOption<String> DEAD_LETTER_TOPIC = CommonJobOptions.DEAD_LETTER_TOPIC;
    public static final JobOption<Duration> WINDOW = CommonJobOptions.WINDOW;
    public static final JobOption<String> TIME =
            JobOption.choice(
                    "time",
                    "event",
                    List.of("event", "processing"),
                    "whose time windows the reports: event (the broker's append time) or"
                            + " processing (the job's clock)");
    public static final JobOption<Integer> KEEP_VERSIONS =
            JobOption.integer("keep-versions", "4", "model versions kept decodable per app version")
                    .check(n -> n >= 1, "must be >= 1");
    public static final JobOption<Integer> TARGET_TOTAL =
            JobOption.integer(
                            "target-total",
                            Integer.toString(ModelUpdater.DEFAULT_TARGET_TOTAL),
                            "total of a branch node's integer frequencies in a new model")
                    .check(n -> n >= 2 && n <= 65536, "must be in [2, 65536]");
    public static final JobOption<String> GROUP_ID =
            CommonJobOptions.GROUP_ID.withDefault("fieldprof-path-model");
    public static final JobOption<Duration> CHECKPOINT_INTERVAL =
            CommonJobOptions.CHECKPOINT_INTERVAL;
    public static final JobOption<String> CHECKPOINT_DIR = CommonJobOptions.CHECKPOINT_DIR;
    public static final JobOption<String> TRANSACTIONAL_ID_PREFIX =
            CommonJobOptions.TRANSACTIONAL_ID_PREFIX.withDefault("fieldprof-path-model");
    public static final JobOption<Duration> TRANSACTION_TIMEOUT =
            CommonJobOptions.TRANSACTION_TIMEOUT;
    public static final JobOption<Duration> OUT_OF_ORDERNESS = CommonJobOptions.OUT_OF_ORDERNESS;
    public static final JobOption<Duration> IDLENESS = CommonJobOptions.IDLENESS;
    public static final JobOption<Duration> ALLOWED_LATENESS =
            JobOption.duration(
                            "allowed-lateness",
                            "1 d",
                            "how long after its window closed (event time) a report still counts,"
                                    + " in the window open when it arrives (the next model);"
                                    + " later ones are LATE dead letters")
                    .check(JobOption::notNegative, "must be >= 0");
    public static final JobOption<Duration> TABLE_WAIT =
            JobOption.duration(
                            "table-wait",
                            "1 min",
                            "how long (wall clock) a report waits for its branch table or for"
                                    + " the model version it names")
                    .check(JobOption::notNegative, "must be >= 0");
    public static final JobOption<Integer> SHARDS =
            JobOption.integer("shards", "4", "parallel edge counts per app version")
                    .check(n -> n >= 1 && n <= 4096, "must be in [1, 4096]");
    public static final JobOption<Integer> MAX_WAITING =
            JobOption.integer(
                            "max-waiting",
                            "10000",
                            "reports that may wait for a table or model at once, per subtask")
                    .check(n -> n >= 0, "must be >= 0");
    public static final JobOption<String> STATE_BACKEND = CommonJobOptions.STATE_BACKEND;
    public static final JobOption<Map<String, String>> BRANCHES =
            JobOption.of(
                    "branches",
                    "",
                    "APP:V=FILE,...",
                    PathJobOptions::readBranches,
                    branches -> String.join(",", new TreeMap<>(branches).keySet()),
                    "branch description files that override the program models' tables per app"
                            + " version (read when the options are parsed)");

    /** Every option of the job, in the order {@code --help} lists them. */
    public static final List<JobOption<?>> ALL =
            List.of(
                    BOOTSTRAP,
                    KAFKA_PROPERTIES,
                    REPORTS_TOPIC,
                    PROGRAMS_TOPIC,
                    MODELS_TOPIC,
                    DEAD_LETTER_TOPIC,
                    WINDOW,
                    TIME,
                    KEEP_VERSIONS,
                    TARGET_TOTAL,
                    GROUP_ID,
                    CHECKPOINT_INTERVAL,
                    CHECKPOINT_DIR,
                    TRANSACTIONAL_ID_PREFIX,
                    TRANSACTION_TIMEOUT,
                    OUT_OF_ORDERNESS,
                    IDLENESS,
                    ALLOWED_LATENESS,
                    TABLE_WAIT,
                    SHARDS,
                    MAX_WAITING,
                    STATE_BACKEND,
                    BRANCHES);

    private PathJobOptions(JobOptionValues values) {
        super(values);
    }

    /**
     * Parses {@code --key value} pairs.
     *
     * @throws IllegalArgumentException naming the option when one is unknown, missing, or bad
     */
    public static PathJobOptions parse(String... args) {
        return new PathJobOptions(JobOptionValues.parse(ALL, args));
    }

    /** What {@code --help} prints: every option with its meaning and default. */
    public static String help() {
        return JobOptionValues.help(ALL);
    }

    public String reportsTopic() {
        return get(REPORTS_TOPIC);
    }

    public String modelsTopic() {
        return get(MODELS_TOPIC);
    }

    /** Whether windows follow the job's clock instead of the reports' append times. */
    public boolean processingTime() {
        return get(TIME).equals("processing");
    }

    public int keepVersions() {
        return get(KEEP_VERSIONS);
    }

    public int targetTotal() {
        return get(TARGET_TOTAL);
    }

    public Duration allowedLateness() {
        return get(ALLOWED_LATENESS);
    }

    public Duration tableWait() {
        return get(TABLE_WAIT);
    }

    public int shards() {
        return get(SHARDS);
    }

    public int maxWaiting() {
        return get(MAX_WAITING);
    }

    /** App version → the text of its branch description file. */
    public Map<String, String> branches() {
        return get(BRANCHES);
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
                        "--branches expects appVersion=file, got '" + item + "'");
            }
            Path file = Path.of(item.substring(equals + 1).strip());
            String appVersion = item.substring(0, equals).strip();
            String text;
            try {
                text = Files.readString(file);
            } catch (IOException e) {
                throw new UncheckedIOException(
                        "--branches: cannot read " + file + ": " + e.getMessage(), e);
            }
            try {
                BranchTableText.parse(text);
            } catch (IllegalArgumentException bad) {
                throw new IllegalArgumentException(
                        "--branches of " + appVersion + ": " + bad.getMessage());
            }
            out.put(appVersion, text);
        }
        return Map.copyOf(out);
    }
}
