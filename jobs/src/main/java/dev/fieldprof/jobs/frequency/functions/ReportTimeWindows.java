package dev.fieldprof.jobs.frequency.functions;

import dev.fieldprof.jobs.frequency.records.ReportRecord;
import java.time.Duration;
import java.util.Collection;
import org.apache.flink.api.common.ExecutionConfig;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.streaming.api.windowing.assigners.TumblingEventTimeWindows;
import org.apache.flink.streaming.api.windowing.assigners.WindowAssigner;
import org.apache.flink.streaming.api.windowing.triggers.Trigger;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;

/**
 * Tumbling event-time windows over a report's own Kafka timestamp. A report that waited for its
 * program model is released when the model is broadcast, and Flink stamps it with the model
 * record's time; the window must still be the report's.
 */
public final class ReportTimeWindows extends WindowAssigner<Object, TimeWindow> {
    private static final long serialVersionUID = 1L;

    private final TumblingEventTimeWindows tumbling;

    public ReportTimeWindows(Duration size) {
        this.tumbling = TumblingEventTimeWindows.of(size);
    }

    @Override
    public Collection<TimeWindow> assignWindows(
            Object element, long timestamp, WindowAssignerContext context) {
        long time = element instanceof ReportRecord report ? report.raw.timestamp : timestamp;
        return tumbling.assignWindows(element, time, context);
    }

    @Override
    public Trigger<Object, TimeWindow> getDefaultTrigger() {
        return tumbling.getDefaultTrigger();
    }

    @Override
    public TypeSerializer<TimeWindow> getWindowSerializer(ExecutionConfig config) {
        return tumbling.getWindowSerializer(config);
    }

    @Override
    public boolean isEventTime() {
        return true;
    }

    @Override
    public String toString() {
        return "ReportTimeWindows(" + tumbling + ")";
    }
}
