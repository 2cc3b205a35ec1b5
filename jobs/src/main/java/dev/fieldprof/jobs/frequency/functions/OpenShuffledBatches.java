package dev.fieldprof.jobs.frequency.functions;

import dev.fieldprof.jobs.frequency.core.DeadLetters;
import dev.fieldprof.jobs.frequency.core.ShuffledBatchOpening;
import dev.fieldprof.jobs.frequency.records.ReportRecord;
import dev.fieldprof.jobs.io.EncodedRecord;
import dev.fieldprof.jobs.io.RawRecord;
import dev.fieldprof.sealing.AnalystKeys;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Opens the shuffler's batches with the analyst's private keyset: each report that opens and passes
 * the checks of {@link ShuffledBatchOpening} goes on to deduplication and validation like a report
 * read from the reports topic; the others become dead letters.
 *
 * <p>The keyset travels with the function (the job graph the cluster holds), so every task opens
 * with the same keys without a file on each task manager.
 */
public final class OpenShuffledBatches extends ProcessFunction<RawRecord, ReportRecord> {
    private static final long serialVersionUID = 1L;

    private final String privateKeysetJson;
    private transient ShuffledBatchOpening opening;
    private transient Counter opened;

    /**
     * @param privateKeysetJson the analyst's private keyset as Tink JSON, already checked with
     *     {@link AnalystKeys#fromPrivateKeysetJson}
     */
    public OpenShuffledBatches(String privateKeysetJson) {
        this.privateKeysetJson = privateKeysetJson;
    }

    @Override
    public void open(OpenContext context) throws Exception {
        opening =
                new ShuffledBatchOpening(
                        AnalystKeys.fromPrivateKeysetJson(privateKeysetJson).opener());
        opened = getRuntimeContext().getMetricGroup().counter("shuffledReportsOpened");
    }

    @Override
    public void processElement(RawRecord raw, Context ctx, Collector<ReportRecord> out) {
        ShuffledBatchOpening.Opened batch = opening.open(raw);
        for (EncodedRecord letter : batch.deadLetters()) {
            ctx.output(DeadLetters.TAG, letter);
        }
        for (ReportRecord report : batch.reports()) {
            opened.inc();
            out.collect(report);
        }
    }
}
