package dev.fieldprof.jobs.frequency.functions;

import dev.fieldprof.jobs.frequency.records.ShardWindowSums;
import dev.fieldprof.jobs.frequency.records.WindowSum;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.streaming.api.functions.windowing.ProcessWindowFunction;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;
import org.apache.flink.util.Collector;

/**
 * Emits a shard's window sums, one per (config, generation), labelled with the app version, the
 * shard and the window bounds.
 */
public final class EmitShardSum
        extends ProcessWindowFunction<
                ShardWindowSums, WindowSum, Tuple2<String, Integer>, TimeWindow> {
    private static final long serialVersionUID = 1L;

    @Override
    public void process(
            Tuple2<String, Integer> key,
            Context context,
            Iterable<ShardWindowSums> results,
            Collector<WindowSum> out) {
        TimeWindow window = context.window();
        for (ShardWindowSums sums : results) {
            sums.windowSums(key.f0, key.f1, window.getStart(), window.getEnd())
                    .forEach(out::collect);
        }
    }
}
