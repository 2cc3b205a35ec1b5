package dev.fieldprof.schemas;

import java.util.List;
import java.util.Map;

/**
 * Names of the Kafka topics of docs/architecture.md, "Topics and records": the contract between
 * parts.
 */
public final class Topics {
    /** Compacted; ProgramModel keyed by app version. */
    public static final String PROGRAMS = "fieldprof.programs";

    /** FrequencyReport keyed by device id. */
    public static final String FREQUENCY_REPORTS = "fieldprof.reports.frequency";

    /**
     * FrequencyReport records re-submitted from dead letters by {@code fieldprof dead-letters
     * replay}, keyed by the original record's {@link ReplayKeys coordinates} and stamped with its
     * original record time (the producer's timestamp): the frequency job counts each once, in its
     * original window. Written by the operator only, never by devices.
     */
    public static final String FREQUENCY_REPLAY = "fieldprof.reports.frequency.replay";

    /**
     * SealedReport keyed by device id: the shuffled mode's input. Devices write it, only the
     * shuffler reads it; the analyst has no access.
     */
    public static final String SHUFFLER_INPUT = "fieldprof.shuffler.input";

    /**
     * ShuffledBatch keyed by batch id and part: what the shuffler released. Only the shuffler
     * writes it and only the analyst's frequency job reads it.
     */
    public static final String SHUFFLED_REPORTS = "fieldprof.reports.shuffled";

    /** PathReport keyed by device id. */
    public static final String PATH_REPORTS = "fieldprof.reports.paths";

    /**
     * Compacted changelog; EstimateWindow keyed by (app version, config, generation, window) as
     * {@link EstimateKeys} says: a window estimated again after late reports is a higher revision
     * under the same key.
     */
    public static final String ESTIMATES = "fieldprof.estimates";

    /** Compacted; EdgeModel keyed by app version. */
    public static final String EDGE_MODELS = "fieldprof.models.edges";

    /**
     * The shuffler's DeadLetters: they keep whole SealedReports, device ids included, so only the
     * shuffler (and its operator) may read them, never the analyst.
     */
    public static final String SHUFFLER_DEAD_LETTERS = "fieldprof.shuffler.dead-letters";

    /** DeadLetter keyed like the rejected record. */
    public static final String DEAD_LETTERS = "fieldprof.dead-letters";

    /** Every fieldprof topic, in the order of the flow. */
    public static final List<String> ALL =
            List.of(
                    PROGRAMS,
                    FREQUENCY_REPORTS,
                    FREQUENCY_REPLAY,
                    SHUFFLER_INPUT,
                    SHUFFLED_REPORTS,
                    PATH_REPORTS,
                    ESTIMATES,
                    EDGE_MODELS,
                    DEAD_LETTERS,
                    SHUFFLER_DEAD_LETTERS);

    /**
     * Largest record of the compacted topics (max.message.bytes), 64 MiB. A program model carries a
     * signature (about 100 bytes) and a CFG (blocks of three ints, edges of two ints and a kind)
     * per method, its pairs and its call graph: a few MB for a library of 10⁴ methods, tens of MB
     * for an application of 10⁵. An edge model is smaller (frequencies of the branch nodes only)
     * and shares the limit.
     */
    public static final int MAX_MODEL_BYTES = 64 * 1024 * 1024;

    /**
     * Largest record of the report topics, 1 MiB: what a device's Kafka producer sends at its
     * default max.request.size. A FrequencyReport is about 200 bytes plus one or two bytes per
     * method (counts lie in [0, k]), so 1 MiB holds |V| up to about 500,000; a PathReport is cut at
     * 16 KiB of coded bytes, and in debug mode carries at most 2¹⁶ raw events of a few bytes.
     * Explicit, so that a broker whose own limit was raised (for the models) does not let a device
     * put MBs on a report topic.
     */
    public static final int MAX_REPORT_BYTES = 1024 * 1024;

    /**
     * Largest record of the dead-letter topic, 1 MiB: a dead letter keeps at most the first 512 KiB
     * of a rejected record's value, so that rejecting a large record can never make the dead letter
     * itself too large to publish.
     */
    public static final int MAX_RESULT_BYTES = 1024 * 1024;

    /**
     * Largest record of the estimates topic, 64 MiB. An estimate carries about 24 bytes per method
     * (the estimate, the projected share and the standard error, as doubles): 1 MiB would stop a
     * program at about 40,000 methods; 64 MiB holds about 2.7 million. The frequency job's producer
     * is given the same limit as its max.request.size.
     */
    public static final int MAX_ESTIMATE_BYTES = 64 * 1024 * 1024;

    /** Kafka's topic setting that bounds the size of one record batch (so of one record). */
    public static final String MAX_MESSAGE_BYTES = "max.message.bytes";

    /** Kafka's topic setting that decides whose clock stamps a record. */
    public static final String TIMESTAMP_TYPE = "message.timestamp.type";

    /** The broker's clock: the only time the jobs window reports by. */
    public static final String LOG_APPEND_TIME = "LogAppendTime";

    /** The producer's clock: a replayed report keeps its original record time. */
    public static final String CREATE_TIME = "CreateTime";

    private Topics() {}

    /** Whether {@code topic} is one of the compacted topics (latest record per key). */
    public static boolean isCompacted(String topic) {
        return PROGRAMS.equals(topic) || EDGE_MODELS.equals(topic);
    }

    /** Whether {@code topic} carries device reports (windowed by the broker's append time). */
    public static boolean isReportTopic(String topic) {
        return FREQUENCY_REPORTS.equals(topic) || PATH_REPORTS.equals(topic);
    }

    /**
     * The topic-level settings a fieldprof topic needs (Kafka topic config names): compaction and
     * large records for the compacted topics, the broker's append time for the report topics and
     * the shuffler's input, so that device clocks cannot steer event time, the shuffler's release
     * time on the shuffled topic, and on every topic a record size limit (see the MAX_*_BYTES
     * constants for how each was chosen).
     */
    public static Map<String, String> settings(String topic) {
        if (isCompacted(topic)) {
            return compactedSettings();
        }
        if (ESTIMATES.equals(topic)) {
            return estimateSettings();
        }
        if (isReportTopic(topic)) {
            return reportSettings();
        }
        if (FREQUENCY_REPLAY.equals(topic)) {
            return replaySettings();
        }
        if (SHUFFLER_INPUT.equals(topic)) {
            return reportSettings();
        }
        if (SHUFFLED_REPORTS.equals(topic)) {
            return shuffledSettings();
        }
        return resultSettings();
    }

    /**
     * Settings of the shuffled topic: deleted by retention, parts of at most 1 MiB (the shuffler
     * splits a batch to fit), and stamped by the producer: the shuffler stamps every part of a
     * batch with the batch's release time, so that neither a device's nor the broker's clock at a
     * report's arrival reaches the analyst, and all parts of a batch fall into one window.
     */
    public static Map<String, String> shuffledSettings() {
        return Map.of(
                "cleanup.policy",
                "delete",
                TIMESTAMP_TYPE,
                CREATE_TIME,
                MAX_MESSAGE_BYTES,
                Integer.toString(MAX_REPORT_BYTES));
    }

    /**
     * Settings of the replay topic: deleted by retention, 1 MiB records like the report topics, and
     * stamped by the producer, so that a replayed report keeps the record time its letter names.
     */
    public static Map<String, String> replaySettings() {
        return Map.of(
                "cleanup.policy",
                "delete",
                TIMESTAMP_TYPE,
                CREATE_TIME,
                MAX_MESSAGE_BYTES,
                Integer.toString(MAX_REPORT_BYTES));
    }

    /** Settings of a result topic deleted by retention (dead letters), 1 MiB records. */
    public static Map<String, String> resultSettings() {
        return Map.of(
                "cleanup.policy", "delete", MAX_MESSAGE_BYTES, Integer.toString(MAX_RESULT_BYTES));
    }

    /**
     * Settings of the estimates topic: a changelog, compacted (a consumer that keeps the latest
     * value per key reads every window's latest revision; older revisions are removed), records up
     * to {@link #MAX_ESTIMATE_BYTES}.
     */
    public static Map<String, String> estimateSettings() {
        return Map.of(
                "cleanup.policy",
                "compact",
                MAX_MESSAGE_BYTES,
                Integer.toString(MAX_ESTIMATE_BYTES));
    }

    /** Settings of a compacted topic (programs, edge models). */
    public static Map<String, String> compactedSettings() {
        return Map.of(
                "cleanup.policy", "compact", MAX_MESSAGE_BYTES, Integer.toString(MAX_MODEL_BYTES));
    }

    /** Settings of a report topic: deleted by retention, stamped by the broker, 1 MiB records. */
    public static Map<String, String> reportSettings() {
        return Map.of(
                "cleanup.policy",
                "delete",
                TIMESTAMP_TYPE,
                LOG_APPEND_TIME,
                MAX_MESSAGE_BYTES,
                Integer.toString(MAX_REPORT_BYTES));
    }
}
