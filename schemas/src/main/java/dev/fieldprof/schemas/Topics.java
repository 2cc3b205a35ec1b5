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

    /** PathReport keyed by device id. */
    public static final String PATH_REPORTS = "fieldprof.reports.paths";

    /** EstimateWindow keyed by app version. */
    public static final String ESTIMATES = "fieldprof.estimates";

    /** Compacted; EdgeModel keyed by app version. */
    public static final String EDGE_MODELS = "fieldprof.models.edges";

    /** DeadLetter keyed like the rejected record. */
    public static final String DEAD_LETTERS = "fieldprof.dead-letters";

    /** Every fieldprof topic, in the order of the flow. */
    public static final List<String> ALL =
            List.of(
                    PROGRAMS,
                    FREQUENCY_REPORTS,
                    PATH_REPORTS,
                    ESTIMATES,
                    EDGE_MODELS,
                    DEAD_LETTERS);

    /** Largest record of the compacted topics: a program model carries every CFG (MBs). */
    public static final int MAX_MODEL_BYTES = 64 * 1024 * 1024;

    /** Kafka's topic setting that decides whose clock stamps a record. */
    public static final String TIMESTAMP_TYPE = "message.timestamp.type";

    /** The broker's clock: the only time the jobs window reports by. */
    public static final String LOG_APPEND_TIME = "LogAppendTime";

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
     * large records for the compacted topics, the broker's append time for the report topics, so
     * that device clocks cannot steer event time.
     */
    public static Map<String, String> settings(String topic) {
        if (isCompacted(topic)) {
            return compactedSettings();
        }
        if (isReportTopic(topic)) {
            return reportSettings();
        }
        return resultSettings();
    }

    /** Settings of a result topic (estimates, dead letters): deleted by retention. */
    public static Map<String, String> resultSettings() {
        return Map.of("cleanup.policy", "delete");
    }

    /** Settings of a compacted topic (programs, edge models). */
    public static Map<String, String> compactedSettings() {
        return Map.of(
                "cleanup.policy",
                "compact",
                "max.message.bytes",
                Integer.toString(MAX_MODEL_BYTES));
    }

    /** Settings of a report topic: deleted by retention, stamped by the broker. */
    public static Map<String, String> reportSettings() {
        return Map.of("cleanup.policy", "delete", TIMESTAMP_TYPE, LOG_APPEND_TIME);
    }
}
