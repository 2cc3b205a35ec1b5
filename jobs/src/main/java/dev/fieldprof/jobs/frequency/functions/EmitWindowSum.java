package dev.fieldprof.jobs.frequency.functions;

import dev.fieldprof.estimation.PartialSum;
import dev.fieldprof.jobs.frequency.records.WindowSum;
import org.apache.flink.api.java.tuple.Tuple3;
import org.apache.flink.streaming.api.functions.windowing.ProcessWindowFunction;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;
import org.apache.flink.util.Collector;

/** Labels a merged window sum with its (app version, config) and window bounds. */
public final class EmitWindowSum
        extends ProcessWindowFunction<
                PartialSum, WindowSum, Tuple3<String, String, Long>, TimeWindow> {
    private static final long serialVersionUID = 1L;

    @Override
    public void process(
            Tuple3<String, String, Long> key,
            Context context,
            Iterable<PartialSum> sums,
            Collector<WindowSum> out) {
        TimeWindow window = context.window();
        for (PartialSum sum : sums) {
            out.collect(
                    new WindowSum(
                            key.f0, key.f1, key.f2, -1, window.getStart(), window.getEnd(), sum));
        }
    }
}
