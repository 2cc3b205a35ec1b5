package dev.fieldprof.jobs.frequency.functions;

import dev.fieldprof.jobs.frequency.core.DeadLetters;
import dev.fieldprof.jobs.io.RawRecord;
import dev.fieldprof.schemas.DeadLetterReason;
import dev.fieldprof.schemas.ReplayKeys;
import java.time.Duration;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.StateTtlConfig;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Counts every replayed report once, however often it is replayed. A replayed report already passed
 * the device-sequence deduplication when it was first read (its dead letter was written after it),
 * so that deduplication would drop it; replays are deduplicated instead by the original record's
 * coordinates, the replay record's key ({@link ReplayKeys}). Keyed by {@link #KEY}; a record whose
 * key is no replay key is dead-lettered INVALID. A key is remembered (a few bytes per replayed
 * report) for the given time of processing time, which must exceed how long a replay can still
 * count: the allowed lateness, plus how long the job may lag behind the wall clock.
 */
public final class DeduplicateReplays extends KeyedProcessFunction<String, RawRecord, RawRecord> {
    private static final long serialVersionUID = 1L;

    /** The replay key of a record, or the empty string for a record without one. */
    public static final KeySelector<RawRecord, String> KEY = new ReplayKey();

    private final Duration ttl;
    private transient ValueState<Boolean> replayed;
    private transient Counter duplicates;

    /**
     * @param ttl how long a replayed report's key is remembered
     */
    public DeduplicateReplays(Duration ttl) {
        this.ttl = ttl;
    }

    @Override
    public void open(OpenContext context) {
        ValueStateDescriptor<Boolean> descriptor =
                new ValueStateDescriptor<>("replayed", Types.BOOLEAN);
        descriptor.enableTimeToLive(
                StateTtlConfig.newBuilder(ttl)
                        .setUpdateType(StateTtlConfig.UpdateType.OnCreateAndWrite)
                        .setStateVisibility(StateTtlConfig.StateVisibility.NeverReturnExpired)
                        .build());
        replayed = getRuntimeContext().getState(descriptor);
        duplicates = getRuntimeContext().getMetricGroup().counter("duplicateReplays");
    }

    @Override
    public void processElement(RawRecord raw, Context ctx, Collector<RawRecord> out)
            throws Exception {
        if (ctx.getCurrentKey().isEmpty()) {
            ctx.output(
                    DeadLetters.TAG,
                    DeadLetters.of(
                            raw,
                            DeadLetterReason.INVALID,
                            "replayed record without a replay key (topic/partition/offset of the"
                                    + " original report)"));
            return;
        }
        if (replayed.value() != null) {
            duplicates.inc();
            return;
        }
        replayed.update(Boolean.TRUE);
        out.collect(raw);
    }

    private static final class ReplayKey implements KeySelector<RawRecord, String> {
        private static final long serialVersionUID = 1L;

        @Override
        public String getKey(RawRecord raw) {
            return ReplayKeys.parse(raw.key).orElse("");
        }
    }
}
