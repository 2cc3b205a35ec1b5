package dev.fieldprof.jobs.frequency.functions;

import dev.fieldprof.jobs.estimation.PartialSum;
import dev.fieldprof.jobs.frequency.ProgramCache;
import dev.fieldprof.jobs.frequency.ProgramIndex;
import dev.fieldprof.jobs.frequency.WindowEstimates;
import dev.fieldprof.jobs.frequency.records.EncodedRecord;
import dev.fieldprof.jobs.frequency.records.EstimatorState;
import dev.fieldprof.jobs.frequency.records.ProgramUpdate;
import dev.fieldprof.jobs.frequency.records.WindowSum;
import dev.fieldprof.schemas.EstimateWindow;
import dev.fieldprof.schemas.RecordCodec;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.streaming.api.functions.co.KeyedBroadcastProcessFunction;
import org.apache.flink.util.Collector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one expensive step per window: estimate, project onto the constraints and encode the
 * EstimateWindow of a merged window sum, then the cumulative estimate since the start. Keyed by
 * (app version, config); program models are broadcast to it.
 */
public final class EstimateWindows
        extends KeyedBroadcastProcessFunction<
                Tuple2<String, String>, WindowSum, ProgramUpdate, EncodedRecord> {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(EstimateWindows.class);
    private static final RecordCodec<EstimateWindow> CODEC = RecordCodec.of(EstimateWindow.class);

    /** Program model bytes by app version, broadcast to every instance. */
    public static final MapStateDescriptor<String, byte[]> PROGRAMS =
            new MapStateDescriptor<>(
                    "program-models",
                    Types.STRING,
                    PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO);

    private static final ValueStateDescriptor<EstimatorState> STATE =
            new ValueStateDescriptor<>("estimator", TypeInformation.of(EstimatorState.class));

    private final double hotThreshold;
    private final int top;
    private transient WindowEstimates estimates;
    private transient ProgramCache cache;
    private transient ValueState<EstimatorState> state;

    public EstimateWindows(double hotThreshold, int top) {
        this.hotThreshold = hotThreshold;
        this.top = top;
        new WindowEstimates(hotThreshold, top); // fail at job build time on bad values
    }

    @Override
    public void open(OpenContext context) {
        estimates = new WindowEstimates(hotThreshold, top);
        cache = new ProgramCache();
        state = getRuntimeContext().getState(STATE);
    }

    @Override
    public void processElement(WindowSum sum, ReadOnlyContext ctx, Collector<EncodedRecord> out)
            throws Exception {
        EstimatorState current = state.value() == null ? new EstimatorState() : state.value();
        ProgramIndex model =
                cache.get(sum.appVersion, ctx.getBroadcastState(PROGRAMS).get(sum.appVersion));
        if (model == null) {
            // Validation saw the model, this operator's copy of the broadcast has not yet.
            current.waiting = Arrays.copyOf(current.waiting, current.waiting.length + 1);
            current.waiting[current.waiting.length - 1] = sum;
        } else {
            emit(sum, model, current, out);
        }
        state.update(current);
    }

    @Override
    public void processBroadcastElement(
            ProgramUpdate update, Context ctx, Collector<EncodedRecord> out) throws Exception {
        ctx.getBroadcastState(PROGRAMS).put(update.appVersion, update.model);
        ProgramIndex model = cache.get(update.appVersion, update.model);
        ctx.applyToKeyedState(
                STATE,
                (key, keyed) -> {
                    EstimatorState current = keyed.value();
                    if (key.f0.equals(update.appVersion)
                            && current != null
                            && current.waiting.length > 0) {
                        for (WindowSum sum : current.waiting) {
                            emit(sum, model, current, out);
                        }
                        current.waiting = new WindowSum[0];
                        keyed.update(current);
                    }
                });
    }

    private void emit(
            WindowSum sum,
            ProgramIndex model,
            EstimatorState current,
            Collector<EncodedRecord> out) {
        byte[] key = sum.appVersion.getBytes(StandardCharsets.UTF_8);
        if (sum.sum.width() != model.methodCount() || model.config(sum.configId) == null) {
            // The model changed under reports validated against its predecessor: they cannot be
            // estimated against the new one.
            LOG.warn(
                    "dropping window [{}, {}) of {} / {}: its {} reports do not fit the current"
                            + " program model",
                    sum.windowStart,
                    sum.windowEnd,
                    sum.appVersion,
                    sum.configId,
                    sum.sum.getReports());
            return;
        }
        out.collect(
                new EncodedRecord(
                        key,
                        CODEC.encode(
                                estimates.estimate(
                                        model,
                                        sum.configId,
                                        sum.windowStart,
                                        sum.windowEnd,
                                        sum.sum,
                                        false))));
        if (current.cumulative.getReports() > 0 && current.cumulative.width() != sum.sum.width()) {
            // A new model version changed V: the running sum cannot continue across it.
            current.cumulative = new PartialSum();
            current.cumulativeStart = Long.MAX_VALUE;
        }
        current.cumulative.merge(sum.sum);
        current.cumulativeStart = Math.min(current.cumulativeStart, sum.windowStart);
        current.cumulativeEnd = Math.max(current.cumulativeEnd, sum.windowEnd);
        out.collect(
                new EncodedRecord(
                        key,
                        CODEC.encode(
                                estimates.estimate(
                                        model,
                                        sum.configId,
                                        current.cumulativeStart,
                                        current.cumulativeEnd,
                                        current.cumulative,
                                        true))));
    }
}
