package dev.fieldprof.jobs.frequency.functions;

import dev.fieldprof.jobs.frequency.records.ReportBundle;
import dev.fieldprof.jobs.frequency.records.ReportRecord;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.util.OutputTag;

/**
 * Sums the validated reports of each (app version, shard, window) in memory and hands the window
 * sum one {@link ReportBundle} per key and window at a time, instead of every report.
 *
 * <p>Why: a window's sum is |V| longs, and on RocksDB every addition to it reads, deserializes,
 * serializes and writes all of them (8 MB per report at a million methods). Bundled, the window's
 * state is written once per bundle: when the watermark reaches the window's end (before that
 * watermark goes on, so the window fires with every report), before each checkpoint barrier (so no
 * report is only in memory when a checkpoint completes: a restore replays it from Kafka), at the
 * end of the input, and when the bundles hold more than {@code maxCells} longs.
 *
 * <p>Lateness is decided here exactly as the window operator would, against the same watermark (the
 * last one this operator passed on): a report whose window's allowed lateness has passed goes to
 * {@code late} whole, to become a LATE dead letter with its own identity. A report within the
 * lateness of a window already estimated is bundled too, and its bundle goes on at the next
 * watermark or within {@link RevisingTrigger#COALESCE_MILLIS} of processing time, so a replayed
 * backlog makes a few revisions of its window rather than one state write per report.
 *
 * <p>The windows must be the window sum's: tumbling, of {@code window}, aligned to the epoch.
 * Stateless in checkpoints (nothing is held across a barrier).
 */
public final class BundleReports extends AbstractStreamOperator<ReportBundle>
        implements OneInputStreamOperator<ReportRecord, ReportBundle> {
    private static final long serialVersionUID = 1L;

    /**
     * The longs the bundles of one subtask hold before they are all handed on: 256 MB, about 32
     * windows of one shard at a million methods. A key's bundle starts at its program's |V| longs,
     * whatever its number of reports.
     */
    public static final long DEFAULT_MAX_CELLS = 1L << 25;

    private final long windowMillis;
    private final long allowedLatenessMillis;
    private final int shards;
    private final long maxCells;
    private final OutputTag<ReportRecord> late;

    private transient Map<BundleKey, ReportBundle> bundles;
    private transient long cells;
    private transient long watermark;
    private transient boolean lateFlushScheduled;

    /**
     * @param window the window sum's tumbling window length, positive
     * @param allowedLateness the window sum's allowed lateness, {@code >= 0}
     * @param shards the job's {@code --shards}, as {@link Keys.AppShard} uses it
     * @param maxCells the longs all bundles may hold before they are handed on, positive
     * @param late where a report beyond its window's allowed lateness goes
     */
    public BundleReports(
            Duration window,
            Duration allowedLateness,
            int shards,
            long maxCells,
            OutputTag<ReportRecord> late) {
        if (window.toMillis() <= 0) {
            throw new IllegalArgumentException("window must be positive, got " + window);
        }
        if (allowedLateness.isNegative()) {
            throw new IllegalArgumentException(
                    "allowed lateness must be >= 0, got " + allowedLateness);
        }
        if (shards < 1 || maxCells < 1) {
            throw new IllegalArgumentException(
                    "shards and maxCells must be >= 1, got " + shards + " and " + maxCells);
        }
        this.windowMillis = window.toMillis();
        this.allowedLatenessMillis = allowedLateness.toMillis();
        this.shards = shards;
        this.maxCells = maxCells;
        this.late = late;
    }

    @Override
    public void open() throws Exception {
        super.open();
        bundles = new LinkedHashMap<>();
        cells = 0;
        watermark = Long.MIN_VALUE;
        lateFlushScheduled = false;
    }

    @Override
    public void processElement(StreamRecord<ReportRecord> element) throws Exception {
        ReportRecord report = element.getValue();
        long start = TimeWindow.getWindowStartWithOffset(element.getTimestamp(), 0, windowMillis);
        long maxTimestamp = start + windowMillis - 1;
        if (cleanupTime(maxTimestamp) <= watermark) {
            output.collect(late, element);
            return;
        }
        BundleKey key = new BundleKey(report.appVersion, report.shard(shards), start);
        ReportBundle bundle = bundles.get(key);
        if (bundle == null) {
            bundle = new ReportBundle(key.appVersion(), key.shard(), start);
            bundles.put(key, bundle);
        }
        cells -= bundle.cells();
        bundle.sums.add(report);
        cells += bundle.cells();
        if (maxTimestamp <= watermark) {
            scheduleLateFlush();
        }
        if (cells > maxCells) {
            flush(Long.MAX_VALUE);
        }
    }

    /** Hands on the bundles this watermark fires or makes late, then the watermark. */
    @Override
    public void processWatermark(Watermark mark) throws Exception {
        flush(mark.getTimestamp());
        super.processWatermark(mark);
        watermark = Math.max(watermark, mark.getTimestamp());
    }

    @Override
    public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
        super.prepareSnapshotPreBarrier(checkpointId);
        flush(Long.MAX_VALUE);
    }

    @Override
    public void finish() throws Exception {
        flush(Long.MAX_VALUE);
        super.finish();
    }

    private void scheduleLateFlush() {
        if (lateFlushScheduled) {
            return;
        }
        lateFlushScheduled = true;
        long now = getProcessingTimeService().getCurrentProcessingTime();
        long at = (now / RevisingTrigger.COALESCE_MILLIS + 1) * RevisingTrigger.COALESCE_MILLIS;
        getProcessingTimeService()
                .registerTimer(
                        at,
                        time -> {
                            lateFlushScheduled = false;
                            flush(watermark);
                        });
    }

    /** Hands on, in arrival order, every bundle of a window that ends at or before {@code upTo}. */
    private void flush(long upTo) {
        if (bundles.isEmpty()) {
            return;
        }
        List<BundleKey> sent = new ArrayList<>();
        for (Map.Entry<BundleKey, ReportBundle> entry : bundles.entrySet()) {
            long maxTimestamp = entry.getKey().windowStart() + windowMillis - 1;
            if (maxTimestamp <= upTo) {
                ReportBundle bundle = entry.getValue();
                cells -= bundle.cells();
                output.collect(new StreamRecord<>(bundle, maxTimestamp));
                sent.add(entry.getKey());
            }
        }
        sent.forEach(bundles::remove);
    }

    /** As Flink's window operator: the window's end plus the lateness, at most Long.MAX_VALUE. */
    private long cleanupTime(long maxTimestamp) {
        long cleanup = maxTimestamp + allowedLatenessMillis;
        return cleanup >= maxTimestamp ? cleanup : Long.MAX_VALUE;
    }

    private record BundleKey(String appVersion, int shard, long windowStart) {}
}
