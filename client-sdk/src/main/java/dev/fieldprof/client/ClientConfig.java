package dev.fieldprof.client;

import static dev.fieldprof.client.ClientSettings.ALL;
import static dev.fieldprof.client.ClientSettings.ANALYST_PUBLIC_KEYSET;
import static dev.fieldprof.client.ClientSettings.APP_VERSION;
import static dev.fieldprof.client.ClientSettings.BUDGET;
import static dev.fieldprof.client.ClientSettings.BUDGET_PERIOD;
import static dev.fieldprof.client.ClientSettings.CHECKPOINT_INTERVAL;
import static dev.fieldprof.client.ClientSettings.CONFIG_ID;
import static dev.fieldprof.client.ClientSettings.DEVICE_ID;
import static dev.fieldprof.client.ClientSettings.EPOCH_END_AT_EXIT;
import static dev.fieldprof.client.ClientSettings.EPOCH_SPAN;
import static dev.fieldprof.client.ClientSettings.EPSILON;
import static dev.fieldprof.client.ClientSettings.EXIT_WAIT;
import static dev.fieldprof.client.ClientSettings.K;
import static dev.fieldprof.client.ClientSettings.KAFKA_BOOTSTRAP;
import static dev.fieldprof.client.ClientSettings.KAFKA_CONFIG_FILE;
import static dev.fieldprof.client.ClientSettings.KAFKA_TIMEOUT;
import static dev.fieldprof.client.ClientSettings.KAFKA_TOPIC;
import static dev.fieldprof.client.ClientSettings.METHOD_COUNT;
import static dev.fieldprof.client.ClientSettings.MODE;
import static dev.fieldprof.client.ClientSettings.PATHS_DEBUG;
import static dev.fieldprof.client.ClientSettings.PATHS_ENABLED;
import static dev.fieldprof.client.ClientSettings.PATHS_MAX_REPORT_BYTES;
import static dev.fieldprof.client.ClientSettings.PATHS_MODELS_TOPIC;
import static dev.fieldprof.client.ClientSettings.PATHS_QUEUE_SEGMENTS;
import static dev.fieldprof.client.ClientSettings.PATHS_REPORTS_TOPIC;
import static dev.fieldprof.client.ClientSettings.PATHS_SEGMENT_EVENTS;
import static dev.fieldprof.client.ClientSettings.PATHS_SPOOL_DIR;
import static dev.fieldprof.client.ClientSettings.PATHS_SPOOL_MAX_BYTES;
import static dev.fieldprof.client.ClientSettings.PATHS_TRACER;
import static dev.fieldprof.client.ClientSettings.QUEUE_CAPACITY;
import static dev.fieldprof.client.ClientSettings.REPORTS_PER_DAY;
import static dev.fieldprof.client.ClientSettings.REPORT_FILE;
import static dev.fieldprof.client.ClientSettings.SHUFFLER_DELTA;
import static dev.fieldprof.client.ClientSettings.SHUFFLER_MIN_BATCH;
import static dev.fieldprof.client.ClientSettings.SHUFFLER_TOPIC;
import static dev.fieldprof.client.ClientSettings.SPOOL_DIR;
import static dev.fieldprof.client.ClientSettings.SPOOL_MAX_BYTES;
import static dev.fieldprof.client.ClientSettings.STATE_DIR;
import static dev.fieldprof.client.ClientSettings.STATE_LOCK_WAIT;
import static dev.fieldprof.client.ClientSettings.T;
import static dev.fieldprof.client.ClientSettings.TRANSPORT;

import dev.fieldprof.client.state.StateLock;
import dev.fieldprof.client.transport.kafka.KafkaClassNames;
import dev.fieldprof.ldp.PrivacyParameters;
import dev.fieldprof.schemas.PrivacyConfig;
import dev.fieldprof.schemas.PrivacyDefaults;
import dev.fieldprof.schemas.PrivacyMode;
import dev.fieldprof.schemas.ShufflerTerms;
import dev.fieldprof.schemas.Topics;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The one immutable configuration of a device runtime, validated when built: every message names
 * the setting and the value it refuses. Sources, later ones winning: the builder's defaults, the
 * classpath resource {@value #RESOURCE} (written by the instrumenter), then {@code fieldprof.<key>}
 * system properties. Each setting is declared once, with its key, default, checks and meaning, in
 * {@code ClientSettings}; docs/client-config.md lists them all.
 */
public final class ClientConfig {
    /** Classpath resource the instrumenter writes into the instrumented jar. */
    public static final String RESOURCE = "META-INF/fieldprof/client.properties";

    /** Prefix of system properties overriding the resource: {@code fieldprof.privacy.k=...}. */
    public static final String SYSTEM_PREFIX = "fieldprof.";

    // The keys of docs/client-config.md, one per declared setting.
    public static final String KEY_APP_VERSION = APP_VERSION.key();
    public static final String KEY_DEVICE_ID = DEVICE_ID.key();
    public static final String KEY_METHOD_COUNT = METHOD_COUNT.key();
    public static final String KEY_CONFIG_ID = CONFIG_ID.key();
    public static final String KEY_EPSILON = EPSILON.key();
    public static final String KEY_T = T.key();
    public static final String KEY_K = K.key();
    public static final String KEY_MODE = MODE.key();
    public static final String KEY_EPOCH_SPAN = EPOCH_SPAN.key();
    public static final String KEY_EPOCH_END_AT_EXIT = EPOCH_END_AT_EXIT.key();
    public static final String KEY_CHECKPOINT_INTERVAL = CHECKPOINT_INTERVAL.key();
    public static final String KEY_STATE_DIR = STATE_DIR.key();
    public static final String KEY_REPORTS_PER_DAY = REPORTS_PER_DAY.key();
    public static final String KEY_STATE_LOCK_WAIT = STATE_LOCK_WAIT.key();
    public static final String KEY_BUDGET = BUDGET.key();
    public static final String KEY_BUDGET_PERIOD = BUDGET_PERIOD.key();
    public static final String KEY_TRANSPORT = TRANSPORT.key();
    public static final String KEY_FILE_PATH = REPORT_FILE.key();
    public static final String KEY_KAFKA_BOOTSTRAP = KAFKA_BOOTSTRAP.key();
    public static final String KEY_KAFKA_TOPIC = KAFKA_TOPIC.key();
    public static final String KEY_SHUFFLER_TOPIC = SHUFFLER_TOPIC.key();
    public static final String KEY_SHUFFLER_MIN_BATCH = SHUFFLER_MIN_BATCH.key();
    public static final String KEY_SHUFFLER_DELTA = SHUFFLER_DELTA.key();
    public static final String KEY_ANALYST_PUBLIC_KEYSET = ANALYST_PUBLIC_KEYSET.key();
    public static final String KEY_KAFKA_TIMEOUT = KAFKA_TIMEOUT.key();
    public static final String KEY_KAFKA_CONFIG_FILE = KAFKA_CONFIG_FILE.key();
    public static final String KEY_EXIT_WAIT = EXIT_WAIT.key();
    public static final String KEY_SPOOL_DIR = SPOOL_DIR.key();
    public static final String KEY_SPOOL_MAX_BYTES = SPOOL_MAX_BYTES.key();
    public static final String KEY_QUEUE_CAPACITY = QUEUE_CAPACITY.key();

    /**
     * Opt-in to path tracing, the machine's user's switch: {@link #withSystemProperties} takes it
     * from a system property, the agent's command line or the user's consent file, never from the
     * program's own settings ({@link PathsConsent}).
     */
    public static final String KEY_PATHS_ENABLED = PATHS_ENABLED.key();

    /**
     * Path reports also carry the raw events; the user's switch as {@link #KEY_PATHS_ENABLED} is.
     */
    public static final String KEY_PATHS_DEBUG = PATHS_DEBUG.key();

    public static final String KEY_PATHS_REPORTS_TOPIC = PATHS_REPORTS_TOPIC.key();
    public static final String KEY_PATHS_MODELS_TOPIC = PATHS_MODELS_TOPIC.key();
    public static final String KEY_PATHS_MAX_REPORT_BYTES = PATHS_MAX_REPORT_BYTES.key();
    public static final String KEY_PATHS_TRACER = PATHS_TRACER.key();
    public static final String KEY_PATHS_SEGMENT_EVENTS = PATHS_SEGMENT_EVENTS.key();
    public static final String KEY_PATHS_QUEUE_SEGMENTS = PATHS_QUEUE_SEGMENTS.key();
    public static final String KEY_PATHS_SPOOL_DIR = PATHS_SPOOL_DIR.key();
    public static final String KEY_PATHS_SPOOL_MAX_BYTES = PATHS_SPOOL_MAX_BYTES.key();

    /**
     * Every other {@code transport.kafka.<property>} is a Kafka client property passed unchanged to
     * the device's producers and consumer ({@code transport.kafka.security.protocol=SASL_SSL},
     * {@code transport.kafka.sasl.jaas.config=...}), as Kafka's own tools take them.
     */
    public static final String KAFKA_CLIENT_PREFIX = "transport.kafka.";

    /** fieldprof's own keys under {@link #KAFKA_CLIENT_PREFIX}, never passed to Kafka. */
    private static final Set<String> OWN_KAFKA_KEYS =
            ALL.stream()
                    .map(ClientSetting::key)
                    .filter(key -> key.startsWith(KAFKA_CLIENT_PREFIX))
                    .collect(Collectors.toUnmodifiableSet());

    /** Where reports go. */
    public enum TransportKind {
        /** Reports are dropped after the ledger counts them (tests, dry runs). */
        NONE,
        /** Appended to a local file (offline runs, evaluations). */
        FILE,
        /** Sent to Kafka, spooled on disk while the broker is unreachable. */
        KAFKA
    }

    /** How a traced thread's path is coded, and so which path format its reports are in. */
    public enum PathTracerKind {
        /** Each probe event coded at once on the traced thread (path format 3). */
        DIRECT,
        /**
         * Raw events appended to a buffer per thread, coded in batches on a low-priority coder
         * thread (path format 4); a buffer the coder's bounded queue has no room for is dropped
         * whole and counted.
         */
        STAGED
    }

    // The checked values; state.dir as given (null: the app's default), the others resolved.
    private final ClientSettingValues values;
    private final PrivacyParameters privacy;
    private final Path stateDir;
    private final Map<String, String> kafkaClientProperties;
    private final boolean programAskedForPaths;

    private ClientConfig(Builder b) {
        ClientSettingValues v = b.values.copy();
        requireOneEventWhenUserLevel(v);
        for (ClientSetting<?> setting : ALL) {
            v.validate(setting);
        }
        this.privacy = privacy(v);
        if ((v.get(SHUFFLER_MIN_BATCH) == null) != (v.get(SHUFFLER_DELTA) == null)) {
            throw ClientSetting.missing(
                    v.get(SHUFFLER_MIN_BATCH) == null ? KEY_SHUFFLER_MIN_BATCH : KEY_SHUFFLER_DELTA,
                    "both shuffler terms or neither");
        }
        Path givenStateDir = v.get(STATE_DIR);
        this.stateDir =
                givenStateDir != null
                        ? givenStateDir
                        : AppStateDirectory.of(System.getProperty("user.home"), v.get(APP_VERSION));
        if (stateDir == null) {
            throw ClientSetting.missing(KEY_STATE_DIR, "a directory path");
        }
        if (v.get(REPORT_FILE) == null) {
            v.set(REPORT_FILE, stateDir.resolve("reports.fpr"));
        }
        if (v.get(SPOOL_DIR) == null) {
            v.set(SPOOL_DIR, stateDir.resolve("spool"));
        }
        if (v.get(PATHS_SPOOL_DIR) == null) {
            v.set(PATHS_SPOOL_DIR, stateDir.resolve("paths-spool"));
        }
        String bootstrap = v.get(KAFKA_BOOTSTRAP);
        if (v.get(TRANSPORT) == TransportKind.KAFKA && (bootstrap == null || bootstrap.isBlank())) {
            throw ClientSetting.missing(
                    KEY_KAFKA_BOOTSTRAP, "host:port[,host:port...] when transport=kafka");
        }
        this.kafkaClientProperties = kafkaClientProperties(v.get(KAFKA_CONFIG_FILE), b);
        this.programAskedForPaths = b.programAskedForPaths;
        this.values = v;
    }

    /**
     * The user-level mode reports one event (PrivacyParameters): t and k need not be configured,
     * and other values are refused before their own checks.
     */
    private static void requireOneEventWhenUserLevel(ClientSettingValues v) {
        if (v.get(MODE) != PrivacyMode.USER_LEVEL) {
            return;
        }
        Integer k = v.get(K) == null ? Integer.valueOf(1) : v.get(K);
        Integer t = v.get(T) == null ? Integer.valueOf(1) : v.get(T);
        v.set(K, k);
        v.set(T, t);
        if (k != 1 || t != 1) {
            throw new IllegalArgumentException(
                    KEY_K
                            + " and "
                            + KEY_T
                            + " must be 1 when "
                            + KEY_MODE
                            + "=user-level (the default; "
                            + KEY_MODE
                            + "=epsilon-t for the epsilon-t mode), got k="
                            + k
                            + ", t="
                            + t);
        }
    }

    /** The privacy of checked values: t in [1, k], and what PrivacyParameters refuses. */
    private static PrivacyParameters privacy(ClientSettingValues v) {
        if (v.get(MODE) == PrivacyMode.USER_LEVEL && v.get(METHOD_COUNT) < 2) {
            throw new IllegalArgumentException(
                    KEY_METHOD_COUNT + " must be >= 2 when " + KEY_MODE + "=user-level");
        }
        int k = v.get(K);
        Integer t = v.get(T);
        if (t == null) {
            throw ClientSetting.missing(KEY_T, "an integer in [1, " + k + "]");
        }
        if (t < 1 || t > k) {
            throw new IllegalArgumentException(KEY_T + " must be in [1, " + k + "], got " + t);
        }
        try {
            return new PrivacyParameters(v.get(MODE), v.get(EPSILON), t, k);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(KEY_EPSILON + ": " + e.getMessage(), e);
        }
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
        b.values.copyFrom(values);
        b.values.set(KAFKA_CONFIG_FILE, null); // already read into the client properties
        b.kafkaClientProperties.putAll(kafkaClientProperties);
        b.programAskedForPaths = programAskedForPaths;
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

    /**
     * The config file's properties under the ones set one by one.
     *
     * @throws IllegalArgumentException naming the setting and the file (never its contents)
     */
    private static Map<String, String> kafkaClientProperties(Path configFile, Builder b) {
        Map<String, String> merged = new TreeMap<>();
        if (configFile != null) {
            Properties file = new Properties();
            try (Reader in = Files.newBufferedReader(configFile)) {
                file.load(in);
            } catch (IOException | RuntimeException e) {
                throw new IllegalArgumentException(
                        KEY_KAFKA_CONFIG_FILE
                                + " must be a readable properties file, cannot read "
                                + configFile
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

    /**
     * Collects settings (each at its declared default until set); {@link #build()} validates them
     * all. Not thread-safe.
     */
    public static final class Builder {
        private final ClientSettingValues values = ClientSettingValues.defaults();
        private final Map<String, String> kafkaClientProperties = new TreeMap<>();
        private boolean programAskedForPaths;

        private Builder() {}

        private <T> Builder set(ClientSetting<T> setting, T value) {
            values.set(setting, value);
            return this;
        }

        public Builder appVersion(String appVersion) {
            return set(APP_VERSION, appVersion);
        }

        /** Pseudonymous device id; if unset, a random UUID is created once in the state dir. */
        public Builder deviceId(String deviceId) {
            return set(DEVICE_ID, deviceId);
        }

        public Builder methodCount(int methodCount) {
            return set(METHOD_COUNT, methodCount);
        }

        /**
         * The ε-t mode with these parameters: a report of k events protects any t changed events at
         * ε and costs ε·k/t of user-level privacy (mind the budget).
         */
        public Builder privacy(String configId, double epsilon, int t, int k) {
            return set(MODE, PrivacyMode.EPSILON_T)
                    .set(CONFIG_ID, configId)
                    .set(EPSILON, epsilon)
                    .set(T, t)
                    .set(K, k);
        }

        /**
         * The user-level mode: one event per epoch through the subset-selection oracle at ε, t = k
         * = 1 ({@link PrivacyParameters}).
         */
        public Builder userLevelPrivacy(String configId, double epsilon) {
            return set(CONFIG_ID, configId)
                    .set(EPSILON, epsilon)
                    .set(MODE, PrivacyMode.USER_LEVEL)
                    .set(T, 1)
                    .set(K, 1);
        }

        /**
         * The privacy configuration a program model publishes, in its mode: {@link
         * #userLevelPrivacy} for USER_LEVEL, {@link #privacy(String, double, int, int)} otherwise.
         */
        public Builder privacy(PrivacyConfig config) {
            ShufflerTerms terms = config.getShuffler();
            set(SHUFFLER_MIN_BATCH, terms == null ? null : terms.getMinBatchSize());
            set(SHUFFLER_DELTA, terms == null ? null : terms.getDelta());
            return config.getMode() == PrivacyMode.USER_LEVEL
                    ? userLevelPrivacy(config.getConfigId(), config.getEpsilon())
                    : privacy(
                            config.getConfigId(),
                            config.getEpsilon(),
                            config.getT(),
                            config.getK());
        }

        /**
         * The shuffled mode: reports are sealed to the analyst's public key ({@link
         * #analystPublicKeyset}) and sent to the shuffler, which releases batches of at least
         * {@code minBatchSize}; ε is then each report's local ε₀, and the central (ε, δ) holds at
         * {@code delta} while the shuffler does not collude with the analyst.
         */
        public Builder shuffled(int minBatchSize, double delta) {
            return set(SHUFFLER_MIN_BATCH, minBatchSize).set(SHUFFLER_DELTA, delta);
        }

        /** The analyst's public keyset file (Tink JSON) a shuffled configuration seals to. */
        public Builder analystPublicKeyset(Path file) {
            return set(ANALYST_PUBLIC_KEYSET, file);
        }

        /** The Kafka topic of sealed reports (default {@code fieldprof.shuffler.input}). */
        public Builder shufflerTopic(String topic) {
            return set(SHUFFLER_TOPIC, topic);
        }

        /** Time-based epochs of this span; null means manual epochs ({@code endEpoch()}). */
        public Builder epochSpan(Duration epochSpan) {
            return set(EPOCH_SPAN, epochSpan);
        }

        /**
         * Whether the epoch open at JVM exit ends then (a report if it holds k events), so that one
         * run of the program is an epoch; otherwise it is only persisted and continues next run.
         */
        public Builder endEpochAtExit(boolean endEpochAtExit) {
            return set(EPOCH_END_AT_EXIT, endEpochAtExit);
        }

        /** How often an open epoch's counts are persisted; null disables periodic checkpoints. */
        public Builder checkpointInterval(Duration checkpointInterval) {
            return set(CHECKPOINT_INTERVAL, checkpointInterval);
        }

        /**
         * Where the device keeps its id, budget, ledger and epoch state; used as given. Unset: the
         * app's own {@code ~/.fieldprof/apps/<app>} (see {@link #builder()}).
         */
        public Builder stateDir(Path stateDir) {
            return set(STATE_DIR, stateDir);
        }

        public Builder reportsPerDayCap(int reportsPerDayCap) {
            return set(REPORTS_PER_DAY, reportsPerDayCap);
        }

        /**
         * How long a report waits for the state directory's lock before it is refused, in [PT0S,
         * PT1M] (default {@link StateLock#DEFAULT_WAIT}).
         */
        public Builder stateLockWait(Duration wait) {
            return set(STATE_LOCK_WAIT, wait);
        }

        /**
         * @param budget user-level ε allowed per period, > 0 (default ln 9); {@code
         *     Double.POSITIVE_INFINITY} for none
         * @param period the rolling period, >= 1 s (default one day)
         */
        public Builder budget(double budget, Duration period) {
            return set(BUDGET, budget).set(BUDGET_PERIOD, period);
        }

        /**
         * No budget, asked for by name (as {@code privacy.budget=none}): the device spends what its
         * reports cost, the ledger still counts it. For simulations and tests, never a default.
         */
        public Builder noBudget() {
            return set(BUDGET, Double.POSITIVE_INFINITY);
        }

        public Builder transport(TransportKind transport) {
            if (transport == null) {
                throw new IllegalArgumentException(KEY_TRANSPORT + " must not be null");
            }
            return set(TRANSPORT, transport);
        }

        public Builder reportFile(Path reportFile) {
            return set(REPORT_FILE, reportFile);
        }

        public Builder kafka(String bootstrapServers, String topic) {
            return set(KAFKA_BOOTSTRAP, bootstrapServers).set(KAFKA_TOPIC, topic);
        }

        /**
         * A Kafka client properties file (security settings, say) read by {@link #build()}; the
         * properties set one by one win over it.
         */
        public Builder kafkaConfigFile(Path file) {
            return set(KAFKA_CONFIG_FILE, file);
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
            return set(KAFKA_TIMEOUT, kafkaTimeout);
        }

        /** How long the program's exit waits for unsent reports, in [PT0S, PT1M]. */
        public Builder exitWait(Duration exitWait) {
            return set(EXIT_WAIT, exitWait);
        }

        public Builder spool(Path spoolDir, long maxBytes) {
            return set(SPOOL_DIR, spoolDir).set(SPOOL_MAX_BYTES, maxBytes);
        }

        public Builder queueCapacity(int queueCapacity) {
            return set(QUEUE_CAPACITY, queueCapacity);
        }

        /**
         * Path tracing on or off (default off). Path reports are not randomized: opting in means
         * sharing the paths the traced methods took.
         */
        public Builder paths(boolean enabled, boolean debug) {
            return set(PATHS_ENABLED, enabled).set(PATHS_DEBUG, debug);
        }

        /** Kafka topics of path reports and of edge models. */
        public Builder pathTopics(String reportsTopic, String modelsTopic) {
            return set(PATHS_REPORTS_TOPIC, reportsTopic).set(PATHS_MODELS_TOPIC, modelsTopic);
        }

        /** Where path reports wait while the broker cannot take them, and its cap in bytes. */
        public Builder pathSpool(Path spoolDir, long maxBytes) {
            return set(PATHS_SPOOL_DIR, spoolDir).set(PATHS_SPOOL_MAX_BYTES, maxBytes);
        }

        /** Coded bytes at which a thread's path report is cut, 16 <= bytes <= 2^20. */
        public Builder pathMaxReportBytes(int bytes) {
            return set(PATHS_MAX_REPORT_BYTES, bytes);
        }

        /** How a traced thread's path is coded (default {@link PathTracerKind#DIRECT}). */
        public Builder pathTracer(PathTracerKind kind) {
            return set(PATHS_TRACER, kind);
        }

        /**
         * The staged tracer's memory: raw events of each thread's buffer (16 <= events <= 2^20) and
         * full buffers waiting for the coder over all threads (1 <= segments <= 4096).
         */
        public Builder pathBuffers(int segmentEvents, int queueSegments) {
            return set(PATHS_SEGMENT_EVENTS, segmentEvents)
                    .set(PATHS_QUEUE_SEGMENTS, queueSegments);
        }

        /**
         * Applies every declared key present in {@code p} (values trimmed) and passes the other
         * {@code transport.kafka.*} keys through as Kafka client properties (untrimmed: a password
         * may end in a space); values out of range are refused by {@link #build()}.
         *
         * @throws IllegalArgumentException naming a key whose text is not a value of its type
         */
        public Builder properties(Properties p) {
            for (ClientSetting<?> setting : ALL) {
                String text = p.getProperty(setting.key());
                if (text != null) {
                    parse(setting, text.trim());
                }
            }
            for (String name : p.stringPropertyNames()) {
                if (name.startsWith(KAFKA_CLIENT_PREFIX) && !OWN_KAFKA_KEYS.contains(name)) {
                    kafkaClientProperties.put(
                            name.substring(KAFKA_CLIENT_PREFIX.length()), p.getProperty(name));
                }
            }
            return this;
        }

        private <T> void parse(ClientSetting<T> setting, String text) {
            set(setting, setting.parse(text));
            if (setting == EPOCH_SPAN && text.equalsIgnoreCase("run")) {
                // One epoch per run; an epoch.end.at.exit given too, read next, still wins.
                set(EPOCH_END_AT_EXIT, true);
            }
        }

        /** Validates every setting and returns the immutable configuration. */
        public ClientConfig build() {
            return new ClientConfig(this);
        }
    }

    public String appVersion() {
        return values.get(APP_VERSION);
    }

    /** The configured device id, or empty when the runtime creates one in the state dir. */
    public Optional<String> deviceId() {
        return Optional.ofNullable(values.get(DEVICE_ID));
    }

    public int methodCount() {
        return values.get(METHOD_COUNT);
    }

    public String configId() {
        return values.get(CONFIG_ID);
    }

    public PrivacyParameters privacy() {
        return privacy;
    }

    /** The epoch span, or empty for manual epochs. */
    public Optional<Duration> epochSpan() {
        return Optional.ofNullable(values.get(EPOCH_SPAN));
    }

    /** Whether the epoch open at JVM exit ends then (one epoch per program run). */
    public boolean endEpochAtExit() {
        return values.get(EPOCH_END_AT_EXIT);
    }

    public Optional<Duration> checkpointInterval() {
        return Optional.ofNullable(values.get(CHECKPOINT_INTERVAL));
    }

    public Path stateDir() {
        return stateDir;
    }

    public int reportsPerDayCap() {
        return values.get(REPORTS_PER_DAY);
    }

    /** How long a report waits for the state directory's lock before it is refused. */
    public Duration stateLockWait() {
        return values.get(STATE_LOCK_WAIT);
    }

    /** User-level ε allowed per {@link #budgetPeriod()}; infinite when there is no budget. */
    public double budget() {
        return values.get(BUDGET);
    }

    public Duration budgetPeriod() {
        return values.get(BUDGET_PERIOD);
    }

    public TransportKind transport() {
        return values.get(TRANSPORT);
    }

    public Path reportFile() {
        return values.get(REPORT_FILE);
    }

    public String kafkaBootstrapServers() {
        return values.get(KAFKA_BOOTSTRAP);
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
        return values.get(KAFKA_TOPIC);
    }

    /**
     * The shuffled mode's terms when the configuration is one (its reports are sealed and sent to
     * the shuffler), empty when it is local-only.
     */
    public Optional<ShufflerTerms> shuffler() {
        Integer minBatch = values.get(SHUFFLER_MIN_BATCH);
        return minBatch == null
                ? Optional.empty()
                : Optional.of(new ShufflerTerms(minBatch, values.get(SHUFFLER_DELTA)));
    }

    /** The analyst's public keyset file a shuffled configuration seals to; null when unset. */
    public Path analystPublicKeyset() {
        return values.get(ANALYST_PUBLIC_KEYSET);
    }

    /** The Kafka topic of sealed reports. */
    public String shufflerTopic() {
        return values.get(SHUFFLER_TOPIC);
    }

    public Duration kafkaTimeout() {
        return values.get(KAFKA_TIMEOUT);
    }

    /** How long the program's exit waits for the broker to take what is unsent. */
    public Duration exitWait() {
        return values.get(EXIT_WAIT);
    }

    public Path spoolDir() {
        return values.get(SPOOL_DIR);
    }

    public long spoolMaxBytes() {
        return values.get(SPOOL_MAX_BYTES);
    }

    public int queueCapacity() {
        return values.get(QUEUE_CAPACITY);
    }

    /** Whether the device opted in to path tracing (path reports are not randomized). */
    public boolean pathsEnabled() {
        return values.get(PATHS_ENABLED);
    }

    /** Whether path reports also carry the raw events. */
    public boolean pathsDebug() {
        return values.get(PATHS_DEBUG);
    }

    /**
     * Whether the program's own settings asked for path tracing, which only the machine's user can
     * turn on ({@link PathsConsent}): to say why it is off.
     */
    public boolean programAskedForPaths() {
        return programAskedForPaths;
    }

    public String pathReportsTopic() {
        return values.get(PATHS_REPORTS_TOPIC);
    }

    public String edgeModelsTopic() {
        return values.get(PATHS_MODELS_TOPIC);
    }

    public int pathMaxReportBytes() {
        return values.get(PATHS_MAX_REPORT_BYTES);
    }

    public PathTracerKind pathTracer() {
        return values.get(PATHS_TRACER);
    }

    /** Raw events of the buffer each thread fills with the staged tracer. */
    public int pathSegmentEvents() {
        return values.get(PATHS_SEGMENT_EVENTS);
    }

    /** Full buffers waiting for the staged tracer's coder at most, over all threads. */
    public int pathQueueSegments() {
        return values.get(PATHS_QUEUE_SEGMENTS);
    }

    /** Where path reports wait while the broker cannot take them. */
    public Path pathSpoolDir() {
        return values.get(PATHS_SPOOL_DIR);
    }

    /** Bytes the path report spool holds at most. */
    public long pathSpoolMaxBytes() {
        return values.get(PATHS_SPOOL_MAX_BYTES);
    }

    @Override
    public String toString() {
        return "ClientConfig(appVersion="
                + appVersion()
                + ", methods="
                + methodCount()
                + ", "
                + configId()
                + " "
                + privacy
                + ", epochSpan="
                + epochSpan().map(Duration::toString).orElse("manual")
                + (endEpochAtExit() ? "+exit" : "")
                + ", stateDir="
                + stateDir
                + ", transport="
                + transport()
                + (pathsEnabled()
                        ? ", paths"
                                + (pathsDebug() ? "+debug" : "")
                                + (pathTracer() == PathTracerKind.STAGED ? "+staged" : "")
                        : "")
                + ")";
    }
}
