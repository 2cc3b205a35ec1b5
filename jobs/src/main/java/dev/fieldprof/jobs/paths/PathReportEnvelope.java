package dev.fieldprof.jobs.paths;

import dev.fieldprof.jobs.frequency.records.RawRecord;
import java.io.Serializable;

/**
 * A decoded path report on its way to its window: the app version it is keyed by, the coded bytes
 * to decode with the model version it names, the raw Kafka record for a dead letter, and the window
 * it was assigned to. A Flink POJO.
 */
public class PathReportEnvelope implements Serializable {
    private static final long serialVersionUID = 1L;

    public String appVersion;
    public String reportId;
    public long modelVersion;
    public byte[] coded;
    public RawRecord raw;

    /** End (exclusive, ms) of the window the report was assigned to; 0 until assigned. */
    public long windowEnd;

    public PathReportEnvelope() {}

    public PathReportEnvelope(
            String appVersion, String reportId, long modelVersion, byte[] coded, RawRecord raw) {
        this.appVersion = appVersion;
        this.reportId = reportId;
        this.modelVersion = modelVersion;
        this.coded = coded;
        this.raw = raw;
    }
}
