package dev.fieldprof.jobs.io;

import org.apache.flink.api.common.eventtime.WatermarkGenerator;
import org.apache.flink.api.common.eventtime.WatermarkOutput;

/**
 * Watermarks of a side input (the program models): none. Used with {@code withIdleness}, the stream
 * holds event time back at the start, until the compacted topic has been read and stayed quiet (so
 * models are known before the first windows close), and then never moves it: if the models' record
 * times drove the watermark, a model published after reports still in flight would close those
 * reports' window early, and they would be dead-lettered as late, or counted twice after a restore.
 */
public final class SideInputWatermarks<T> implements WatermarkGenerator<T> {

    @Override
    public void onEvent(T event, long eventTimestamp, WatermarkOutput output) {
        // Deliberately no watermark: the side input's record times are not event time.
    }

    @Override
    public void onPeriodicEmit(WatermarkOutput output) {
        // Nothing: idleness (applied around this generator) releases the stream.
    }
}
