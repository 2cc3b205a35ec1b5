package dev.fieldprof.jobs.io;

import java.time.Duration;
import java.util.function.LongSupplier;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.common.eventtime.WatermarkGenerator;
import org.apache.flink.api.common.eventtime.WatermarkOutput;

/**
 * Watermarks of report partitions: bounded out-of-orderness over the report times, and, once the
 * subtask has read its partitions to the end as of a time T that Kafka vouches for, {@code T −
 * outOfOrderness − 1}; never the current wall clock.
 *
 * <p>Report topics stamp records with the broker's append time. When every partition of the subtask
 * was read past the end offset Kafka reported at T ({@link ReadProgress#readToEndAt()}), every
 * record appended before T has been read, and any record still to come was appended after T:
 * stamped at least T less the difference between the broker's and the job's clocks, which the
 * out-of-orderness bound covers. A partition whose records the job has not fetched yet (at start,
 * after a restore, under backpressure, on a slow machine) is therefore never taken for quiet,
 * however long it delivers nothing. How soon a quiet partition's watermark follows depends only on
 * how often end offsets are observed ({@code --idleness}).
 *
 * <p>Quiet partitions are never declared idle: an idle channel is left out of the downstream
 * watermark, and an operator whose inputs all turned idle while it still held a window emits that
 * window's sum later, after the next stage has closed it. Only a subtask that holds no partition
 * and will get none ({@link ReadProgress#holdsNoPartition()}) is idle: it carries no records, and
 * every operator downstream also reads subtasks that hold partitions.
 *
 * <p>A record stamped in the future (a device clock on a topic that keeps the producer's time)
 * counts as stamped now, so one record cannot move event time ahead of the wall clock and close
 * windows early. One generator runs per Kafka partition (split) plus one for the subtask; the
 * source combines the partitions' watermarks by their minimum, so a busy partition cannot drag the
 * others.
 */
public final class ReportWatermarks implements WatermarkGenerator<RawRecord> {
    private final long outOfOrdernessMillis;
    private final ReadProgress progress;
    private final LongSupplier clock;

    private long maxTimestamp = Long.MIN_VALUE;
    private long emitted = Long.MIN_VALUE;
    private boolean idle;

    /**
     * @param outOfOrderness how much earlier than the latest report time a report may still come,
     *     also the tolerated difference between the broker's and the job's clocks (≥ 0)
     * @param progress how far the subtask has read, shared by its generators and its reader
     * @param clock the job's wall clock in epoch milliseconds
     */
    public ReportWatermarks(Duration outOfOrderness, ReadProgress progress, LongSupplier clock) {
        if (outOfOrderness.isNegative()) {
            throw new IllegalArgumentException(
                    "outOfOrderness must be >= 0, got " + outOfOrderness);
        }
        this.outOfOrdernessMillis = outOfOrderness.toMillis();
        this.progress = progress;
        this.clock = clock;
    }

    @Override
    public void onEvent(RawRecord event, long eventTimestamp, WatermarkOutput output) {
        maxTimestamp = Math.max(maxTimestamp, Math.min(eventTimestamp, clock.getAsLong()));
        progress.consumed(event.partition, event.offset);
    }

    @Override
    public void onPeriodicEmit(WatermarkOutput output) {
        long candidate =
                maxTimestamp == Long.MIN_VALUE
                        ? Long.MIN_VALUE
                        : maxTimestamp - outOfOrdernessMillis - 1;
        long readToEnd = progress.readToEndAt();
        if (readToEnd != ReadProgress.UNKNOWN) {
            candidate = Math.max(candidate, readToEnd - outOfOrdernessMillis - 1);
        }
        if (candidate > emitted) {
            emitted = candidate;
            idle = false;
            output.emitWatermark(new Watermark(candidate));
        } else if (progress.holdsNoPartition() != idle) {
            idle = !idle;
            if (idle) {
                output.markIdle();
            } else {
                output.markActive();
            }
        }
    }
}
