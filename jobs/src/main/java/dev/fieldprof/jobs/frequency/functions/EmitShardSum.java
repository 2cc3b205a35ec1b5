package dev.fieldprof.jobs.frequency.functions;

import dev.fieldprof.jobs.estimation.PartialSum;
import dev.fieldprof.jobs.frequency.records.WindowSum;
import org.apache.flink.api.java.tuple.Tuple4;
import org.apache.flink.streaming.api.functions.windowing.ProcessWindowFunction;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;
import org.apache.flink.util.Collector;

/** Labels a shard's window sum with its (app version, config, shard) and window bounds. */
public final class EmitShardSum
        extends ProcessWindowFunction<
                PartialSum, WindowSum, Tuple4<String, String, Long, Integer>, TimeWindow> {
    private static final long serialVersionUID = 1L;

    @Override
    public void process(
            Tuple4<String, String, Long, Integer> key,
            Context context,
            Iterable<PartialSum> sums,
            Collector<WindowSum> out) {
        TimeWindow window = context.window();
        for (PartialSum sum : sums) {
            out.collect(
                    new WindowSum(
                            key.f0,
                            key.f1,
                            key.f2,
                            key.f3,
                            window.getStart(),
                            window.getEnd(),
                            sum));
        }
    }
}
