package dev.fieldprof.jobs.frequency.functions;

import dev.fieldprof.estimation.PartialSum;
import dev.fieldprof.jobs.frequency.records.BatchedSum;
import dev.fieldprof.jobs.frequency.records.ShuffledBatches;
import dev.fieldprof.jobs.frequency.records.WindowSum;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.tuple.Tuple3;
import org.apache.flink.streaming.api.functions.windowing.ProcessWindowFunction;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;
import org.apache.flink.util.Collector;

/**
 * Labels a merged window sum with its (app version, config) and window bounds, and makes each
 * firing of the window a revision: the merge fires with the shards' sums that arrived since its
 * previous firing ({@link RevisingTrigger}); this adds them to the window's total, kept in
 * per-window state until the window's allowed lateness has passed, and emits the total with its
 * revision number and what it added, with every shuffled batch the window's reports came in so far.
 */
public final class EmitWindowSum
        extends ProcessWindowFunction<
                BatchedSum, WindowSum, Tuple3<String, String, Long>, TimeWindow> {
    private static final long serialVersionUID = 1L;

    private static final ValueStateDescriptor<PartialSum> TOTAL =
            new ValueStateDescriptor<>("window-total", TypeInformation.of(PartialSum.class));
    private static final ValueStateDescriptor<ShuffledBatches> BATCHES =
            new ValueStateDescriptor<>("window-batches", TypeInformation.of(ShuffledBatches.class));
    private static final ValueStateDescriptor<Integer> REVISION =
            new ValueStateDescriptor<>("window-revision", Types.INT);

    @Override
    public void process(
            Tuple3<String, String, Long> key,
            Context context,
            Iterable<BatchedSum> sums,
            Collector<WindowSum> out)
            throws Exception {
        TimeWindow window = context.window();
        ValueState<PartialSum> total = context.windowState().getState(TOTAL);
        ValueState<Integer> revision = context.windowState().getState(REVISION);
        ValueState<ShuffledBatches> batches = context.windowState().getState(BATCHES);
        for (BatchedSum merged : sums) {
            PartialSum added = merged.sum;
            PartialSum sum = total.value() == null ? new PartialSum() : total.value();
            sum.merge(added);
            ShuffledBatches allBatches =
                    batches.value() == null ? new ShuffledBatches() : batches.value();
            allBatches.merge(merged.batches);
            batches.update(allBatches);
            int next = revision.value() == null ? 1 : revision.value() + 1;
            total.update(sum);
            revision.update(next);
            WindowSum revised =
                    WindowSum.revision(
                            key.f0,
                            key.f1,
                            key.f2,
                            window.getStart(),
                            window.getEnd(),
                            new PartialSum(sum.getReports(), sum.getSums()),
                            added,
                            next);
            revised.batches = allBatches.copy();
            out.collect(revised);
        }
    }

    @Override
    public void clear(Context context) {
        context.windowState().getState(TOTAL).clear();
        context.windowState().getState(REVISION).clear();
        context.windowState().getState(BATCHES).clear();
    }
}
