package dev.fieldprof.jobs.frequency.functions;

import dev.fieldprof.jobs.frequency.core.DeadLetters;
import dev.fieldprof.jobs.frequency.records.ReportBundle;
import dev.fieldprof.jobs.io.EncodedRecord;
import dev.fieldprof.schemas.DeadLetterReason;
import org.apache.flink.api.common.functions.FlatMapFunction;
import org.apache.flink.util.Collector;

/**
 * A bundle of reports that reached its window sum after the window's allowed lateness: a
 * WINDOW_DROPPED dead letter per (config, generation) that says how many reports it stands for,
 * never a silent drop. {@link BundleReports} judges lateness against the same watermark as the
 * window sum and sends late reports on one by one, so this is the guard that would show it if that
 * ever broke.
 */
public final class LateBundleToDeadLetters implements FlatMapFunction<ReportBundle, EncodedRecord> {
    private static final long serialVersionUID = 1L;

    private final String reportsTopic;
    private final long windowMillis;

    /**
     * @param reportsTopic the topic the summed reports were read from
     * @param windowMillis the window's length
     */
    public LateBundleToDeadLetters(String reportsTopic, long windowMillis) {
        this.reportsTopic = reportsTopic;
        this.windowMillis = windowMillis;
    }

    @Override
    public void flatMap(ReportBundle late, Collector<EncodedRecord> out) {
        late.sums
                .windowSums(
                        late.appVersion,
                        late.shard,
                        late.windowStart,
                        late.windowStart + windowMillis)
                .forEach(
                        sum ->
                                out.collect(
                                        DeadLetters.ofWindowSum(
                                                reportsTopic,
                                                sum,
                                                DeadLetterReason.WINDOW_DROPPED,
                                                "reached its shard's window sum after the"
                                                        + " window's allowed lateness")));
    }
}
