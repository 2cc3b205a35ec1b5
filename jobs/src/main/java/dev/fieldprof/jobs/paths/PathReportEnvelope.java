package dev.fieldprof.jobs.paths;

import dev.fieldprof.jobs.io.RawRecord;
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
    public String deviceId;

    /** The probe-plan variant the device traces (0 without a plan). */
    public int variant;

    public long modelVersion;

    /** The writer of the model version, "" for the uniform model and for v1 reports. */
    public String modelWriter = "";

    public byte[] coded;
    public RawRecord raw;

    /** End (exclusive, ms) of the window the report was assigned to; 0 until assigned. */
    public long windowEnd;

    /** Wall-clock time (ms) until which it may wait for its branch table or model; 0 if not. */
    public long waitUntil;

    public PathReportEnvelope() {}

    public PathReportEnvelope(
            String appVersion,
            String reportId,
            String deviceId,
            long modelVersion,
            String modelWriter,
            byte[] coded,
            RawRecord raw) {
        this.appVersion = appVersion;
        this.reportId = reportId;
        this.deviceId = deviceId;
        this.modelVersion = modelVersion;
        this.modelWriter = modelWriter;
        this.coded = coded;
        this.raw = raw;
    }
}
