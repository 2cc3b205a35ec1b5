package dev.fieldprof.jobs.io;

import java.time.Duration;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;

/**
 * Event time of the fieldprof jobs, in one place: the Kafka record timestamp of the reports (the
 * broker's append time on the report topics; device clocks are often wrong and can be set by
 * anyone), and side inputs (program models) that never move it.
 */
public final class EventTime {
    private EventTime() {}

    /**
     * Reports: the broker's append time, bounded out-of-orderness, never ahead of the wall clock,
     * and a partition quiet for {@code idleness} follows the wall clock instead of turning idle
     * ({@link ReportWatermarks}, {@link ReportTimestamp}).
     */
    public static WatermarkStrategy<RawRecord> ofReports(
            Duration outOfOrderness, Duration idleness) {
        return WatermarkStrategy.<RawRecord>forGenerator(
                        context ->
                                new ReportWatermarks<>(
                                        outOfOrderness, idleness, System::currentTimeMillis))
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
     * A side input: holds event time back at the start until its topic has been quiet for {@code
     * idleness}, then never moves it ({@link SideInputWatermarks}).
     */
    public static WatermarkStrategy<RawRecord> ofSideInput(Duration idleness) {
        return WatermarkStrategy.<RawRecord>forGenerator(context -> new SideInputWatermarks<>())
                .withTimestampAssigner(new RecordTimestamp())
                .withIdleness(idleness);
    }
}
