package dev.fieldprof.jobs.frequency.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fieldprof.jobs.frequency.records.ReportRecord;
import dev.fieldprof.jobs.io.RawRecord;
import dev.fieldprof.schemas.FrequencyReport;
import dev.fieldprof.schemas.PoisonRecords;
import dev.fieldprof.schemas.RecordCodec;
import dev.fieldprof.schemas.RecordDecodingException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

class FastReportDecoderTest {
    private static final RecordCodec<FrequencyReport> CODEC = RecordCodec.of(FrequencyReport.class);

    private static RawRecord raw(byte[] value) {
        return new RawRecord("reports", 0, 0, 0, null, value);
    }

    @Test
    void decodesExactlyWhatAvroDecodes() {
        long seed = 17;
        SplittableRandom random = new SplittableRandom(seed);
        for (int trial = 0; trial < 200; trial++) {
            int length = random.nextInt(0, 3000);
            int k = random.nextInt(1, 1 << 20);
            List<Integer> counts = new ArrayList<>();
            for (int v = 0; v < length; v++) {
                counts.add(random.nextInt(0, k + 1));
            }
            FrequencyReport report =
                    FrequencyReport.newBuilder()
                            .setReportId("r-" + trial + "-\u00e9")
                            .setDeviceId("device " + random.nextLong())
                            .setAppVersion("app:" + trial)
                            .setConfigId(trial % 2 == 0 ? "" : "default")
                            .setK(k)
                            .setCreatedAtMillis(Instant.ofEpochMilli(random.nextLong(0, 1L << 45)))
                            .setCounts(counts)
                            .setSequence(random.nextLong(0, Long.MAX_VALUE))
                            .setEpsilon(random.nextDouble(0, 40))
                            .setT(random.nextInt(0, 1000))
                            .build();
            ReportRecord fast = FastReportDecoder.decode(raw(CODEC.encode(report)));
            String context = "seed " + seed + " trial " + trial;
            assertThat(fast).as(context).isNotNull();
            assertThat(fast.reportId).as(context).isEqualTo(report.getReportId());
            assertThat(fast.deviceId).isEqualTo(report.getDeviceId());
            assertThat(fast.appVersion).isEqualTo(report.getAppVersion());
            assertThat(fast.configId).isEqualTo(report.getConfigId());
            assertThat(fast.k).isEqualTo(k);
            assertThat(fast.sequence).as(context).isEqualTo(report.getSequence());
            assertThat(fast.epsilon).as(context).isEqualTo(report.getEpsilon());
            assertThat(fast.t).as(context).isEqualTo(report.getT());
            assertThat(fast.counts)
                    .as(context)
                    .containsExactly(counts.stream().mapToInt(Integer::intValue).toArray());
        }
    }

    @Test
    void decodesIntsAtEveryVarintLengthBoundaryAsAvroDoes() {
        // Zigzag varints change length at 64, 8192, 2^20 and 2^27 in magnitude.
        int[] edges = {
            0,
            1,
            -1,
            63,
            -64,
            64,
            -65,
            8191,
            -8192,
            8192,
            -8193,
            (1 << 20) - 1,
            -(1 << 20),
            1 << 20,
            (1 << 27) - 1,
            1 << 27,
            Integer.MAX_VALUE,
            Integer.MIN_VALUE
        };
        List<Integer> values = new ArrayList<>();
        for (int edge : edges) {
            values.add(edge);
        }
        FrequencyReport report =
                FrequencyReport.newBuilder()
                        .setReportId("r")
                        .setDeviceId("d")
                        .setAppVersion("app:1")
                        .setConfigId("default")
                        .setK(-65)
                        .setCreatedAtMillis(Instant.ofEpochMilli(0))
                        .setCounts(values)
                        .setSubset(values)
                        .setT(8192)
                        .build();
        ReportRecord fast = FastReportDecoder.decode(raw(CODEC.encode(report)));
        assertThat(fast.counts).containsExactly(edges);
        assertThat(fast.subset).containsExactly(edges);
        assertThat(fast.k).isEqualTo(-65);
        assertThat(fast.t).isEqualTo(8192);
    }

    @Test
    void envelopeLeavesTheArraysInTheBytesUntilTheyAreRead() {
        FrequencyReport report =
                FrequencyReport.newBuilder()
                        .setReportId("r-7")
                        .setDeviceId("d-7")
                        .setAppVersion("a:1")
                        .setConfigId("user-level")
                        .setK(1)
                        .setCreatedAtMillis(Instant.EPOCH)
                        .setCounts(List.of())
                        .setSequence(7)
                        .setSubset(List.of(3, 70_000, 999_999))
                        .setEpsilon(6.5)
                        .setT(1)
                        .build();
        RawRecord raw = raw(CODEC.encode(report));

        ReportRecord envelope = ReportValidation.decodeEnvelope(raw);
        assertThat(envelope.reportId).isEqualTo("r-7");
        assertThat(envelope.deviceId).isEqualTo("d-7");
        assertThat(envelope.sequence).isEqualTo(7);
        assertThat(envelope.epsilon).isEqualTo(6.5);
        assertThat(envelope.counts).isNull();
        assertThat(envelope.subset).isNull();
        assertThat(envelope.raw).isSameAs(raw);

        ReportValidation.readArrays(envelope);
        assertThat(envelope.counts).isEmpty();
        assertThat(envelope.subset).containsExactly(3, 70_000, 999_999);
    }

    @Test
    void envelopeChecksTheArraysAsTheWholeDecodeDoes() {
        byte[] poison = PoisonRecords.frequencyReportClaimingTwoBillionCounts(CODEC.schema());
        assertRefusedAsTwoBillionCounts(() -> ReportValidation.decodeEnvelope(raw(poison)));

        // An id past an int in the subset, the array the envelope does not keep.
        FrequencyReport report =
                FrequencyReport.newBuilder()
                        .setReportId("r")
                        .setDeviceId("d")
                        .setAppVersion("a:1")
                        .setConfigId("c")
                        .setK(1)
                        .setCreatedAtMillis(Instant.EPOCH)
                        .setCounts(List.of())
                        .setSubset(List.of(5))
                        .build();
        byte[] bytes = CODEC.encode(report);
        byte[] tooLong = new byte[bytes.length + 4];
        int subsetItem = bytes.length - 8 - 1 - 1 - 1; // ... item, block end, ε, t
        System.arraycopy(bytes, 0, tooLong, 0, subsetItem);
        // 2^32 zig-zag encoded: five continuation bytes, out of an int's range.
        byte[] huge = {(byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, 0x20};
        System.arraycopy(huge, 0, tooLong, subsetItem, huge.length);
        System.arraycopy(
                bytes, subsetItem + 1, tooLong, subsetItem + 5, bytes.length - subsetItem - 1);
        assertThatThrownBy(() -> ReportValidation.decode(raw(tooLong)))
                .isInstanceOf(RecordDecodingException.class)
                .hasMessage("FrequencyReport: int out of range: 4294967296");
        assertThatThrownBy(() -> ReportValidation.decodeEnvelope(raw(tooLong)))
                .isInstanceOf(RecordDecodingException.class)
                .hasMessage("FrequencyReport: int out of range: 4294967296");
    }

    @Test
    void readArraysLeavesAWholeReportAsItIs() {
        int[] counts = {1, 2};
        ReportRecord whole = new ReportRecord("r", "d", "a:1", "c", 3, counts, raw(null));
        ReportValidation.readArrays(whole);
        assertThat(whole.counts).isSameAs(counts);
    }

    @Test
    void leavesOtherBytesToTheCodec() {
        assertThat(FastReportDecoder.decode(raw(new byte[] {9, 9}))).isNull();
        assertThat(FastReportDecoder.decode(raw(null))).isNull();
        byte[] otherFingerprint = new byte[20];
        otherFingerprint[0] = (byte) 0xC3;
        otherFingerprint[1] = 0x01;
        assertThat(FastReportDecoder.decode(raw(otherFingerprint))).isNull();
    }

    @Test
    void rejectsTruncatedAndPaddedBytes() {
        FrequencyReport report =
                FrequencyReport.newBuilder()
                        .setReportId("r")
                        .setDeviceId("d")
                        .setAppVersion("a:1")
                        .setConfigId("c")
                        .setK(4)
                        .setCreatedAtMillis(Instant.EPOCH)
                        .setCounts(List.of(1, 2, 3))
                        .build();
        byte[] bytes = CODEC.encode(report);
        for (int cut = 10; cut < bytes.length; cut++) {
            byte[] truncated = Arrays.copyOf(bytes, cut);
            assertThatThrownBy(() -> ReportValidation.decode(raw(truncated)))
                    .as("cut at %d", cut)
                    .isInstanceOf(RecordDecodingException.class);
        }
        byte[] padded = Arrays.copyOf(bytes, bytes.length + 1);
        assertThatThrownBy(() -> ReportValidation.decode(raw(padded)))
                .isInstanceOf(RecordDecodingException.class)
                .hasMessageContaining("trailing");
    }

    @Test
    void refusesTheFortyTwoByteReportClaimingTwoBillionCountsOnTheFastPath() {
        byte[] poison = PoisonRecords.frequencyReportClaimingTwoBillionCounts(CODEC.schema());

        assertRefusedAsTwoBillionCounts(() -> FastReportDecoder.decode(raw(poison)));
    }

    @Test
    void refusesTheFortyTwoByteReportOfAnOldSchemaThroughTheCodec() {
        byte[] poison =
                PoisonRecords.frequencyReportClaimingTwoBillionCounts(
                        RecordCodec.historyOf("FrequencyReport").get(0));

        assertThat(FastReportDecoder.decode(raw(poison))).isNull();
        assertRefusedAsTwoBillionCounts(() -> ReportValidation.decode(raw(poison)));
    }

    @Test
    void refusesTheFifteenByteReportClaimingATwoGigabyteString() {
        byte[] poison = PoisonRecords.fifteenBytesClaimingTwoGigabyteString(CODEC.schema());

        assertThatThrownBy(() -> ReportValidation.decode(raw(poison)))
                .isInstanceOf(RecordDecodingException.class)
                .hasMessage(
                        "FrequencyReport: cannot decode 15 bytes: string claims 2000000000 bytes"
                                + " but 0 bytes are left");
    }

    @Test
    void refusesABlockWhoseByteSizeExceedsTheBytesLeft() {
        java.io.ByteArrayOutputStream out = PoisonRecords.header(CODEC.schema());
        for (int i = 0; i < 4; i++) {
            PoisonRecords.varLong(out, 0);
        }
        PoisonRecords.varLong(out, 1); // k
        PoisonRecords.varLong(out, 0); // createdAtMillis
        PoisonRecords.varLong(out, -1); // a block of one item
        PoisonRecords.varLong(out, 1_000_000); // that claims 10⁶ bytes
        PoisonRecords.varLong(out, 1);
        byte[] bytes = out.toByteArray();

        assertThatThrownBy(() -> FastReportDecoder.decode(raw(bytes)))
                .isInstanceOf(RecordDecodingException.class)
                .hasMessage(
                        "FrequencyReport: cannot decode "
                                + bytes.length
                                + " bytes: array block claims 1000000 bytes but 1 bytes are left");
    }

    /** The one line the 42-byte poison report gets, whichever decoding meets it first. */
    private static void assertRefusedAsTwoBillionCounts(ThrowingCallable decode) {
        assertThatThrownBy(decode)
                .isInstanceOf(RecordDecodingException.class)
                .hasMessage(
                        "FrequencyReport: cannot decode 42 bytes: array block claims 2000000000"
                                + " items but 0 bytes are left (every item takes at least one)");
    }
}
