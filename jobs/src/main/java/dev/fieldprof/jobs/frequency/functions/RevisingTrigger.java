package dev.fieldprof.jobs.frequency.functions;

import org.apache.flink.streaming.api.windowing.triggers.Trigger;
import org.apache.flink.streaming.api.windowing.triggers.TriggerResult;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;

/**
 * Fires a tumbling event-time window when the watermark passes its end, and again for what arrives
 * after that, as long as the window operator still accepts it (its allowed lateness): every firing
 * emits only what arrived since the previous one (it purges), so the stage after it adds firings up
 * and never counts a report twice.
 *
 * <p>What arrives late is not fired one record at a time: it fires at the next multiple of {@link
 * #COALESCE_MILLIS} of processing time (Flink keeps one timer per key, window and time), so a
 * replayed backlog makes a few revisions of its window, not one per report. The window's cleanup
 * time (end + allowed lateness) fires it too, so nothing that waits for that timer is cleared
 * unsent.
 */
public final class RevisingTrigger extends Trigger<Object, TimeWindow> {
    private static final long serialVersionUID = 1L;

    /** Late arrivals of one window within this much processing time make one firing. */
    public static final long COALESCE_MILLIS = 1000;

    private final long allowedLatenessMillis;

    /**
     * @param allowedLatenessMillis the window operator's allowed lateness, {@code >= 0}
     */
    public RevisingTrigger(long allowedLatenessMillis) {
        if (allowedLatenessMillis < 0) {
            throw new IllegalArgumentException(
                    "allowed lateness must be >= 0, got " + allowedLatenessMillis);
        }
        this.allowedLatenessMillis = allowedLatenessMillis;
    }

    @Override
    public TriggerResult onElement(
            Object element, long timestamp, TimeWindow window, TriggerContext ctx) {
        if (window.maxTimestamp() > ctx.getCurrentWatermark()) {
            ctx.registerEventTimeTimer(window.maxTimestamp());
        } else {
            long now = ctx.getCurrentProcessingTime();
            ctx.registerProcessingTimeTimer((now / COALESCE_MILLIS + 1) * COALESCE_MILLIS);
        }
        return TriggerResult.CONTINUE;
    }

    @Override
    public TriggerResult onEventTime(long time, TimeWindow window, TriggerContext ctx) {
        return time == window.maxTimestamp() || time == cleanupTime(window)
                ? TriggerResult.FIRE_AND_PURGE
                : TriggerResult.CONTINUE;
    }

    @Override
    public TriggerResult onProcessingTime(long time, TimeWindow window, TriggerContext ctx) {
        // Fires nothing when the window is empty (already fired at its cleanup time).
        return TriggerResult.FIRE_AND_PURGE;
    }

    @Override
    public void clear(TimeWindow window, TriggerContext ctx) {
        ctx.deleteEventTimeTimer(window.maxTimestamp());
    }

    private long cleanupTime(TimeWindow window) {
        long cleanup = window.maxTimestamp() + allowedLatenessMillis;
        return cleanup >= window.maxTimestamp() ? cleanup : Long.MAX_VALUE;
    }

    @Override
    public String toString() {
        return "RevisingTrigger(" + allowedLatenessMillis + " ms)";
    }
}
