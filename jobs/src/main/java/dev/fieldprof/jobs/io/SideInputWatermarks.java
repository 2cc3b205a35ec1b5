package dev.fieldprof.jobs.io;

import org.apache.flink.api.common.eventtime.WatermarkGenerator;
import org.apache.flink.api.common.eventtime.WatermarkOutput;

/**
 * Watermarks of a side input (the program models): none. The stream holds event time back at the
 * start, until its subtask has read its partitions to the end as of a time Kafka vouches for
 * ({@link ReadProgress#readToEndAt()}; so models published before the job started are known before
 * the first windows close, however slowly the job starts), and then turns idle and never moves it:
 * if the models' record times drove the watermark, a model published after reports still in flight
 * would close those reports' window early, and they would be dead-lettered as late, or counted
 * twice after a restore. A subtask that holds no partition and will get none turns idle at once.
 */
public final class SideInputWatermarks implements WatermarkGenerator<RawRecord> {
    private final ReadProgress progress;
    private boolean idle;

    public SideInputWatermarks(ReadProgress progress) {
        this.progress = progress;
    }

    @Override
    public void onEvent(RawRecord event, long eventTimestamp, WatermarkOutput output) {
        // Deliberately no watermark: the side input's record times are not event time.
        progress.consumed(event.partition, event.offset);
    }

    @Override
    public void onPeriodicEmit(WatermarkOutput output) {
        if (!idle
                && (progress.readToEndAt() != ReadProgress.UNKNOWN
                        || progress.holdsNoPartition())) {
            idle = true;
            output.markIdle();
        }
    }
}
