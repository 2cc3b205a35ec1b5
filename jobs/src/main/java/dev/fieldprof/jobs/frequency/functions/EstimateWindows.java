package dev.fieldprof.jobs.frequency.functions;

import dev.fieldprof.jobs.frequency.core.CentralGuarantee;
import dev.fieldprof.jobs.frequency.core.DeadLetters;
import dev.fieldprof.jobs.frequency.core.ProgramCache;
import dev.fieldprof.jobs.frequency.core.ProgramIndex;
import dev.fieldprof.jobs.frequency.core.ProgramShape;
import dev.fieldprof.jobs.frequency.core.ShuffleTerms;
import dev.fieldprof.jobs.frequency.core.WindowEstimates;
import dev.fieldprof.jobs.frequency.records.EstimatorState;
import dev.fieldprof.jobs.frequency.records.ProgramUpdate;
import dev.fieldprof.jobs.frequency.records.ShuffledBatches;
import dev.fieldprof.jobs.frequency.records.WindowSum;
import dev.fieldprof.jobs.io.EncodedRecord;
import dev.fieldprof.schemas.DeadLetterReason;
import dev.fieldprof.schemas.EstimateKeys;
import dev.fieldprof.schemas.EstimateWindow;
import dev.fieldprof.schemas.RecordCodec;
import java.util.Arrays;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.tuple.Tuple3;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.co.KeyedBroadcastProcessFunction;
import org.apache.flink.util.Collector;

/**
 * The one expensive step per window: estimate, project onto the constraints and encode the
 * EstimateWindow of a merged window sum, then the cumulative estimate since the start. Keyed by
 * (app version, config, model generation), so a model republished with another |V| or other privacy
 * parameters starts a new cumulative estimate; program models are broadcast to it.
 *
 * <p>A window estimated again after late reports were added to it is published again with its
 * revision number, under the same Kafka key ({@link EstimateKeys}); the cumulative estimate takes
 * in only the reports the window's previous revision lacked, and is published again too (its
 * revision counts its publications).
 *
 * <p>An estimate of a configuration of the shuffled mode states the sizes of the batches its
 * reports came in and the central (ε, δ) it holds ({@link CentralGuarantee}).
 *
 * <p>What operators watch of the estimates, measured here where each estimate is made rather than
 * by decoding its record again on its way to the topic (tens of MB at a million methods): {@code
 * estimatesPublished} (window estimates, not cumulative ones), {@code estimateLagMillis} (from the
 * end of the last estimated window to the moment its estimate left the estimator, wall clock),
 * {@code solveMillis} and {@code kktResidual} of the last window's constraint projection.
 */
public final class EstimateWindows
        extends KeyedBroadcastProcessFunction<
                Tuple3<String, String, Long>, WindowSum, ProgramUpdate, EncodedRecord> {
    private static final long serialVersionUID = 1L;
    private static final RecordCodec<EstimateWindow> CODEC = RecordCodec.of(EstimateWindow.class);

    /**
     * Program model bytes by app version and generation ({@link #modelKey}), broadcast to every
     * instance: windows of an earlier generation still close after a model with other parameters
     * was published, and are estimated with the model they were validated against.
     */
    public static final MapStateDescriptor<String, byte[]> PROGRAMS =
            new MapStateDescriptor<>(
                    "program-models",
                    Types.STRING,
                    PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO);

    private static final ValueStateDescriptor<EstimatorState> STATE =
            new ValueStateDescriptor<>("estimator", TypeInformation.of(EstimatorState.class));

    private final String reportsTopic;
    private final double hotThreshold;
    private final int top;
    private transient WindowEstimates estimates;
    private transient ProgramCache cache;
    private transient CentralGuarantee central;
    private transient ValueState<EstimatorState> state;
    private transient Counter published;
    private transient volatile long lagMillis;
    private transient volatile double solveMillis;
    private transient volatile double kktResidual;

    /**
     * @param reportsTopic named in the dead letter of a window that cannot be estimated
     */
    public EstimateWindows(String reportsTopic, double hotThreshold, int top) {
        this.reportsTopic = reportsTopic;
        this.hotThreshold = hotThreshold;
        this.top = top;
        new WindowEstimates(hotThreshold, top); // fail at job build time on bad values
    }

    @Override
    public void open(OpenContext context) {
        estimates = new WindowEstimates(hotThreshold, top);
        cache = new ProgramCache();
        central = new CentralGuarantee();
        state = getRuntimeContext().getState(STATE);
        var metrics = getRuntimeContext().getMetricGroup();
        published = metrics.counter("estimatesPublished");
        metrics.gauge("estimateLagMillis", () -> lagMillis);
        metrics.gauge("solveMillis", () -> solveMillis);
        metrics.gauge("kktResidual", () -> kktResidual);
    }

    @Override
    public void processElement(WindowSum sum, ReadOnlyContext ctx, Collector<EncodedRecord> out)
            throws Exception {
        EstimatorState current = state.value() == null ? new EstimatorState() : state.value();
        String modelKey = modelKey(sum.appVersion, sum.generation);
        ProgramIndex model = cache.get(modelKey, ctx.getBroadcastState(PROGRAMS).get(modelKey));
        if (model == null) {
            // Validation saw the model, this operator's copy of the broadcast has not yet.
            current.waiting = Arrays.copyOf(current.waiting, current.waiting.length + 1);
            current.waiting[current.waiting.length - 1] = sum;
        } else {
            emit(sum, model, current, out, letter -> ctx.output(DeadLetters.TAG, letter));
        }
        state.update(current);
    }

    @Override
    public void processBroadcastElement(
            ProgramUpdate update, Context ctx, Collector<EncodedRecord> out) throws Exception {
        long generation = ProgramShape.fromBytes(update.shape).generation();
        String modelKey = modelKey(update.appVersion, generation);
        ctx.getBroadcastState(PROGRAMS).put(modelKey, update.model);
        ProgramIndex model = cache.get(modelKey, update.model);
        ctx.applyToKeyedState(
                STATE,
                (key, keyed) -> {
                    EstimatorState current = keyed.value();
                    if (key.f0.equals(update.appVersion)
                            && key.f2 == generation
                            && current != null
                            && current.waiting.length > 0) {
                        for (WindowSum sum : current.waiting) {
                            emit(
                                    sum,
                                    model,
                                    current,
                                    out,
                                    letter -> ctx.output(DeadLetters.TAG, letter));
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
            Collector<EncodedRecord> out,
            java.util.function.Consumer<EncodedRecord> deadLetters) {
        if (sum.sum.width() != model.methodCount() || model.config(sum.configId) == null) {
            // Only a fingerprint collision of two generations could bring this here: the sum
            // cannot be estimated against this model, and says so in the dead letters.
            deadLetters.accept(
                    DeadLetters.ofWindowSum(
                            reportsTopic,
                            sum,
                            DeadLetterReason.MODEL_CHANGED,
                            "does not fit the program model of its generation ("
                                    + model.shape().describe()
                                    + ")"));
            return;
        }
        EstimateWindow window =
                estimates.estimate(
                        model, sum.configId, sum.windowStart, sum.windowEnd, sum.sum, false);
        window.setRevision(sum.revision);
        ShuffleTerms terms = model.shape().shuffleTerms(sum.configId);
        double epsilon0 = model.config(sum.configId).epsilon();
        central.state(window, sum.batches, terms, epsilon0);
        out.collect(new EncodedRecord(EstimateKeys.bytes(window), CODEC.encode(window)));
        published.inc();
        lagMillis = System.currentTimeMillis() - window.getWindowEndMillis().toEpochMilli();
        solveMillis = window.getSolve().getMillis();
        kktResidual = window.getSolve().getKktResidual();
        // A revision adds to the cumulative estimate only the reports the previous one lacked.
        current.cumulative.merge(sum.added);
        current.cumulativeStart = Math.min(current.cumulativeStart, sum.windowStart);
        current.cumulativeEnd = Math.max(current.cumulativeEnd, sum.windowEnd);
        current.cumulativeRevision++;
        if (current.cumulativeBatches == null) {
            // Restored from state written before the shuffled mode.
            current.cumulativeBatches = new ShuffledBatches();
        }
        current.cumulativeBatches.merge(sum.batches);
        EstimateWindow cumulative =
                estimates.estimate(
                        model,
                        sum.configId,
                        current.cumulativeStart,
                        current.cumulativeEnd,
                        current.cumulative,
                        true);
        cumulative.setRevision(current.cumulativeRevision);
        central.state(cumulative, current.cumulativeBatches, terms, epsilon0);
        out.collect(new EncodedRecord(EstimateKeys.bytes(cumulative), CODEC.encode(cumulative)));
    }

    /** The broadcast state's key of one generation of an app version's model. */
    static String modelKey(String appVersion, long generation) {
        return appVersion + '#' + Long.toHexString(generation);
    }
}
