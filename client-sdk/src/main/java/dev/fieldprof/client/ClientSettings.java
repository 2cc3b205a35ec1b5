package dev.fieldprof.client;

import dev.fieldprof.client.ClientConfig.PathTracerKind;
import dev.fieldprof.client.ClientConfig.TransportKind;
import dev.fieldprof.client.state.StateLock;
import dev.fieldprof.client.tracing.StagedPathTracer;
import dev.fieldprof.ldp.PrivacyParameters;
import dev.fieldprof.schemas.PrivacyDefaults;
import dev.fieldprof.schemas.PrivacyMode;
import dev.fieldprof.schemas.Topics;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * Every setting of {@link ClientConfig}, declared once ({@link ClientSetting}): {@link
 * ClientConfig.Builder#properties} reads them, {@link ClientConfig.Builder#build()} checks them and
 * {@link #markdown()} is docs/client-config.md. A new setting is a declaration here, in {@link
 * #ALL}, plus its builder setter and getter on {@link ClientConfig}.
 */
final class ClientSettings {
    static final int MAX_METHOD_COUNT = 10_000_000;
    static final int MAX_K = 100_000_000;

    private static final Duration ONE_SECOND = Duration.ofSeconds(1);
    private static final Duration ONE_MINUTE = Duration.ofMinutes(1);

    static final ClientSetting<String> APP_VERSION =
            ClientSetting.text("app.version", null, "the program and its version, `app:version`")
                    .requiredAs("a non-empty 'app:version'");

    static final ClientSetting<String> DEVICE_ID =
            ClientSetting.text("device.id", null, "pseudonymous device id")
                    .defaultText("a random UUID, made once in `state.dir`");

    static final ClientSetting<Integer> METHOD_COUNT =
            ClientSetting.integer(
                    "method.count",
                    null,
                    1,
                    MAX_METHOD_COUNT,
                    "methods of the program model (at least 2 in the user-level mode)");

    static final ClientSetting<String> CONFIG_ID =
            ClientSetting.text(
                            "privacy.config.id",
                            "default",
                            "id of the privacy configuration the reports name")
                    .requiredAs("a non-empty id");

    static final ClientSetting<Double> EPSILON =
            ClientSetting.parsed(
                            "privacy.epsilon",
                            "number or ln(x)",
                            "a number > 0 or ln(x)",
                            PrivacyParameters::parseEpsilon,
                            PrivacyDefaults.EPSILON,
                            "ε of each report")
                    .check(e -> e > 0 && !e.isInfinite(), "must be finite and > 0")
                    .defaultText("`" + PrivacyDefaults.EPSILON_TEXT + "`");

    static final ClientSetting<PrivacyMode> MODE =
            ClientSetting.parsed(
                            "privacy.mode",
                            "user-level|epsilon-t",
                            "'epsilon-t' or 'user-level'",
                            ClientSettings::parseMode,
                            PrivacyDefaults.MODE,
                            "`user-level`: one event per epoch through the subset-selection"
                                    + " oracle at ε, t = k = 1; `epsilon-t`: the ε-t randomizer"
                                    + " of frequency profiling with t and k, a report costing"
                                    + " ε·k/t of user-level privacy")
                    .defaultText("`user-level`");

    /** Checked against {@link #K} by {@link ClientConfig}: t is in [1, k]. */
    static final ClientSetting<Integer> T =
            ClientSetting.parsed(
                            "privacy.t",
                            "integer",
                            "an integer",
                            Integer::parseInt,
                            null,
                            "events of a report protected at ε together, in [1, k] (1 in the"
                                    + " user-level mode)")
                    .defaultText("`1` in the user-level mode, else required");

    static final ClientSetting<Integer> K =
            ClientSetting.integer(
                            "privacy.k",
                            null,
                            1,
                            MAX_K,
                            "events of a report (1 in the user-level mode)")
                    .defaultText("`1` in the user-level mode, else required");

    static final ClientSetting<Integer> SHUFFLER_MIN_BATCH =
            ClientSetting.parsed(
                            "privacy.shuffler.min.batch.size",
                            "integer",
                            "an integer",
                            Integer::parseInt,
                            null,
                            "the shuffled mode: the least batch the shuffler releases (what the"
                                    + " central guarantee rests on, with `privacy.shuffler.delta`);"
                                    + " reports are then sealed to the analyst's key and sent to"
                                    + " the shuffler, ε being each report's local ε₀")
                    .check(n -> n >= 2, "must be an integer >= 2")
                    .defaultText("unset: local-only, reports go straight to the analyst");

    static final ClientSetting<Double> SHUFFLER_DELTA =
            ClientSetting.parsed(
                            "privacy.shuffler.delta",
                            "number",
                            "a number in (0, 1)",
                            Double::parseDouble,
                            null,
                            "δ of the shuffled mode's central (ε, δ) guarantee")
                    .check(d -> d > 0 && d < 1, "must be in (0, 1)")
                    .defaultText("required with `privacy.shuffler.min.batch.size`");

    static final ClientSetting<Path> ANALYST_PUBLIC_KEYSET =
            ClientSetting.path(
                            "shuffler.analyst.public.keyset",
                            "the analyst's public keyset (`fieldprof keys generate` writes"
                                    + " analyst-public.json) that a shuffled configuration's"
                                    + " reports are sealed to; missing, unreadable or holding a"
                                    + " private key: no report of that configuration is sent (the"
                                    + " drop is counted as UNSEALABLE)")
                    .defaultText("unset: a shuffled configuration sends nothing");

    static final ClientSetting<Duration> EPOCH_SPAN =
            ClientSetting.duration(
                            "epoch.span",
                            null,
                            "span of time-based epochs; `manual`: epochs end when the program"
                                    + " says; `run`: one epoch per program run (sets"
                                    + " `epoch.end.at.exit=true`)")
                    .orWord("manual", null)
                    .orWord("run", null)
                    .check(
                            span -> span.compareTo(ONE_SECOND) >= 0,
                            "must be 'manual', 'run' or a duration >= PT1S")
                    .defaultText("`manual`; `run` for a runtime that configures itself");

    static final ClientSetting<Boolean> EPOCH_END_AT_EXIT =
            ClientSetting.bool(
                    "epoch.end.at.exit",
                    false,
                    "whether the epoch open at JVM exit ends then (a report if it holds k"
                            + " events); otherwise it is persisted and continues next run");

    static final ClientSetting<Duration> CHECKPOINT_INTERVAL =
            ClientSetting.duration(
                            "checkpoint.interval",
                            ONE_MINUTE,
                            "how often an open epoch's counts are persisted; `none`: never")
                    .orWord("none", null)
                    .check(
                            interval -> interval.compareTo(ONE_SECOND) >= 0,
                            "must be 'none' or a duration >= PT1S");

    static final ClientSetting<Path> STATE_DIR =
            ClientSetting.path(
                            "state.dir",
                            "where the device keeps its id, budget, ledger and epoch state; used"
                                    + " as given")
                    .defaultText("`~/.fieldprof/apps/<app>`, `<app>` from `app.version`");

    static final ClientSetting<Integer> REPORTS_PER_DAY =
            ClientSetting.integer(
                    "reports.per.day.max",
                    24,
                    1,
                    1_000_000,
                    "reports a device sends a day at most");

    static final ClientSetting<Duration> STATE_LOCK_WAIT =
            ClientSetting.duration(
                            "state.lock.wait",
                            StateLock.DEFAULT_WAIT,
                            "how long a report waits for the state directory's lock (shared with"
                                    + " every program reporting from it) before it is refused")
                    .check(
                            wait -> !wait.isNegative() && wait.compareTo(ONE_MINUTE) <= 0,
                            "must be in [PT0S, PT1M]")
                    .requiredAs("a duration in [PT0S, PT1M]");

    static final ClientSetting<Double> BUDGET =
            ClientSetting.parsed(
                            "privacy.budget",
                            "number or ln(x)",
                            "a number > 0, ln(x) or none",
                            PrivacyParameters::parseEpsilon,
                            PrivacyDefaults.BUDGET,
                            "user-level ε a device may spend per `privacy.budget.period`, over"
                                    + " every app of its state directory; `none`: no budget")
                    .orWord(PrivacyDefaults.NO_BUDGET, Double.POSITIVE_INFINITY)
                    .check(budget -> budget > 0, "must be a number > 0, ln(x) or none")
                    .defaultText("`" + PrivacyDefaults.BUDGET_TEXT + "`");

    static final ClientSetting<Duration> BUDGET_PERIOD =
            ClientSetting.duration(
                            "privacy.budget.period",
                            PrivacyDefaults.BUDGET_PERIOD,
                            "the rolling period of the budget")
                    .check(period -> period.compareTo(ONE_SECOND) >= 0, "must be at least 1 s")
                    .requiredAs("a duration of at least 1 s");

    static final ClientSetting<TransportKind> TRANSPORT =
            ClientSetting.parsed(
                            "transport",
                            "none|file|kafka",
                            "one of none, file, kafka",
                            text -> TransportKind.valueOf(text.toUpperCase(Locale.ROOT)),
                            TransportKind.FILE,
                            "where reports go: dropped after the ledger counts them, appended to"
                                    + " a local file, or sent to Kafka (spooled while the broker"
                                    + " is unreachable)")
                    .defaultText("`file`");

    static final ClientSetting<Path> REPORT_FILE =
            ClientSetting.path("transport.file.path", "the report file of `transport=file`")
                    .defaultText("`<state.dir>/reports.fpr`");

    static final ClientSetting<String> KAFKA_BOOTSTRAP =
            ClientSetting.parsed(
                            "transport.kafka.bootstrap.servers",
                            "host:port[,host:port...]",
                            "text",
                            text -> text,
                            null,
                            "the brokers of `transport=kafka`")
                    .defaultText("required when `transport=kafka`");

    static final ClientSetting<Path> KAFKA_CONFIG_FILE =
            ClientSetting.path(
                    "transport.kafka.config.file",
                    "a Kafka client properties file (the one the CLI's `--kafka-properties`"
                            + " takes), read when the configuration is built;"
                            + " `transport.kafka.<property>` keys win over it");

    static final ClientSetting<String> KAFKA_TOPIC =
            ClientSetting.text(
                            "transport.kafka.topic",
                            Topics.FREQUENCY_REPORTS,
                            "Kafka topic of frequency reports")
                    .requiredAs("a topic name");

    static final ClientSetting<String> SHUFFLER_TOPIC =
            ClientSetting.text(
                            "transport.kafka.shuffler.topic",
                            Topics.SHUFFLER_INPUT,
                            "Kafka topic of sealed reports (the shuffled mode)")
                    .requiredAs("a topic name");

    static final ClientSetting<Duration> KAFKA_TIMEOUT =
            ClientSetting.duration(
                            "transport.kafka.timeout",
                            Duration.ofSeconds(30),
                            "bound on every Kafka wait (metadata, request, delivery)")
                    .check(
                            timeout ->
                                    timeout.compareTo(Duration.ofMillis(100)) >= 0
                                            && timeout.compareTo(Duration.ofHours(1)) <= 0,
                            "must be in [PT0.1S, PT1H]")
                    .requiredAs("a duration in [PT0.1S, PT1H]");

    static final ClientSetting<Duration> EXIT_WAIT =
            ClientSetting.duration(
                            "transport.exit.wait",
                            Duration.ofSeconds(2),
                            "how long the program's exit waits for the broker to take what is"
                                    + " unsent; what it has not taken stays in the spool for the"
                                    + " next run")
                    .check(
                            wait -> !wait.isNegative() && wait.compareTo(ONE_MINUTE) <= 0,
                            "must be in [PT0S, PT1M]")
                    .requiredAs("a duration in [PT0S, PT1M]");

    static final ClientSetting<Path> SPOOL_DIR =
            ClientSetting.path(
                            "transport.spool.dir",
                            "where reports wait while the broker is unreachable")
                    .defaultText("`<state.dir>/spool`");

    static final ClientSetting<Long> SPOOL_MAX_BYTES =
            ClientSetting.parsed(
                            "transport.spool.max.bytes",
                            "integer",
                            "an integer in [1, 2^40]",
                            Long::parseLong,
                            16L << 20,
                            "bytes the spool holds at most")
                    .check(bytes -> bytes >= 1 && bytes <= (1L << 40), "must be in [1, 2^40]");

    static final ClientSetting<Integer> QUEUE_CAPACITY =
            ClientSetting.integer(
                    "transport.queue.capacity",
                    1024,
                    1,
                    1_000_000,
                    "reports waiting for the transport at most");

    static final ClientSetting<Boolean> PATHS_ENABLED =
            ClientSetting.bool(
                    "paths.enabled",
                    false,
                    "opt-in to path tracing; path reports are not randomized. The machine's"
                            + " user's switch: never taken from the program's own settings");

    static final ClientSetting<Boolean> PATHS_DEBUG =
            ClientSetting.bool(
                    "paths.debug",
                    false,
                    "path reports also carry the raw events, for exactness checks; the user's"
                            + " switch as `paths.enabled` is");

    static final ClientSetting<String> PATHS_REPORTS_TOPIC =
            ClientSetting.text(
                            "paths.kafka.reports.topic",
                            Topics.PATH_REPORTS,
                            "Kafka topic of path reports")
                    .requiredAs("a topic name");

    static final ClientSetting<String> PATHS_MODELS_TOPIC =
            ClientSetting.text(
                            "paths.kafka.models.topic",
                            Topics.EDGE_MODELS,
                            "compacted Kafka topic the edge models are read from")
                    .requiredAs("a topic name");

    static final ClientSetting<Integer> PATHS_MAX_REPORT_BYTES =
            ClientSetting.integer(
                    "paths.report.max.bytes",
                    16 * 1024,
                    16,
                    1 << 20,
                    "coded bytes at which a thread's path report is cut");

    static final ClientSetting<PathTracerKind> PATHS_TRACER =
            ClientSetting.parsed(
                            "paths.tracer",
                            "direct|staged",
                            "one of direct, staged",
                            text -> PathTracerKind.valueOf(text.toUpperCase(Locale.ROOT)),
                            PathTracerKind.DIRECT,
                            "how a traced thread's path is coded: `direct`, each probe event at"
                                    + " once on the traced thread (path format 3); `staged`, raw"
                                    + " events appended to a buffer per thread and coded in"
                                    + " batches on a low-priority coder thread (format 4), a"
                                    + " buffer the coder has no room for dropped whole and"
                                    + " counted")
                    .defaultText("`direct`");

    static final ClientSetting<Integer> PATHS_SEGMENT_EVENTS =
            ClientSetting.integer(
                    "paths.staged.segment.events",
                    8192,
                    16,
                    1 << 20,
                    "raw events of the buffer each traced thread fills (4 bytes an event) with"
                            + " `paths.tracer=staged`");

    static final ClientSetting<Integer> PATHS_QUEUE_SEGMENTS =
            ClientSetting.integer(
                    "paths.staged.queue.segments",
                    16,
                    1,
                    4096,
                    "full buffers waiting for the coder at most, over all threads (and at most "
                            + StagedPathTracer.MAX_QUEUED_PER_THREAD
                            + " of one thread's), with `paths.tracer=staged`: the raw events held"
                            + " are at most (traced threads + this) × `paths.staged.segment.events`"
                            + " × 4 bytes");

    static final ClientSetting<Path> PATHS_SPOOL_DIR =
            ClientSetting.path(
                            "paths.spool.dir",
                            "where path reports wait while the broker cannot take them (not"
                                    + " reachable yet, or not acknowledging within"
                                    + " `transport.kafka.timeout`); sent once it answers, or by"
                                    + " the next run")
                    .defaultText("`<state.dir>/paths-spool`");

    static final ClientSetting<Long> PATHS_SPOOL_MAX_BYTES =
            ClientSetting.parsed(
                            "paths.spool.max.bytes",
                            "integer",
                            "an integer in [1, 2^40]",
                            Long::parseLong,
                            16L << 20,
                            "bytes the path report spool holds at most; past it the oldest path"
                                    + " report is deleted and counted (JMX"
                                    + " `PathReportsSpoolFull`). Before the spool, at most 256"
                                    + " path reports wait in memory for the sink's thread; one"
                                    + " more is dropped and counted (`PathReportsQueueFull`)")
                    .check(bytes -> bytes >= 1 && bytes <= (1L << 40), "must be in [1, 2^40]");

    /**
     * Every setting, in the order properties are read and values checked (and the docs list them).
     */
    static final List<ClientSetting<?>> ALL =
            List.of(
                    APP_VERSION,
                    DEVICE_ID,
                    METHOD_COUNT,
                    CONFIG_ID,
                    EPSILON,
                    MODE,
                    T,
                    K,
                    SHUFFLER_MIN_BATCH,
                    SHUFFLER_DELTA,
                    ANALYST_PUBLIC_KEYSET,
                    EPOCH_SPAN,
                    EPOCH_END_AT_EXIT,
                    CHECKPOINT_INTERVAL,
                    STATE_DIR,
                    REPORTS_PER_DAY,
                    STATE_LOCK_WAIT,
                    BUDGET,
                    BUDGET_PERIOD,
                    TRANSPORT,
                    REPORT_FILE,
                    KAFKA_BOOTSTRAP,
                    KAFKA_CONFIG_FILE,
                    KAFKA_TOPIC,
                    SHUFFLER_TOPIC,
                    KAFKA_TIMEOUT,
                    EXIT_WAIT,
                    SPOOL_DIR,
                    SPOOL_MAX_BYTES,
                    QUEUE_CAPACITY,
                    PATHS_ENABLED,
                    PATHS_DEBUG,
                    PATHS_REPORTS_TOPIC,
                    PATHS_MODELS_TOPIC,
                    PATHS_MAX_REPORT_BYTES,
                    PATHS_TRACER,
                    PATHS_SEGMENT_EVENTS,
                    PATHS_QUEUE_SEGMENTS,
                    PATHS_SPOOL_DIR,
                    PATHS_SPOOL_MAX_BYTES);

    private ClientSettings() {}

    private static PrivacyMode parseMode(String text) {
        return switch (text.toLowerCase(Locale.ROOT)) {
            case "epsilon-t", "epsilon_t" -> PrivacyMode.EPSILON_T;
            case "user-level", "user_level" -> PrivacyMode.USER_LEVEL;
            default -> throw new IllegalArgumentException(text);
        };
    }

    /** docs/client-config.md: how the settings are given, then one table row per setting. */
    static String markdown() {
        StringBuilder out =
                new StringBuilder(
                        """
                        # Client settings

                        <!-- Generated from the declarations of client-sdk's ClientSettings; \
                        ClientSettingsTest checks that this file equals them. -->

                        A device runtime (the client SDK in an instrumented program, or the device \
                        agent) reads these settings, later sources winning: the defaults below \
                        (`ClientConfig.builder()`), the instrumented jar's \
                        `META-INF/fieldprof/client.properties`, the device agent's options, then \
                        `fieldprof.<key>` system properties (`-Dfieldprof.privacy.budget=none`). \
                        Every value is checked when the configuration is built, and a refused \
                        one is named on one line: `<key> must be ..., got <value>`.

                        Every other `transport.kafka.<property>` is a Kafka client property \
                        passed unchanged to the device's Kafka clients \
                        (`transport.kafka.security.protocol=SASL_SSL`), over those of \
                        `transport.kafka.config.file`.

                        `paths.enabled` and `paths.debug` count only from the machine's user: a \
                        system property, the device agent's `paths` option or \
                        `consent.properties` in the user's state directory, never the program's \
                        own `client.properties` ([cli.md](cli.md)).

                        | key | accepts | default | meaning |
                        |---|---|---|---|
                        """);
        for (ClientSetting<?> setting : ALL) {
            out.append("| `")
                    .append(setting.key())
                    .append("` | ")
                    .append(cell(setting.accepts()))
                    .append(" | ")
                    .append(cell(setting.defaultText()))
                    .append(" | ")
                    .append(cell(setting.description()))
                    .append(" |\n");
        }
        return out.toString();
    }

    private static String cell(String text) {
        return text.replace("|", "\\|");
    }
}
