package dev.fieldprof.jobs.io;

import java.time.Duration;
import java.util.function.LongSupplier;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.common.eventtime.WatermarkGenerator;
import org.apache.flink.api.common.eventtime.WatermarkOutput;

/**
 * Watermarks of one report partition: bounded out-of-orderness over the report times, never ahead
 * of the job's wall clock, and following the wall clock once the partition has been quiet.
 *
 * <p>Report topics stamp records with the broker's append time, so a partition that has been read
 * to its end and stays quiet can only receive records stamped at least "now" (less the difference
 * of the broker's and the job's clocks, which the out-of-orderness bound covers). Its watermark may
 * then follow the wall clock, and that is why the partition is never declared idle: an idle channel
 * is left out of the downstream watermark, and an operator whose inputs all turned idle while it
 * still held a window emits that window's sum later, after the next stage has closed it (reports
 * were lost that way). Advancing on the wall clock instead keeps every channel's watermark
 * meaningful and closes a quiet app's last window within {@code window + outOfOrderness +
 * idleness}.
 *
 * <p>A record stamped in the future (a device clock on a topic that keeps the producer's time)
 * counts as stamped now, so one record cannot move event time ahead of the wall clock and close
 * windows early. Used per Kafka partition (split), so a busy partition cannot drag the others: the
 * source combines the partitions' watermarks by their minimum.
 */
public final class ReportWatermarks<T> implements WatermarkGenerator<T> {
    private final long outOfOrdernessMillis;
    private final long idlenessMillis;
    private final LongSupplier clock;

    private long maxTimestamp = Long.MIN_VALUE;
    private long lastRecordAt;
    private long emitted = Long.MIN_VALUE;

    /**
     * @param outOfOrderness how much earlier than the latest report time a report may still come,
     *     also the tolerated difference between the broker's and the job's clocks (≥ 0)
     * @param idleness how long a partition must be quiet before its watermark follows the wall
     *     clock (≥ 0)
     * @param clock the job's wall clock in epoch milliseconds
     */
    public ReportWatermarks(Duration outOfOrderness, Duration idleness, LongSupplier clock) {
        if (outOfOrderness.isNegative() || idleness.isNegative()) {
            throw new IllegalArgumentException(
                    "outOfOrderness and idleness must be >= 0, got "
                            + outOfOrderness
                            + " and "
                            + idleness);
        }
        this.outOfOrdernessMillis = outOfOrderness.toMillis();
        this.idlenessMillis = idleness.toMillis();
        this.clock = clock;
        this.lastRecordAt = clock.getAsLong();
    }

    @Override
    public void onEvent(T event, long eventTimestamp, WatermarkOutput output) {
        long now = clock.getAsLong();
        maxTimestamp = Math.max(maxTimestamp, Math.min(eventTimestamp, now));
        lastRecordAt = now;
    }

    @Override
    public void onPeriodicEmit(WatermarkOutput output) {
        long now = clock.getAsLong();
        long candidate =
                maxTimestamp == Long.MIN_VALUE
                        ? Long.MIN_VALUE
                        : maxTimestamp - outOfOrdernessMillis - 1;
        if (now - lastRecordAt >= idlenessMillis) {
            candidate = Math.max(candidate, now - outOfOrdernessMillis - 1);
        }
        if (candidate > emitted) {
            emitted = candidate;
            output.emitWatermark(new Watermark(candidate));
        }
    }
}
