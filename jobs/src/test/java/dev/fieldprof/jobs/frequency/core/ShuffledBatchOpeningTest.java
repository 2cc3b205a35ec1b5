package dev.fieldprof.jobs.frequency.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.fieldprof.jobs.frequency.records.ReportRecord;
import dev.fieldprof.jobs.io.RawRecord;
import dev.fieldprof.schemas.DeadLetter;
import dev.fieldprof.schemas.DeadLetterReason;
import dev.fieldprof.schemas.FrequencyReport;
import dev.fieldprof.schemas.RecordCodec;
import dev.fieldprof.schemas.RecordDecodingException;
import dev.fieldprof.schemas.ShuffledBatch;
import dev.fieldprof.sealing.AnalystKeys;
import dev.fieldprof.sealing.ReportSealer;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Opening the shuffler's batches: what opens goes on, everything else is a dead letter. */
class ShuffledBatchOpeningTest {
    private static final String APP = "shop:2.1";
    private static final String TOPIC = "fieldprof.reports.shuffled";
    private static final long RELEASED = 1_764_300_000_000L;
    private static final RecordCodec<FrequencyReport> REPORTS =
            RecordCodec.of(FrequencyReport.class);
    private static final RecordCodec<ShuffledBatch> BATCHES = RecordCodec.of(ShuffledBatch.class);
    private static final RecordCodec<DeadLetter> LETTERS = RecordCodec.of(DeadLetter.class);

    private static AnalystKeys keys;
    private static ReportSealer sealer;
    private static ShuffledBatchOpening opening;

    @BeforeAll
    static void keys() throws Exception {
        keys = AnalystKeys.generate();
        sealer = keys.sealer();
        opening = new ShuffledBatchOpening(keys.opener());
    }

    private static byte[] report(String id, String deviceId, String configId, long sequence) {
        return REPORTS.encode(
                FrequencyReport.newBuilder()
                        .setReportId(id)
                        .setDeviceId(deviceId)
                        .setAppVersion(APP)
                        .setConfigId(configId)
                        .setSequence(sequence)
                        .setK(4)
                        .setCreatedAtMillis(Instant.EPOCH)
                        .setCounts(List.of(1, 0, 3))
                        .build());
    }

    private static byte[] sealed(byte[] payload, String configId) throws Exception {
        return sealer.seal(payload, APP, configId);
    }

    private static RawRecord batch(int batchSize, int part, int parts, byte[]... payloads) {
        ShuffledBatch batch =
                ShuffledBatch.newBuilder()
                        .setBatchId("b-1")
                        .setAppVersion(APP)
                        .setConfigId("default")
                        .setBatchSize(batchSize)
                        .setMinBatchSize(2)
                        .setPart(part)
                        .setParts(parts)
                        .setSealed(Arrays.stream(payloads).map(ByteBuffer::wrap).toList())
                        .build();
        return raw(BATCHES.encode(batch));
    }

    private static RawRecord raw(byte[] value) {
        return new RawRecord(
                TOPIC, 3, 41, RELEASED, "b-1/0".getBytes(StandardCharsets.UTF_8), value);
    }

    private static List<DeadLetter> letters(ShuffledBatchOpening.Opened opened) {
        return opened.deadLetters().stream().map(r -> r.value).map(LETTERS::decode).toList();
    }

    @Test
    void reportsThatOpenGoOnWithTheirBatchAndTheReleaseTime() throws Exception {
        byte[] first = sealed(report("r-1", "", "default", 0), "default");
        byte[] second = sealed(report("r-2", "", "default", 0), "default");

        ShuffledBatchOpening.Opened opened = opening.open(batch(5, 1, 2, first, second));

        assertThat(opened.deadLetters()).isEmpty();
        assertThat(opened.reports())
                .extracting(
                        r -> r.reportId,
                        r -> r.appVersion,
                        r -> r.configId,
                        r -> r.batchId,
                        r -> r.batchSize,
                        r -> r.raw.timestamp,
                        r -> r.raw.offset)
                .containsExactly(
                        tuple("r-1", APP, "default", "b-1", 5, RELEASED, 41L),
                        tuple("r-2", APP, "default", "b-1", 5, RELEASED, 41L));
        assertThat(opened.reports().get(0).counts).containsExactly(1, 0, 3);
        assertThat(opened.reports().get(0).raw.value)
                .as("kept for a dead letter: the sealed payload, never the opened report")
                .isEqualTo(first);
    }

    @Test
    void aTamperedPayloadIsUnopenableAndTheOthersStillCount() throws Exception {
        byte[] good = sealed(report("r-1", "", "default", 0), "default");
        byte[] tampered = sealed(report("r-2", "", "default", 0), "default");
        tampered[tampered.length - 1] ^= 1;

        ShuffledBatchOpening.Opened opened = opening.open(batch(2, 0, 1, good, tampered));

        assertThat(opened.reports()).extracting(r -> r.reportId).containsExactly("r-1");
        List<DeadLetter> letters = letters(opened);
        assertThat(letters)
                .extracting(DeadLetter::getReasonCode, DeadLetter::getReason)
                .containsExactly(
                        tuple(
                                DeadLetterReason.UNOPENABLE,
                                "shuffled batch b-1 of shop:2.1 / default (part 0 of 1, 2"
                                        + " reports): payload 1: sealed payload of "
                                        + tampered.length
                                        + " bytes does not open with the analyst's keys for"
                                        + " shop:2.1 / default"));
        assertThat(letters.get(0).getSourceTopic()).isEqualTo(TOPIC);
        assertThat(letters.get(0).getOffset()).isEqualTo(41L);
        assertThat(bytes(letters.get(0).getValue())).isEqualTo(tampered);
    }

    @Test
    void payloadsOfAnotherGroupOrOtherKeysAreUnopenable() throws Exception {
        byte[] otherGroup = sealed(report("r-1", "", "other", 0), "other");
        byte[] otherKeys =
                AnalystKeys.generate()
                        .sealer()
                        .seal(report("r-2", "", "default", 0), APP, "default");
        // Sealed for the batch's group, but the report inside names another configuration.
        byte[] lyingReport = sealed(report("r-3", "", "other", 0), "default");
        byte[] noReport = sealed(new byte[] {1, 2, 3}, "default");
        String notAReport = decodeFailure(new byte[] {1, 2, 3});

        ShuffledBatchOpening.Opened opened =
                opening.open(batch(4, 0, 1, otherGroup, otherKeys, lyingReport, noReport));

        String batch = "shuffled batch b-1 of shop:2.1 / default (part 0 of 1, 4 reports): ";
        assertThat(opened.reports()).isEmpty();
        assertThat(letters(opened))
                .extracting(DeadLetter::getReasonCode, DeadLetter::getReason)
                .containsExactly(
                        tuple(
                                DeadLetterReason.UNOPENABLE,
                                batch
                                        + "payload 0: sealed payload of "
                                        + otherGroup.length
                                        + " bytes does not open with the analyst's keys for"
                                        + " shop:2.1 / default"),
                        tuple(
                                DeadLetterReason.UNOPENABLE,
                                batch
                                        + "payload 1: sealed payload of "
                                        + otherKeys.length
                                        + " bytes does not open with the analyst's keys for"
                                        + " shop:2.1 / default"),
                        tuple(
                                DeadLetterReason.UNOPENABLE,
                                batch
                                        + "payload 2: opens to a report of shop:2.1 / other, not"
                                        + " of its batch's group"),
                        tuple(
                                DeadLetterReason.UNOPENABLE,
                                batch + "payload 3: opens to no report: " + notAReport));
    }

    @Test
    void aReportThatCarriesItsDeviceIsInvalid() throws Exception {
        byte[] identified = sealed(report("r-1", "device-7", "default", 12), "default");

        ShuffledBatchOpening.Opened opened = opening.open(batch(2, 0, 1, identified));

        assertThat(opened.reports()).isEmpty();
        assertThat(letters(opened))
                .extracting(DeadLetter::getReasonCode, DeadLetter::getReason)
                .containsExactly(
                        tuple(
                                DeadLetterReason.INVALID,
                                "shuffled batch b-1 of shop:2.1 / default (part 0 of 1, 2"
                                        + " reports): payload 0: the report carries deviceId"
                                        + " 'device-7' and sequence 12, but a report of the"
                                        + " shuffled mode carries no identity (deviceId '',"
                                        + " sequence 0)"));
    }

    @Test
    void aBatchThatContradictsItselfOrIsNoBatchIsOneDeadLetter() throws Exception {
        byte[] payload = sealed(report("r-1", "", "default", 0), "default");

        ShuffledBatchOpening.Opened badPart = opening.open(batch(2, 2, 2, payload));
        ShuffledBatchOpening.Opened tooMany = opening.open(batch(1, 0, 1, payload, payload));
        ShuffledBatchOpening.Opened garbage = opening.open(raw(new byte[] {7, 7, 7}));

        assertThat(badPart.reports()).isEmpty();
        assertThat(letters(badPart))
                .extracting(DeadLetter::getReasonCode, DeadLetter::getReason)
                .containsExactly(
                        tuple(
                                DeadLetterReason.INVALID,
                                "shuffled batch b-1 of shop:2.1 / default (part 2 of 2, 2"
                                        + " reports): part 2 of 2 parts"));
        assertThat(tooMany.reports()).isEmpty();
        assertThat(letters(tooMany))
                .extracting(DeadLetter::getReasonCode, DeadLetter::getReason)
                .containsExactly(
                        tuple(
                                DeadLetterReason.INVALID,
                                "shuffled batch b-1 of shop:2.1 / default (part 0 of 1, 1"
                                        + " reports): batchSize 1 but this part holds 2"));
        assertThat(garbage.reports()).isEmpty();
        assertThat(letters(garbage))
                .extracting(DeadLetter::getReasonCode)
                .containsExactly(DeadLetterReason.UNDECODABLE);
        assertThat(bytes(letters(garbage).get(0).getValue())).containsExactly(7, 7, 7);
    }

    private static String decodeFailure(byte[] bytes) {
        try {
            ReportRecord decoded = ReportValidation.decode(raw(bytes));
            throw new AssertionError("decoded " + decoded.reportId);
        } catch (RecordDecodingException e) {
            return e.getMessage();
        }
    }

    private static byte[] bytes(ByteBuffer buffer) {
        byte[] out = new byte[buffer.remaining()];
        buffer.duplicate().get(out);
        return out;
    }
}
