package dev.fieldprof.jobs.frequency.core;

import dev.fieldprof.jobs.frequency.records.ReportRecord;
import dev.fieldprof.jobs.io.EncodedRecord;
import dev.fieldprof.jobs.io.RawRecord;
import dev.fieldprof.schemas.DeadLetterReason;
import dev.fieldprof.schemas.RecordCodec;
import dev.fieldprof.schemas.RecordDecodingException;
import dev.fieldprof.schemas.ShuffledBatch;
import dev.fieldprof.sealing.ReportOpener;
import dev.fieldprof.sealing.SealingException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Opens one record of the shuffled reports topic (a part of a {@link ShuffledBatch}) with the
 * analyst's keys and checks what can be checked without the program model (docs/architecture.md,
 * "What the analyst sees"). Flink-free and thread-safe.
 *
 * <p>Each opened report comes out as the job's other reports do, with its batch's id and declared
 * size ({@link ReportRecord#batchId}, {@link ReportRecord#batchSize}) and the batch record's
 * timestamp, the shuffler's release time, as its event time. Its raw record, kept for its dead
 * letters, is the batch record's position with the sealed payload as its value: a dead letter of a
 * shuffled report never holds the opened report. Whether the batch is large enough for the
 * configuration is checked by validation, which holds the model ({@link ReportValidation#check}).
 *
 * <p>Dead letters:
 *
 * <ul>
 *   <li>UNDECODABLE: the record is no ShuffledBatch (its value kept whole).
 *   <li>INVALID: the batch contradicts itself (a part numbered outside its parts, a size below 1 or
 *       below the payloads of this one part); no payload of it is opened.
 *   <li>UNOPENABLE, one per payload: it does not open with the analyst's keys for the batch's (app
 *       version, config) (altered, sealed to other keys or for another group), it opens to bytes
 *       that are no FrequencyReport, or to a report of another app version or config than its
 *       batch.
 *   <li>INVALID, one per payload: the opened report carries a device id or a sequence number, which
 *       a report of the shuffled mode never does (it would undo the shuffle).
 * </ul>
 */
public final class ShuffledBatchOpening {
    private static final RecordCodec<ShuffledBatch> BATCHES = RecordCodec.of(ShuffledBatch.class);

    private final ReportOpener opener;

    /** What one batch record gave: the reports that opened, and the dead letters of the rest. */
    public record Opened(List<ReportRecord> reports, List<EncodedRecord> deadLetters) {}

    public ShuffledBatchOpening(ReportOpener opener) {
        this.opener = opener;
    }

    /** Opens and checks every payload of the batch record {@code raw}. */
    public Opened open(RawRecord raw) {
        List<ReportRecord> reports = new ArrayList<>();
        List<EncodedRecord> deadLetters = new ArrayList<>();
        ShuffledBatch batch;
        try {
            batch = BATCHES.decode(raw.value);
        } catch (RecordDecodingException e) {
            deadLetters.add(DeadLetters.of(raw, DeadLetterReason.UNDECODABLE, e.getMessage()));
            return new Opened(reports, deadLetters);
        }
        String contradiction = contradiction(batch);
        if (contradiction != null) {
            deadLetters.add(
                    DeadLetters.of(raw, DeadLetterReason.INVALID, describe(batch) + contradiction));
            return new Opened(reports, deadLetters);
        }
        List<ByteBuffer> sealed = batch.getSealed();
        for (int i = 0; i < sealed.size(); i++) {
            byte[] payload = bytesOf(sealed.get(i));
            RawRecord origin =
                    new RawRecord(
                            raw.topic, raw.partition, raw.offset, raw.timestamp, raw.key, payload);
            String where = describe(batch) + "payload " + i + ": ";
            byte[] opened;
            try {
                opened = opener.open(payload, batch.getAppVersion(), batch.getConfigId());
            } catch (SealingException e) {
                deadLetters.add(
                        DeadLetters.of(
                                origin, DeadLetterReason.UNOPENABLE, where + e.getMessage()));
                continue;
            }
            ReportRecord report;
            try {
                report =
                        ReportValidation.decode(
                                new RawRecord(
                                        raw.topic,
                                        raw.partition,
                                        raw.offset,
                                        raw.timestamp,
                                        raw.key,
                                        opened));
            } catch (RecordDecodingException e) {
                deadLetters.add(
                        DeadLetters.of(
                                origin,
                                DeadLetterReason.UNOPENABLE,
                                where + "opens to no report: " + e.getMessage()));
                continue;
            }
            if (!batch.getAppVersion().equals(report.appVersion)
                    || !batch.getConfigId().equals(report.configId)) {
                deadLetters.add(
                        DeadLetters.of(
                                origin,
                                DeadLetterReason.UNOPENABLE,
                                where
                                        + "opens to a report of "
                                        + report.appVersion
                                        + " / "
                                        + report.configId
                                        + ", not of its batch's group"));
                continue;
            }
            if (!report.deviceId.isEmpty() || report.sequence != 0) {
                deadLetters.add(
                        DeadLetters.of(
                                origin,
                                DeadLetterReason.INVALID,
                                where
                                        + "the report carries deviceId '"
                                        + report.deviceId
                                        + "' and sequence "
                                        + report.sequence
                                        + ", but a report of the shuffled mode carries no"
                                        + " identity (deviceId '', sequence 0)"));
                continue;
            }
            report.raw = origin;
            report.batchId = batch.getBatchId();
            report.batchSize = batch.getBatchSize();
            reports.add(report);
        }
        return new Opened(reports, deadLetters);
    }

    /** What makes the batch's fields contradict each other, or null. */
    private static String contradiction(ShuffledBatch batch) {
        int payloads = batch.getSealed().size();
        if (batch.getParts() < 1 || batch.getPart() < 0 || batch.getPart() >= batch.getParts()) {
            return "part " + batch.getPart() + " of " + batch.getParts() + " parts";
        }
        if (batch.getBatchSize() < 1 || batch.getBatchSize() < payloads) {
            return "batchSize " + batch.getBatchSize() + " but this part holds " + payloads;
        }
        return null;
    }

    private static String describe(ShuffledBatch batch) {
        return "shuffled batch "
                + batch.getBatchId()
                + " of "
                + batch.getAppVersion()
                + " / "
                + batch.getConfigId()
                + " (part "
                + batch.getPart()
                + " of "
                + batch.getParts()
                + ", "
                + batch.getBatchSize()
                + " reports): ";
    }

    private static byte[] bytesOf(ByteBuffer buffer) {
        ByteBuffer copy = buffer.duplicate();
        byte[] bytes = new byte[copy.remaining()];
        copy.get(bytes);
        return bytes;
    }
}
