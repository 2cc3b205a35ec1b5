package dev.fieldprof.schemas;

/** Names of the Kafka topics of DESIGN.md ("Topics and records"): the contract between parts. */
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

    private Topics() {}
}
