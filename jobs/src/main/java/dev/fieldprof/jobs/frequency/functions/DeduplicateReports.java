package dev.fieldprof.jobs.frequency.functions;

import dev.fieldprof.jobs.frequency.records.ReportRecord;
import java.time.Duration;
import org.apache.flink.api.common.state.StateTtlConfig;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Passes the first report of every report id and drops the others (a device re-sends a report whose
 * acknowledgement it missed). Keyed by report id; the memory of an id expires after the TTL, which
 * must exceed the longest re-send delay.
 */
public final class DeduplicateReports
        extends KeyedProcessFunction<String, ReportRecord, ReportRecord> {
    private static final long serialVersionUID = 1L;

    private final Duration ttl;
    private transient ValueState<Boolean> seen;
    private transient Counter duplicates;

    public DeduplicateReports(Duration ttl) {
        this.ttl = ttl;
    }

    @Override
    public void open(org.apache.flink.api.common.functions.OpenContext context) {
        ValueStateDescriptor<Boolean> descriptor =
                new ValueStateDescriptor<>("report-seen", Types.BOOLEAN);
        descriptor.enableTimeToLive(
                StateTtlConfig.newBuilder(ttl)
                        .setUpdateType(StateTtlConfig.UpdateType.OnCreateAndWrite)
                        .setStateVisibility(StateTtlConfig.StateVisibility.NeverReturnExpired)
                        .build());
        seen = getRuntimeContext().getState(descriptor);
        duplicates = getRuntimeContext().getMetricGroup().counter("duplicateReports");
    }

    @Override
    public void processElement(ReportRecord report, Context ctx, Collector<ReportRecord> out)
            throws Exception {
        if (seen.value() != null) {
            duplicates.inc();
            return;
        }
        seen.update(Boolean.TRUE);
        out.collect(report);
    }
}
