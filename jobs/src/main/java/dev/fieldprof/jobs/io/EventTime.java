package dev.fieldprof.jobs.io;

import java.time.Duration;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.Source;

/**
 * Event time of the fieldprof jobs, in one place: the Kafka record timestamp of the reports (the
 * broker's append time on the report topics; device clocks are often wrong and can be set by
 * anyone), and side inputs (program models) that never move it.
 */
public final class EventTime {
    private EventTime() {}

    /**
     * Reports: the broker's append time, bounded out-of-orderness, never ahead of the wall clock,
     * and once {@code source} has read its partitions to the end as of a time T that Kafka vouches
     * for, T less the out-of-orderness ({@link ReportWatermarks}, {@link ReportTimestamp}). A
     * source other than a {@link ProgressTrackingSource} knows no such T: its event time follows
     * its records alone.
     */
    public static WatermarkStrategy<RawRecord> ofReports(
            Source<RawRecord, ?, ?> source, Duration outOfOrderness) {
        ReadProgress progress = progressOf(source);
        return WatermarkStrategy.<RawRecord>forGenerator(
                        context ->
                                new ReportWatermarks(
                                        outOfOrderness, progress, System::currentTimeMillis))
                .withTimestampAssigner(new ReportTimestamp(outOfOrderness));
    }

    /**
     * Reference data (program models): never takes part in event time. The input emits no watermark
     * and announces itself idle at its first periodic check, so it neither holds event time back
     * nor moves it, whenever its records are stamped ({@link ReferenceDataWatermarks}).
     */
    public static WatermarkStrategy<RawRecord> ofReferenceData() {
        return WatermarkStrategy.<RawRecord>forGenerator(context -> new ReferenceDataWatermarks<>())
                .withTimestampAssigner(new RecordTimestamp());
    }

    /**
     * A side input: holds event time back at the start until {@code source} has read its partitions
     * to the end as of a time Kafka vouches for, then never moves it ({@link SideInputWatermarks}).
     * A source other than a {@link ProgressTrackingSource} holds event time back until it ends.
     */
    public static WatermarkStrategy<RawRecord> ofSideInput(Source<RawRecord, ?, ?> source) {
        ReadProgress progress = progressOf(source);
        return WatermarkStrategy.<RawRecord>forGenerator(
                        context -> new SideInputWatermarks(progress))
                .withTimestampAssigner(new RecordTimestamp());
    }

    /**
     * The progress {@code source} shares with the watermark generators of its records. It must be
     * the source's own instance: Flink serializes a source operator's source and watermark strategy
     * together, so each subtask's reader and generators share one copy.
     */
    private static ReadProgress progressOf(Source<RawRecord, ?, ?> source) {
        return source instanceof ProgressTrackingSource tracked
                ? tracked.progress()
                : ReadProgress.none();
    }
}
