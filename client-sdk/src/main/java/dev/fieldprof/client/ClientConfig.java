package dev.fieldprof.client;

import dev.fieldprof.client.state.StateLock;
import dev.fieldprof.client.transport.kafka.KafkaClassNames;
import dev.fieldprof.ldp.PrivacyParameters;
import dev.fieldprof.schemas.PrivacyConfig;
import dev.fieldprof.schemas.PrivacyDefaults;
import dev.fieldprof.schemas.PrivacyMode;
import dev.fieldprof.schemas.Topics;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Collections;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;

/**
 * The one immutable configuration of a device runtime, validated when built: every message names
 * the setting and its valid range. Sources, later ones winning: the builder's defaults, the
 * classpath resource {@value #RESOURCE} (written by the instrumenter), then {@code fieldprof.<key>}
 * system properties. Keys are the {@code KEY_*} constants.
 */
public final class ClientConfig {
    /** Classpath resource the instrumenter writes into the instrumented jar. */
    public static final String RESOURCE = "META-INF/fieldprof/client.properties";

    /** Prefix of system properties overriding the resource: {@code fieldprof.privacy.k=...}. */
    public static final String SYSTEM_PREFIX = "fieldprof.";

    public static final String KEY_APP_VERSION = "app.version";
    public static final String KEY_DEVICE_ID = "device.id";
    public static final String KEY_METHOD_COUNT = "method.count";
    public static final String KEY_CONFIG_ID = "privacy.config.id";
    public static final String KEY_EPSILON = "privacy.epsilon";
    public static final String KEY_T = "privacy.t";
    public static final String KEY_K = "privacy.k";

    /**
     * {@code user-level} (the default: one event per epoch through the subset-selection oracle at
     * ε; t and k default to and must be 1) or {@code epsilon-t} (the ε-t randomizer of frequency
     * profiling, docs/references.md, with t and k, a report costing ε·k/t of user-level privacy).
     */
    public static final String KEY_MODE = "privacy.mode";

    public static final String KEY_EPOCH_SPAN = "epoch.span";
    public static final String KEY_EPOCH_END_AT_EXIT = "epoch.end.at.exit";
    public static final String KEY_CHECKPOINT_INTERVAL = "checkpoint.interval";
    public static final String KEY_STATE_DIR = "state.dir";
    public static final String KEY_REPORTS_PER_DAY = "reports.per.day.max";

    /**
     * How long a report waits for the state directory's lock (shared with every program reporting
     * from the same directory) before it is refused, in [PT0S, PT1M] (default PT5S).
     */
    public static final String KEY_STATE_LOCK_WAIT = "state.lock.wait";

    /**
     * User-level ε allowed per {@link #KEY_BUDGET_PERIOD} (default ln 9 a day, {@link
     * PrivacyDefaults}), or {@code none}, the only way to have no budget.
     */
    public static final String KEY_BUDGET = "privacy.budget";

    public static final String KEY_BUDGET_PERIOD = "privacy.budget.period";
    public static final String KEY_TRANSPORT = "transport";
    public static final String KEY_FILE_PATH = "transport.file.path";
    public static final String KEY_KAFKA_BOOTSTRAP = "transport.kafka.bootstrap.servers";
    public static final String KEY_KAFKA_TOPIC = "transport.kafka.topic";
    public static final String KEY_KAFKA_TIMEOUT = "transport.kafka.timeout";

    /**
     * Every other {@code transport.kafka.<property>} is a Kafka client property passed unchanged to
     * the device's producers and consumer ({@code transport.kafka.security.protocol=SASL_SSL},
     * {@code transport.kafka.sasl.jaas.config=...}), as Kafka's own tools take them.
     */
    public static final String KAFKA_CLIENT_PREFIX = "transport.kafka.";

    /**
     * A Kafka client properties file (the same one the CLI's {@code --kafka-properties} takes),
     * read when the configuration is built; {@code transport.kafka.<property>} keys win over it.
     */
    public static final String KEY_KAFKA_CONFIG_FILE = "transport.kafka.config.file";

    /**
     * How long the program's exit waits for the broker to take what is unsent (default PT2S, in
     * [PT0S, PT1M]); what it has not taken by then stays in the spool for the next run.
     */
    public static final String KEY_EXIT_WAIT = "transport.exit.wait";

    public static final String KEY_SPOOL_DIR = "transport.spool.dir";
    public static final String KEY_SPOOL_MAX_BYTES = "transport.spool.max.bytes";
    public static final String KEY_QUEUE_CAPACITY = "transport.queue.capacity";

    /**
     * Opt-in to path tracing ({@code true}/{@code false}, default false). Path reports are not
     * randomized: a device that opts in shares the paths its traced methods took, as they ran. The
     * machine's user's switch: {@link #withSystemProperties} takes it from a system property, the
     * agent's command line or the user's consent file, never from the program's own settings
     * ({@link PathsConsent}).
     */
    public static final String KEY_PATHS_ENABLED = "paths.enabled";

    /**
     * Path reports also carry the raw events, for exactness checks (default false); the user's
     * switch as {@link #KEY_PATHS_ENABLED} is.
     */
    public static final String KEY_PATHS_DEBUG = "paths.debug";

    /** Kafka topic of path reports (default {@value Topics#PATH_REPORTS}). */
    public static final String KEY_PATHS_REPORTS_TOPIC = "paths.kafka.reports.topic";

    /**
     * Compacted Kafka topic the edge models are read from (default {@value Topics#EDGE_MODELS}).
     */
    public static final String KEY_PATHS_MODELS_TOPIC = "paths.kafka.models.topic";

    /** Coded bytes at which a thread's path report is cut, in [16, 2^20] (default 16384). */
    public static final String KEY_PATHS_MAX_REPORT_BYTES = "paths.report.max.bytes";

    static final int MAX_METHOD_COUNT = 10_000_000;
    static final int MAX_K = 100_000_000;

    /** Where reports go. */
    public enum TransportKind {
        /** Reports are dropped after the ledger counts them (tests, dry runs). */
        NONE,
        /** Appended to a local file (offline runs, evaluations). */
        FILE,
        /** Sent to Kafka, spooled on disk while the broker is unreachable. */
        KAFKA
    }

    private final String appVersion;
    private final String deviceId;
    private final int methodCount;
    private final String configId;
    private final PrivacyParameters privacy;
    private final Duration epochSpan;
    private final boolean endEpochAtExit;
    private final Duration checkpointInterval;
    private final Path stateDir;
    // False when stateDir is the app's default, which follows the app name.
    private final boolean stateDirGiven;
    private final int reportsPerDayCap;
    private final Duration stateLockWait;
    private final double budget;
    private final Duration budgetPeriod;
    private final TransportKind transport;
    private final Path reportFile;
    private final String kafkaBootstrapServers;
    private final Map<String, String> kafkaClientProperties;
    private final String kafkaTopic;
    private final Duration kafkaTimeout;
    private final Duration exitWait;
    private final Path spoolDir;
    private final long spoolMaxBytes;
    private final int queueCapacity;
    private final boolean pathsEnabled;
    private final boolean pathsDebug;
    private final boolean programAskedForPaths;
    private final String pathReportsTopic;
    private final String edgeModelsTopic;
    private final int pathMaxReportBytes;

    private ClientConfig(Builder b) {
        this.appVersion = require(b.appVersion, KEY_APP_VERSION, "a non-empty 'app:version'");
        this.deviceId = b.deviceId == null || b.deviceId.isBlank() ? null : b.deviceId.trim();
        this.methodCount = checkRange(b.methodCount, KEY_METHOD_COUNT, 1, MAX_METHOD_COUNT);
        this.configId = require(b.configId, KEY_CONFIG_ID, "a non-empty id");
        if (b.mode == PrivacyMode.USER_LEVEL) {
            // One event per report (PrivacyParameters): t and k need not be configured.
            b.k = b.k == null ? Integer.valueOf(1) : b.k;
            b.t = b.t == null ? Integer.valueOf(1) : b.t;
            if (b.k != 1 || b.t != 1) {
                throw new IllegalArgumentException(
                        KEY_K
                                + " and "
                                + KEY_T
                                + " must be 1 when "
                                + KEY_MODE
                                + "=user-level (the default; "
                                + KEY_MODE
                                + "=epsilon-t for the epsilon-t mode), got k="
                                + b.k
                                + ", t="
                                + b.t);
            }
            if (b.methodCount != null && b.methodCount < 2) {
                throw new IllegalArgumentException(
                        KEY_METHOD_COUNT + " must be >= 2 when " + KEY_MODE + "=user-level");
            }
        }
        int k = checkRange(b.k, KEY_K, 1, MAX_K);
        int t = checkRange(b.t, KEY_T, 1, k);
        if (!(b.epsilon > 0) || b.epsilon.isInfinite()) {
            throw new IllegalArgumentException(
                    KEY_EPSILON + " must be finite and > 0, got " + b.epsilon);
        }
        try {
            this.privacy = new PrivacyParameters(b.mode, b.epsilon, t, k);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(KEY_EPSILON + ": " + e.getMessage(), e);
        }
        if (b.epochSpan != null && b.epochSpan.compareTo(Duration.ofSeconds(1)) < 0) {
            throw new IllegalArgumentException(
                    KEY_EPOCH_SPAN
                            + " must be 'manual', 'run' or a duration >= PT1S, got "
                            + b.epochSpan);
        }
        this.epochSpan = b.epochSpan;
        this.endEpochAtExit = b.endEpochAtExit;
        if (b.checkpointInterval != null
                && b.checkpointInterval.compareTo(Duration.ofSeconds(1)) < 0) {
            throw new IllegalArgumentException(
                    KEY_CHECKPOINT_INTERVAL
                            + " must be 'none' or a duration >= PT1S, got "
                            + b.checkpointInterval);
        }
        this.checkpointInterval = b.checkpointInterval;
        this.stateDirGiven = b.stateDir != null;
        this.stateDir =
                stateDirGiven
                        ? b.stateDir
                        : AppStateDirectory.of(System.getProperty("user.home"), appVersion);
        if (stateDir == null) {
            throw missing(KEY_STATE_DIR, "a directory path");
        }
        this.reportsPerDayCap = checkRange(b.reportsPerDayCap, KEY_REPORTS_PER_DAY, 1, 1_000_000);
        if (b.stateLockWait.isNegative() || b.stateLockWait.compareTo(Duration.ofMinutes(1)) > 0) {
            throw new IllegalArgumentException(
                    KEY_STATE_LOCK_WAIT + " must be in [PT0S, PT1M], got " + b.stateLockWait);
        }
        this.stateLockWait = b.stateLockWait;
        if (!(b.budget > 0)) {
            throw new IllegalArgumentException(
                    KEY_BUDGET + " must be a number > 0, ln(x) or none, got " + b.budget);
        }
        if (b.budgetPeriod.compareTo(Duration.ofSeconds(1)) < 0) {
            throw new IllegalArgumentException(
                    KEY_BUDGET_PERIOD + " must be at least 1 s, got " + b.budgetPeriod);
        }
        this.budget = b.budget;
        this.budgetPeriod = b.budgetPeriod;
        this.transport = b.transport;
        this.reportFile = b.reportFile != null ? b.reportFile : stateDir.resolve("reports.fpr");
        if (transport == TransportKind.KAFKA
                && (b.kafkaBootstrapServers == null || b.kafkaBootstrapServers.isBlank())) {
            throw missing(KEY_KAFKA_BOOTSTRAP, "host:port[,host:port...] when transport=kafka");
        }
        this.kafkaBootstrapServers = b.kafkaBootstrapServers;
        this.kafkaClientProperties = kafkaClientProperties(b);
        this.kafkaTopic = require(b.kafkaTopic, KEY_KAFKA_TOPIC, "a topic name");
        if (b.kafkaTimeout.compareTo(Duration.ofMillis(100)) < 0
                || b.kafkaTimeout.compareTo(Duration.ofHours(1)) > 0) {
            throw new IllegalArgumentException(
                    KEY_KAFKA_TIMEOUT + " must be in [PT0.1S, PT1H], got " + b.kafkaTimeout);
        }
        this.kafkaTimeout = b.kafkaTimeout;
        if (b.exitWait.isNegative() || b.exitWait.compareTo(Duration.ofMinutes(1)) > 0) {
            throw new IllegalArgumentException(
                    KEY_EXIT_WAIT + " must be in [PT0S, PT1M], got " + b.exitWait);
        }
        this.exitWait = b.exitWait;
        this.spoolDir = b.spoolDir != null ? b.spoolDir : stateDir.resolve("spool");
        if (b.spoolMaxBytes < 1 || b.spoolMaxBytes > (1L << 40)) {
            throw new IllegalArgumentException(
                    KEY_SPOOL_MAX_BYTES + " must be in [1, 2^40], got " + b.spoolMaxBytes);
        }
        this.spoolMaxBytes = b.spoolMaxBytes;
        this.queueCapacity = checkRange(b.queueCapacity, KEY_QUEUE_CAPACITY, 1, 1_000_000);
        this.pathsEnabled = b.pathsEnabled;
        this.pathsDebug = b.pathsDebug;
        this.programAskedForPaths = b.programAskedForPaths;
        this.pathReportsTopic =
                require(b.pathReportsTopic, KEY_PATHS_REPORTS_TOPIC, "a topic name");
        this.edgeModelsTopic = require(b.edgeModelsTopic, KEY_PATHS_MODELS_TOPIC, "a topic name");
        this.pathMaxReportBytes =
                checkRange(b.pathMaxReportBytes, KEY_PATHS_MAX_REPORT_BYTES, 16, 1 << 20);
    }

    private static String require(String value, String key, String expected) {
        if (value == null || value.isBlank()) {
            throw missing(key, expected);
        }
        return value.trim();
    }

    private static IllegalArgumentException missing(String key, String expected) {
        return new IllegalArgumentException(key + " is required: " + expected);
    }

    private static int checkRange(Integer value, String key, int min, int max) {
        if (value == null) {
            throw missing(key, "an integer in [" + min + ", " + max + "]");
        }
        if (value < min || value > max) {
            throw new IllegalArgumentException(
                    key + " must be in [" + min + ", " + max + "], got " + value);
        }
        return value;
    }

    /**
     * Starts a builder with the defaults: the privacy of {@link PrivacyDefaults} (user-level mode,
     * ε = ln 9 per report, a budget of ln 9 of user-level ε a day over every app version of the
     * state directory: at most one report a day), config id {@code default}, manual epochs (lazily
     * configured runtimes default to {@code epoch.span=run}: one epoch per program run),
     * checkpoints every minute, 24 reports per day, state (device id, budget, ledger) in the app's
     * own {@code ~/.fieldprof/apps/<app>} (the app of {@code app:version}, as a safe file name),
     * transport {@code file}, topic {@value Topics#FREQUENCY_REPORTS}, 16 MiB spool, queue of 1024
     * reports.
     *
     * <pre>{@code
     * ClientConfig config = ClientConfig.builder()
     *         .appVersion("demo:1.0").methodCount(120) // user-level, ln 9 a report and a day
     *         .stateDir(Path.of("/var/lib/app/fieldprof"))
     *         .build();
     * }</pre>
     */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder pre-filled from this configuration. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.appVersion = appVersion;
        b.deviceId = deviceId;
        b.methodCount = methodCount;
        b.configId = configId;
        b.epsilon = privacy.epsilon();
        b.mode = privacy.mode();
        b.t = privacy.t();
        b.k = privacy.k();
        b.epochSpan = epochSpan;
        b.endEpochAtExit = endEpochAtExit;
        b.checkpointInterval = checkpointInterval;
        b.stateDir = stateDirGiven ? stateDir : null;
        b.reportsPerDayCap = reportsPerDayCap;
        b.stateLockWait = stateLockWait;
        b.budget = budget;
        b.budgetPeriod = budgetPeriod;
        b.transport = transport;
        b.reportFile = reportFile;
        b.kafkaBootstrapServers = kafkaBootstrapServers;
        b.kafkaConfigFile = null; // already read into the client properties
        b.kafkaClientProperties.putAll(kafkaClientProperties);
        b.kafkaTopic = kafkaTopic;
        b.kafkaTimeout = kafkaTimeout;
        b.exitWait = exitWait;
        b.spoolDir = spoolDir;
        b.spoolMaxBytes = spoolMaxBytes;
        b.queueCapacity = queueCapacity;
        b.pathsEnabled = pathsEnabled;
        b.pathsDebug = pathsDebug;
        b.programAskedForPaths = programAskedForPaths;
        b.pathReportsTopic = pathReportsTopic;
        b.edgeModelsTopic = edgeModelsTopic;
        b.pathMaxReportBytes = pathMaxReportBytes;
        return b;
    }

    /**
     * Reads {@value #RESOURCE} through {@code loader} and applies {@code fieldprof.*} system
     * properties; empty if the resource is absent and no system property names an app version.
     */
    public static Optional<ClientConfig> fromClasspathAndSystemProperties(ClassLoader loader)
            throws IOException {
        ClassLoader effective = loader != null ? loader : ClientConfig.class.getClassLoader();
        Properties resource = null;
        try (InputStream in = effective.getResourceAsStream(RESOURCE)) {
            if (in != null) {
                resource = new Properties();
                resource.load(in);
            }
        }
        return withSystemProperties(resource);
    }

    /**
     * Applies {@code fieldprof.*} system properties over {@code resource} (what an instrumented
     * jar's {@value #RESOURCE} holds, or the device agent's equivalent from the program model; null
     * if none); empty if there is no resource and no system property names an app version. Path
     * tracing is the user's switch only: {@link #KEY_PATHS_ENABLED} and {@link #KEY_PATHS_DEBUG} in
     * {@code resource} are ignored ({@link PathsConsent}).
     */
    public static Optional<ClientConfig> withSystemProperties(Properties resource) {
        return withSystemProperties(resource, new Properties());
    }

    /**
     * As above, with {@code commandLine} (the device agent's options, keys without the prefix) over
     * the resource and under the system properties: set by whoever starts the program, they may
     * turn path tracing on.
     */
    public static Optional<ClientConfig> withSystemProperties(
            Properties resource, Properties commandLine) {
        Properties merged = new Properties();
        boolean programAskedForPaths = false;
        if (resource != null) {
            merged.putAll(resource);
            programAskedForPaths = PathsConsent.stripFromProgram(merged);
        }
        merged.putAll(commandLine);
        for (String name : System.getProperties().stringPropertyNames()) {
            if (name.startsWith(SYSTEM_PREFIX)) {
                merged.setProperty(
                        name.substring(SYSTEM_PREFIX.length()), System.getProperty(name));
            }
        }
        if (resource == null && merged.getProperty(KEY_APP_VERSION) == null) {
            return Optional.empty();
        }
        if (merged.getProperty(KEY_EPOCH_SPAN) == null
                && merged.getProperty(KEY_EPOCH_END_AT_EXIT) == null) {
            // An instrumented program nobody drives: one epoch per run of the program.
            merged.setProperty(KEY_EPOCH_SPAN, "run");
        }
        PathsConsent.fromUserFile(merged);
        Builder builder = builder().properties(merged);
        builder.programAskedForPaths = programAskedForPaths;
        return Optional.of(builder.build());
    }

    /** Builds a configuration from properties alone (keys without the system prefix). */
    public static ClientConfig fromProperties(Properties properties) {
        return builder().properties(properties).build();
    }

    /** fieldprof's own keys under {@link #KAFKA_CLIENT_PREFIX}, never passed to Kafka. */
    private static final Set<String> OWN_KAFKA_KEYS =
            Set.of(KEY_KAFKA_BOOTSTRAP, KEY_KAFKA_TOPIC, KEY_KAFKA_TIMEOUT, KEY_KAFKA_CONFIG_FILE);

    /**
     * The config file's properties under the ones set one by one.
     *
     * @throws IllegalArgumentException naming the setting and the file (never its contents)
     */
    private static Map<String, String> kafkaClientProperties(Builder b) {
        Map<String, String> merged = new TreeMap<>();
        if (b.kafkaConfigFile != null) {
            Properties file = new Properties();
            try (Reader in = Files.newBufferedReader(b.kafkaConfigFile)) {
                file.load(in);
            } catch (IOException | RuntimeException e) {
                throw new IllegalArgumentException(
                        KEY_KAFKA_CONFIG_FILE
                                + " must be a readable properties file, cannot read "
                                + b.kafkaConfigFile
                                + " ("
                                + e.getClass().getSimpleName()
                                + ")");
            }
            file.stringPropertyNames().forEach(name -> merged.put(name, file.getProperty(name)));
        }
        merged.putAll(b.kafkaClientProperties);
        merged.remove("bootstrap.servers"); // transport.kafka.bootstrap.servers names them
        return Collections.unmodifiableMap(KafkaClassNames.forLoadedClient(merged));
    }

    /** Collects settings; {@link #build()} validates them all. Not thread-safe. */
    public static final class Builder {
        private String appVersion;
        private String deviceId;
        private Integer methodCount;
        private String configId = "default";
        private Double epsilon = PrivacyDefaults.EPSILON;
        private PrivacyMode mode = PrivacyDefaults.MODE;
        private Integer t;
        private Integer k;
        private Duration epochSpan;
        private boolean endEpochAtExit;
        private Duration checkpointInterval = Duration.ofMinutes(1);
        // null: the app's default, AppStateDirectory.
        private Path stateDir;
        private Integer reportsPerDayCap = 24;
        private Duration stateLockWait = StateLock.DEFAULT_WAIT;
        private double budget = PrivacyDefaults.BUDGET;
        private Duration budgetPeriod = PrivacyDefaults.BUDGET_PERIOD;
        private TransportKind transport = TransportKind.FILE;
        private Path reportFile;
        private String kafkaBootstrapServers;
        private Path kafkaConfigFile;
        private final Map<String, String> kafkaClientProperties = new TreeMap<>();
        private String kafkaTopic = Topics.FREQUENCY_REPORTS;
        private Duration kafkaTimeout = Duration.ofSeconds(30);
        private Duration exitWait = Duration.ofSeconds(2);
        private Path spoolDir;
        private long spoolMaxBytes = 16L << 20;
        private Integer queueCapacity = 1024;
        private boolean pathsEnabled;
        private boolean pathsDebug;
        private boolean programAskedForPaths;
        private String pathReportsTopic = Topics.PATH_REPORTS;
        private String edgeModelsTopic = Topics.EDGE_MODELS;
        private Integer pathMaxReportBytes = 16 * 1024;

        private Builder() {}

        public Builder appVersion(String appVersion) {
            this.appVersion = appVersion;
            return this;
        }

        /** Pseudonymous device id; if unset, a random UUID is created once in the state dir. */
        public Builder deviceId(String deviceId) {
            this.deviceId = deviceId;
            return this;
        }

        public Builder methodCount(int methodCount) {
            this.methodCount = methodCount;
            return this;
        }

        /**
         * The ε-t mode with these parameters: a report of k events protects any t changed events at
         * ε and costs ε·k/t of user-level privacy (mind the budget).
         */
        public Builder privacy(String configId, double epsilon, int t, int k) {
            this.mode = PrivacyMode.EPSILON_T;
            this.configId = configId;
            this.epsilon = epsilon;
            this.t = t;
            this.k = k;
            return this;
        }

        /**
         * The user-level mode: one event per epoch through the subset-selection oracle at ε, t = k
         * = 1 ({@link PrivacyParameters}).
         */
        public Builder userLevelPrivacy(String configId, double epsilon) {
            this.configId = configId;
            this.epsilon = epsilon;
            this.mode = PrivacyMode.USER_LEVEL;
            this.t = 1;
            this.k = 1;
            return this;
        }

        /**
         * The privacy configuration a program model publishes, in its mode: {@link
         * #userLevelPrivacy} for USER_LEVEL, {@link #privacy(String, double, int, int)} otherwise.
         */
        public Builder privacy(PrivacyConfig config) {
            return config.getMode() == PrivacyMode.USER_LEVEL
                    ? userLevelPrivacy(config.getConfigId(), config.getEpsilon())
                    : privacy(
                            config.getConfigId(),
                            config.getEpsilon(),
                            config.getT(),
                            config.getK());
        }

        /** Time-based epochs of this span; null means manual epochs ({@code endEpoch()}). */
        public Builder epochSpan(Duration epochSpan) {
            this.epochSpan = epochSpan;
            return this;
        }

        /**
         * Whether the epoch open at JVM exit ends then (a report if it holds k events), so that one
         * run of the program is an epoch; otherwise it is only persisted and continues next run.
         */
        public Builder endEpochAtExit(boolean endEpochAtExit) {
            this.endEpochAtExit = endEpochAtExit;
            return this;
        }

        /** How often an open epoch's counts are persisted; null disables periodic checkpoints. */
        public Builder checkpointInterval(Duration checkpointInterval) {
            this.checkpointInterval = checkpointInterval;
            return this;
        }

        /**
         * Where the device keeps its id, budget, ledger and epoch state; used as given. Unset: the
         * app's own {@code ~/.fieldprof/apps/<app>} (see {@link #builder()}).
         */
        public Builder stateDir(Path stateDir) {
            this.stateDir = stateDir;
            return this;
        }

        public Builder reportsPerDayCap(int reportsPerDayCap) {
            this.reportsPerDayCap = reportsPerDayCap;
            return this;
        }

        /**
         * How long a report waits for the state directory's lock before it is refused, in [PT0S,
         * PT1M] (default {@link StateLock#DEFAULT_WAIT}).
         */
        public Builder stateLockWait(Duration wait) {
            this.stateLockWait = wait;
            return this;
        }

        /**
         * @param budget user-level ε allowed per period, > 0 (default ln 9); {@code
         *     Double.POSITIVE_INFINITY} for none
         * @param period the rolling period, >= 1 s (default one day)
         */
        public Builder budget(double budget, Duration period) {
            this.budget = budget;
            this.budgetPeriod = period;
            return this;
        }

        /**
         * No budget, asked for by name (as {@code privacy.budget=none}): the device spends what its
         * reports cost, the ledger still counts it. For simulations and tests, never a default.
         */
        public Builder noBudget() {
            this.budget = Double.POSITIVE_INFINITY;
            return this;
        }

        public Builder transport(TransportKind transport) {
            if (transport == null) {
                throw new IllegalArgumentException(KEY_TRANSPORT + " must not be null");
            }
            this.transport = transport;
            return this;
        }

        public Builder reportFile(Path reportFile) {
            this.reportFile = reportFile;
            return this;
        }

        public Builder kafka(String bootstrapServers, String topic) {
            this.kafkaBootstrapServers = bootstrapServers;
            this.kafkaTopic = topic;
            return this;
        }

        /**
         * A Kafka client properties file (security settings, say) read by {@link #build()}; the
         * properties set one by one win over it.
         */
        public Builder kafkaConfigFile(Path file) {
            this.kafkaConfigFile = file;
            return this;
        }

        /**
         * A Kafka client property passed unchanged to the device's Kafka clients, e.g. {@code
         * security.protocol}; {@code bootstrap.servers} is {@link #kafka}'s.
         */
        public Builder kafkaClientProperty(String name, String value) {
            this.kafkaClientProperties.put(name, value);
            return this;
        }

        /** Bound on every Kafka wait (metadata, request, delivery), in [PT0.1S, PT1H]. */
        public Builder kafkaTimeout(Duration kafkaTimeout) {
            this.kafkaTimeout = kafkaTimeout;
            return this;
        }

        /** How long the program's exit waits for unsent reports, in [PT0S, PT1M]. */
        public Builder exitWait(Duration exitWait) {
            this.exitWait = exitWait;
            return this;
        }

        public Builder spool(Path spoolDir, long maxBytes) {
            this.spoolDir = spoolDir;
            this.spoolMaxBytes = maxBytes;
            return this;
        }

        public Builder queueCapacity(int queueCapacity) {
            this.queueCapacity = queueCapacity;
            return this;
        }

        /** Applies every known key present in {@code p}; values are validated by build(). */
        /**
         * Path tracing on or off (default off). Path reports are not randomized: opting in means
         * sharing the paths the traced methods took.
         */
        public Builder paths(boolean enabled, boolean debug) {
            this.pathsEnabled = enabled;
            this.pathsDebug = debug;
            return this;
        }

        /** Kafka topics of path reports and of edge models. */
        public Builder pathTopics(String reportsTopic, String modelsTopic) {
            this.pathReportsTopic = reportsTopic;
            this.edgeModelsTopic = modelsTopic;
            return this;
        }

        /** Coded bytes at which a thread's path report is cut, 16 <= bytes <= 2^20. */
        public Builder pathMaxReportBytes(int bytes) {
            this.pathMaxReportBytes = bytes;
            return this;
        }

        public Builder properties(Properties p) {
            String v;
            if ((v = get(p, KEY_APP_VERSION)) != null) {
                appVersion = v;
            }
            if ((v = get(p, KEY_DEVICE_ID)) != null) {
                deviceId = v;
            }
            if ((v = get(p, KEY_METHOD_COUNT)) != null) {
                methodCount = parseInt(KEY_METHOD_COUNT, v);
            }
            if ((v = get(p, KEY_CONFIG_ID)) != null) {
                configId = v;
            }
            if ((v = get(p, KEY_EPSILON)) != null) {
                try {
                    epsilon = PrivacyParameters.parseEpsilon(v);
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException(
                            KEY_EPSILON + " must be a number > 0 or ln(x), got '" + v + "'");
                }
            }
            if ((v = get(p, KEY_MODE)) != null) {
                switch (v.trim().toLowerCase(Locale.ROOT)) {
                    case "epsilon-t", "epsilon_t" -> mode = PrivacyMode.EPSILON_T;
                    case "user-level", "user_level" -> mode = PrivacyMode.USER_LEVEL;
                    default ->
                            throw new IllegalArgumentException(
                                    KEY_MODE
                                            + " must be 'epsilon-t' or 'user-level', got '"
                                            + v
                                            + "'");
                }
            }
            if ((v = get(p, KEY_T)) != null) {
                t = parseInt(KEY_T, v);
            }
            if ((v = get(p, KEY_K)) != null) {
                k = parseInt(KEY_K, v);
            }
            if ((v = get(p, KEY_EPOCH_SPAN)) != null) {
                if ("manual".equalsIgnoreCase(v)) {
                    epochSpan = null;
                } else if ("run".equalsIgnoreCase(v)) {
                    epochSpan = null;
                    endEpochAtExit = true;
                } else {
                    epochSpan = parseDuration(KEY_EPOCH_SPAN, v);
                }
            }
            if ((v = get(p, KEY_EPOCH_END_AT_EXIT)) != null) {
                if (!v.equalsIgnoreCase("true") && !v.equalsIgnoreCase("false")) {
                    throw new IllegalArgumentException(
                            KEY_EPOCH_END_AT_EXIT + " must be true or false, got '" + v + "'");
                }
                endEpochAtExit = Boolean.parseBoolean(v);
            }
            if ((v = get(p, KEY_CHECKPOINT_INTERVAL)) != null) {
                checkpointInterval =
                        "none".equalsIgnoreCase(v)
                                ? null
                                : parseDuration(KEY_CHECKPOINT_INTERVAL, v);
            }
            if ((v = get(p, KEY_STATE_DIR)) != null) {
                stateDir = Paths.get(v);
            }
            if ((v = get(p, KEY_REPORTS_PER_DAY)) != null) {
                reportsPerDayCap = parseInt(KEY_REPORTS_PER_DAY, v);
            }
            if ((v = get(p, KEY_STATE_LOCK_WAIT)) != null) {
                stateLockWait = parseDuration(KEY_STATE_LOCK_WAIT, v);
            }
            if ((v = get(p, KEY_BUDGET)) != null) {
                if (PrivacyDefaults.NO_BUDGET.equalsIgnoreCase(v)) {
                    budget = Double.POSITIVE_INFINITY;
                } else {
                    try {
                        budget = PrivacyParameters.parseEpsilon(v);
                    } catch (IllegalArgumentException e) {
                        throw new IllegalArgumentException(
                                KEY_BUDGET
                                        + " must be a number > 0, ln(x) or none, got '"
                                        + v
                                        + "'");
                    }
                }
            }
            if ((v = get(p, KEY_BUDGET_PERIOD)) != null) {
                budgetPeriod = parseDuration(KEY_BUDGET_PERIOD, v);
            }
            if ((v = get(p, KEY_TRANSPORT)) != null) {
                try {
                    transport = TransportKind.valueOf(v.toUpperCase(Locale.ROOT));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException(
                            KEY_TRANSPORT + " must be one of none, file, kafka, got '" + v + "'");
                }
            }
            if ((v = get(p, KEY_FILE_PATH)) != null) {
                reportFile = Paths.get(v);
            }
            if ((v = get(p, KEY_KAFKA_BOOTSTRAP)) != null) {
                kafkaBootstrapServers = v;
            }
            if ((v = get(p, KEY_KAFKA_CONFIG_FILE)) != null) {
                kafkaConfigFile = Paths.get(v);
            }
            for (String name : p.stringPropertyNames()) {
                if (name.startsWith(KAFKA_CLIENT_PREFIX) && !OWN_KAFKA_KEYS.contains(name)) {
                    // Passed unchanged: a password may end in a space.
                    kafkaClientProperties.put(
                            name.substring(KAFKA_CLIENT_PREFIX.length()), p.getProperty(name));
                }
            }
            if ((v = get(p, KEY_KAFKA_TOPIC)) != null) {
                kafkaTopic = v;
            }
            if ((v = get(p, KEY_KAFKA_TIMEOUT)) != null) {
                kafkaTimeout = parseDuration(KEY_KAFKA_TIMEOUT, v);
            }
            if ((v = get(p, KEY_EXIT_WAIT)) != null) {
                exitWait = parseDuration(KEY_EXIT_WAIT, v);
            }
            if ((v = get(p, KEY_SPOOL_DIR)) != null) {
                spoolDir = Paths.get(v);
            }
            if ((v = get(p, KEY_SPOOL_MAX_BYTES)) != null) {
                try {
                    spoolMaxBytes = Long.parseLong(v);
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException(
                            KEY_SPOOL_MAX_BYTES
                                    + " must be an integer in [1, 2^40], got '"
                                    + v
                                    + "'");
                }
            }
            if ((v = get(p, KEY_QUEUE_CAPACITY)) != null) {
                queueCapacity = parseInt(KEY_QUEUE_CAPACITY, v);
            }
            if ((v = get(p, KEY_PATHS_ENABLED)) != null) {
                pathsEnabled = parseBoolean(KEY_PATHS_ENABLED, v);
            }
            if ((v = get(p, KEY_PATHS_DEBUG)) != null) {
                pathsDebug = parseBoolean(KEY_PATHS_DEBUG, v);
            }
            if ((v = get(p, KEY_PATHS_REPORTS_TOPIC)) != null) {
                pathReportsTopic = v;
            }
            if ((v = get(p, KEY_PATHS_MODELS_TOPIC)) != null) {
                edgeModelsTopic = v;
            }
            if ((v = get(p, KEY_PATHS_MAX_REPORT_BYTES)) != null) {
                pathMaxReportBytes = parseInt(KEY_PATHS_MAX_REPORT_BYTES, v);
            }
            return this;
        }

        private static String get(Properties p, String key) {
            String value = p.getProperty(key);
            return value == null ? null : value.trim();
        }

        private static boolean parseBoolean(String key, String value) {
            if (value.equalsIgnoreCase("true") || value.equalsIgnoreCase("false")) {
                return Boolean.parseBoolean(value);
            }
            throw new IllegalArgumentException(key + " must be true or false, got '" + value + "'");
        }

        private static int parseInt(String key, String value) {
            try {
                return Integer.parseInt(value);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(
                        key + " must be an integer, got '" + value + "'");
            }
        }

        private static Duration parseDuration(String key, String value) {
            try {
                return Duration.parse(value.toUpperCase(Locale.ROOT));
            } catch (DateTimeParseException e) {
                throw new IllegalArgumentException(
                        key + " must be an ISO-8601 duration such as PT1H, got '" + value + "'");
            }
        }

        /** Validates every setting and returns the immutable configuration. */
        public ClientConfig build() {
            return new ClientConfig(this);
        }
    }

    public String appVersion() {
        return appVersion;
    }

    /** The configured device id, or empty when the runtime creates one in the state dir. */
    public Optional<String> deviceId() {
        return Optional.ofNullable(deviceId);
    }

    public int methodCount() {
        return methodCount;
    }

    public String configId() {
        return configId;
    }

    public PrivacyParameters privacy() {
        return privacy;
    }

    /** The epoch span, or empty for manual epochs. */
    public Optional<Duration> epochSpan() {
        return Optional.ofNullable(epochSpan);
    }

    /** Whether the epoch open at JVM exit ends then (one epoch per program run). */
    public boolean endEpochAtExit() {
        return endEpochAtExit;
    }

    public Optional<Duration> checkpointInterval() {
        return Optional.ofNullable(checkpointInterval);
    }

    public Path stateDir() {
        return stateDir;
    }

    public int reportsPerDayCap() {
        return reportsPerDayCap;
    }

    /** How long a report waits for the state directory's lock before it is refused. */
    public Duration stateLockWait() {
        return stateLockWait;
    }

    /** User-level ε allowed per {@link #budgetPeriod()}; infinite when there is no budget. */
    public double budget() {
        return budget;
    }

    public Duration budgetPeriod() {
        return budgetPeriod;
    }

    public TransportKind transport() {
        return transport;
    }

    public Path reportFile() {
        return reportFile;
    }

    public String kafkaBootstrapServers() {
        return kafkaBootstrapServers;
    }

    /**
     * Kafka client properties for every Kafka client of the device (from {@link
     * #KEY_KAFKA_CONFIG_FILE} and the {@code transport.kafka.*} pass-through), without the
     * bootstrap servers. May hold secrets: never log the values.
     */
    public Map<String, String> kafkaClientProperties() {
        return kafkaClientProperties;
    }

    public String kafkaTopic() {
        return kafkaTopic;
    }

    public Duration kafkaTimeout() {
        return kafkaTimeout;
    }

    /** How long the program's exit waits for the broker to take what is unsent. */
    public Duration exitWait() {
        return exitWait;
    }

    public Path spoolDir() {
        return spoolDir;
    }

    public long spoolMaxBytes() {
        return spoolMaxBytes;
    }

    public int queueCapacity() {
        return queueCapacity;
    }

    /** Whether the device opted in to path tracing (path reports are not randomized). */
    public boolean pathsEnabled() {
        return pathsEnabled;
    }

    /** Whether path reports also carry the raw events. */
    public boolean pathsDebug() {
        return pathsDebug;
    }

    /**
     * Whether the program's own settings asked for path tracing, which only the machine's user can
     * turn on ({@link PathsConsent}): to say why it is off.
     */
    public boolean programAskedForPaths() {
        return programAskedForPaths;
    }

    public String pathReportsTopic() {
        return pathReportsTopic;
    }

    public String edgeModelsTopic() {
        return edgeModelsTopic;
    }

    public int pathMaxReportBytes() {
        return pathMaxReportBytes;
    }

    @Override
    public String toString() {
        return "ClientConfig(appVersion="
                + appVersion
                + ", methods="
                + methodCount
                + ", "
                + configId
                + " "
                + privacy
                + ", epochSpan="
                + (epochSpan == null ? "manual" : epochSpan)
                + (endEpochAtExit ? "+exit" : "")
                + ", stateDir="
                + stateDir
                + ", transport="
                + transport
                + (pathsEnabled ? ", paths" + (pathsDebug ? "+debug" : "") : "")
                + ")";
    }
}
