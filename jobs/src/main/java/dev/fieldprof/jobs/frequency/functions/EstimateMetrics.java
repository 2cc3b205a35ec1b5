package dev.fieldprof.jobs.frequency.functions;

import dev.fieldprof.jobs.io.EncodedRecord;
import dev.fieldprof.schemas.EstimateWindow;
import dev.fieldprof.schemas.RecordCodec;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.metrics.Counter;

/**
 * What operators watch of the estimates on their way to the topic: {@code estimatesPublished}
 * (window estimates, not cumulative ones), {@code estimateLagMillis} (from the end of the last
 * estimated window to the moment its estimate left the estimator, wall clock), {@code solveMillis}
 * and {@code kktResidual} of the last constraint projection. Passes every record on unchanged; one
 * decode per window.
 */
public final class EstimateMetrics extends RichMapFunction<EncodedRecord, EncodedRecord> {
    private static final long serialVersionUID = 1L;
    private static final RecordCodec<EstimateWindow> CODEC = RecordCodec.of(EstimateWindow.class);

    private transient Counter published;
    private transient volatile long lagMillis;
    private transient volatile double solveMillis;
    private transient volatile double kktResidual;

    @Override
    public void open(OpenContext context) {
        var group = getRuntimeContext().getMetricGroup();
        published = group.counter("estimatesPublished");
        group.gauge("estimateLagMillis", () -> lagMillis);
        group.gauge("solveMillis", () -> solveMillis);
        group.gauge("kktResidual", () -> kktResidual);
    }

    @Override
    public EncodedRecord map(EncodedRecord record) {
        try {
            EstimateWindow estimate = CODEC.decode(record.value);
            if (!estimate.getCumulative()) {
                published.inc();
                lagMillis =
                        System.currentTimeMillis() - estimate.getWindowEndMillis().toEpochMilli();
                solveMillis = estimate.getSolve().getMillis();
                kktResidual = estimate.getSolve().getKktResidual();
            }
        } catch (RuntimeException e) {
            // metrics must never stop the estimates
        }
        return record;
    }
}
