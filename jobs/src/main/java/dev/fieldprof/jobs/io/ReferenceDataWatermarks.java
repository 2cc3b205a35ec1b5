package dev.fieldprof.jobs.io;

import org.apache.flink.api.common.eventtime.WatermarkGenerator;
import org.apache.flink.api.common.eventtime.WatermarkOutput;

/**
 * Watermarks of reference data such as program models: none, and the input idle from the first
 * periodic check on. Its records still flow (an idle input is only left out of the watermark), so
 * operators that join them with reports see them, while event time is the reports' alone. Operators
 * that must not run ahead of reference data hold event time back themselves (the frequency job's
 * validation does).
 */
public final class ReferenceDataWatermarks<T> implements WatermarkGenerator<T> {

    @Override
    public void onEvent(T event, long eventTimestamp, WatermarkOutput output) {
        // Deliberately no watermark: a record time of reference data is not event time.
    }

    @Override
    public void onPeriodicEmit(WatermarkOutput output) {
        output.markIdle();
    }
}
