package dev.fieldprof.jobs.shuffle;

import dev.fieldprof.schemas.DeadLetterReason;
import dev.fieldprof.schemas.RecordCodec;
import dev.fieldprof.schemas.SealedReport;
import dev.fieldprof.schemas.ShuffledBatch;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Holds the distinct reports of one (app version, config) until they are many enough to hide in
 * each other, then releases them as one shuffled batch. Keyed by {@link ShufflerKeys.Group}.
 *
 * <ul>
 *   <li>A group is looked at on a processing-time timer, every release interval from its first held
 *       report: when it holds at least the minimum batch size, everything it holds is released as
 *       one batch.
 *   <li>A group that reaches the maximum batch size is released at once, with exactly that many.
 *   <li>A group still below the minimum when its oldest held report has waited the maximum wait
 *       releases nothing: each held report becomes a SHUFFLE_WAIT_EXPIRED dead letter keeping the
 *       SealedReport whole, and the group starts afresh.
 * </ul>
 *
 * <p>A released batch is put in a uniformly random order ({@link SecureShuffle}), given a random
 * UUID, and split into ShuffledBatch parts ({@link BatchParts}), each stamped with the release
 * time. Device ids, sequences and arrival times stay in this function's state and leave only in
 * dead letters. The state is checkpointed with the input offsets and the sink's transaction: a
 * release whose checkpoint does not complete is aborted with its transaction and drawn again (in
 * another order, under another id) from the restored state, so no report is in two released
 * batches.
 */
public final class BatchSealedReports
        extends KeyedProcessFunction<Tuple2<String, String>, SealedRecord, ReleasedPart> {
    private static final long serialVersionUID = 1L;
    private static final RecordCodec<SealedReport> CODEC = RecordCodec.of(SealedReport.class);

    private final String inputTopic;
    private final int minBatchSize;
    private final int maxBatchSize;
    private final long releaseIntervalMillis;
    private final long maxWaitMillis;
    private final BatchParts parts;

    private transient ListState<HeldReport> held;
    private transient ValueState<Integer> count;
    private transient ValueState<Long> oldestHeldAt;
    private transient ValueState<Long> nextLook;
    private transient SecureShuffle shuffle;
    private transient Counter batches;
    private transient Counter expired;

    /**
     * @param inputTopic the topic the reports were read from, named in dead letters
     * @param minBatchSize the fewest reports a batch is released with, at least 1
     * @param maxBatchSize the most, at least {@code minBatchSize}
     * @param releaseInterval how often a group is looked at
     * @param maxWait how long a group below the minimum holds its oldest report
     */
    public BatchSealedReports(
            String inputTopic,
            int minBatchSize,
            int maxBatchSize,
            Duration releaseInterval,
            Duration maxWait,
            BatchParts parts) {
        if (minBatchSize < 1 || maxBatchSize < minBatchSize) {
            throw new IllegalArgumentException(
                    "batch sizes must be 1 <= min <= max, got "
                            + minBatchSize
                            + ", "
                            + maxBatchSize);
        }
        this.inputTopic = inputTopic;
        this.minBatchSize = minBatchSize;
        this.maxBatchSize = maxBatchSize;
        this.releaseIntervalMillis = releaseInterval.toMillis();
        this.maxWaitMillis = maxWait.toMillis();
        this.parts = parts;
    }

    @Override
    public void open(OpenContext context) {
        held =
                getRuntimeContext()
                        .getListState(
                                new ListStateDescriptor<>(
                                        "held-reports", TypeInformation.of(HeldReport.class)));
        count = getRuntimeContext().getState(new ValueStateDescriptor<>("held-count", Types.INT));
        oldestHeldAt =
                getRuntimeContext()
                        .getState(new ValueStateDescriptor<>("oldest-held-at", Types.LONG));
        nextLook =
                getRuntimeContext().getState(new ValueStateDescriptor<>("next-look", Types.LONG));
        shuffle = new SecureShuffle();
        batches = getRuntimeContext().getMetricGroup().counter("shuffledBatchesReleased");
        expired = getRuntimeContext().getMetricGroup().counter("shuffleWaitsExpired");
    }

    @Override
    public void processElement(SealedRecord report, Context ctx, Collector<ReleasedPart> out)
            throws Exception {
        long now = ctx.timerService().currentProcessingTime();
        held.add(report.held);
        Integer before = count.value();
        int holding = before == null ? 1 : before + 1;
        if (holding == 1) {
            oldestHeldAt.update(now);
            lookAgain(ctx, now);
        }
        if (holding >= maxBatchSize) {
            release(ctx.getCurrentKey(), ctx, now, out);
        } else {
            count.update(holding);
        }
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<ReleasedPart> out)
            throws Exception {
        Long due = nextLook.value();
        if (due == null || due != timestamp) {
            return; // a look of a group that was released since
        }
        nextLook.clear();
        Integer holding = count.value();
        if (holding == null) {
            return;
        }
        if (holding >= minBatchSize) {
            release(ctx.getCurrentKey(), ctx, timestamp, out);
        } else if (timestamp >= oldestHeldAt.value() + maxWaitMillis) {
            expire(ctx.getCurrentKey(), ctx, holding);
        } else {
            lookAgain(ctx, timestamp);
        }
    }

    /** The next look: one interval on, or when the oldest report's wait ends if that is sooner. */
    private void lookAgain(Context ctx, long now) throws Exception {
        long due = Math.min(now + releaseIntervalMillis, oldestHeldAt.value() + maxWaitMillis);
        ctx.timerService().registerProcessingTimeTimer(due);
        nextLook.update(due);
    }

    private void release(
            Tuple2<String, String> group, Context ctx, long now, Collector<ReleasedPart> out)
            throws Exception {
        List<ByteBuffer> sealed = new ArrayList<>();
        for (HeldReport report : held.get()) {
            // Decoded on arrival already, so it decodes again.
            sealed.add(CODEC.decode(report.value).getSealed());
        }
        clear(ctx);
        shuffle.shuffle(sealed);
        String batchId = UUID.randomUUID().toString();
        for (ShuffledBatch part : parts.split(batchId, group.f0, group.f1, minBatchSize, sealed)) {
            out.collect(
                    new ReleasedPart(
                            (batchId + "/" + part.getPart()).getBytes(StandardCharsets.UTF_8),
                            BatchParts.encode(part),
                            now));
        }
        batches.inc();
    }

    private void expire(Tuple2<String, String> group, Context ctx, int holding) throws Exception {
        String why =
                "app version "
                        + group.f0
                        + ", config "
                        + group.f1
                        + " held "
                        + holding
                        + " reports for "
                        + Duration.ofMillis(maxWaitMillis)
                        + ", fewer than the "
                        + minBatchSize
                        + " a batch is released with";
        for (HeldReport report : held.get()) {
            ctx.output(
                    ShufflerDeadLetters.TAG,
                    ShufflerDeadLetters.of(
                            report.toRaw(inputTopic), DeadLetterReason.SHUFFLE_WAIT_EXPIRED, why));
        }
        clear(ctx);
        expired.inc();
    }

    private void clear(Context ctx) throws Exception {
        Long due = nextLook.value();
        if (due != null) {
            ctx.timerService().deleteProcessingTimeTimer(due);
        }
        held.clear();
        count.clear();
        oldestHeldAt.clear();
        nextLook.clear();
    }
}
