package dev.fieldprof.schemas;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificRecordBase;
import org.junit.jupiter.api.Test;

/**
 * Records whose lengths and counts claim more than their bytes hold are refused before anything is
 * allocated for the claim. Before the bound each of these threw OutOfMemoryError (2·10⁹ ints are 8
 * GB, a 2·10⁹-byte string 2 GB; surefire runs with -Xmx2g).
 */
class HostileRecordsTest {
    private static final List<Class<? extends SpecificRecordBase>> STRING_FIRST =
            List.of(
                    FrequencyReport.class,
                    PathReport.class,
                    EdgeModel.class,
                    ProgramModel.class,
                    DeadLetter.class,
                    EstimateWindow.class);

    @Test
    void fortyTwoByteFrequencyReportClaimingTwoBillionCountsOfTheCurrentSchema() {
        RecordCodec<FrequencyReport> codec = RecordCodec.of(FrequencyReport.class);
        byte[] poison = PoisonRecords.frequencyReportClaimingTwoBillionCounts(codec.schema());

        assertThatThrownBy(() -> codec.decode(poison))
                .isInstanceOf(RecordDecodingException.class)
                .hasMessage(
                        "FrequencyReport: cannot decode 42 bytes: array block claims 2000000000"
                                + " items but 0 bytes are left (every item takes at least one)");
    }

    @Test
    void fortyTwoByteFrequencyReportClaimingTwoBillionCountsOfEveryOldSchema() {
        RecordCodec<FrequencyReport> codec = RecordCodec.of(FrequencyReport.class);
        List<Schema> history = RecordCodec.historyOf("FrequencyReport");
        assertThat(history).hasSize(4);
        for (Schema old : history) {
            byte[] poison = PoisonRecords.frequencyReportClaimingTwoBillionCounts(old);
            assertThatThrownBy(() -> codec.decode(poison))
                    .isInstanceOf(RecordDecodingException.class)
                    .hasMessage(
                            "FrequencyReport: cannot decode 42 bytes: array block claims"
                                    + " 2000000000 items but 0 bytes are left (every item takes"
                                    + " at least one)");
        }
    }

    @Test
    void fifteenByteRecordClaimingTwoGigabyteStringOfEveryTypeAndVersion() {
        for (Class<? extends SpecificRecordBase> type : STRING_FIRST) {
            RecordCodec<? extends SpecificRecordBase> codec = RecordCodec.of(type);
            List<Schema> versions =
                    new java.util.ArrayList<>(RecordCodec.historyOf(type.getSimpleName()));
            versions.add(codec.schema());
            for (Schema version : versions) {
                byte[] poison = PoisonRecords.fifteenBytesClaimingTwoGigabyteString(version);
                assertThatThrownBy(() -> codec.decode(poison))
                        .isInstanceOf(RecordDecodingException.class)
                        .hasMessage(
                                type.getSimpleName()
                                        + ": cannot decode 15 bytes: string claims 2000000000"
                                        + " bytes but 0 bytes are left");
            }
        }
    }

    @Test
    void blockWithByteSizeLargerThanTheBytesLeftIsRefused() {
        RecordCodec<FrequencyReport> codec = RecordCodec.of(FrequencyReport.class);
        ByteArrayOutputStream out = PoisonRecords.header(codec.schema());
        for (int i = 0; i < 4; i++) {
            PoisonRecords.varLong(out, 0); // four empty strings
        }
        PoisonRecords.varLong(out, 1); // k
        PoisonRecords.varLong(out, 0); // createdAtMillis
        PoisonRecords.varLong(out, -1); // counts: a block of one item...
        PoisonRecords.varLong(out, 1_000_000); // ...that claims to be 10⁶ bytes long
        PoisonRecords.varLong(out, 1);
        byte[] bytes = out.toByteArray();

        assertThatThrownBy(() -> codec.decode(bytes))
                .isInstanceOf(RecordDecodingException.class)
                .hasMessage(
                        "FrequencyReport: cannot decode "
                                + bytes.length
                                + " bytes: array block claims 1000000 bytes but 1 bytes are left");
    }

    @Test
    void recordsOfOldSchemasStillDecodeThroughTheBoundedDecoder() {
        // A count exactly as large as the bytes left (one byte per int) is legitimate.
        RecordCodec<FrequencyReport> codec = RecordCodec.of(FrequencyReport.class);
        FrequencyReport report =
                FrequencyReport.newBuilder()
                        .setReportId("r")
                        .setDeviceId("d")
                        .setAppVersion("a:1")
                        .setConfigId("c")
                        .setK(3)
                        .setCreatedAtMillis(java.time.Instant.ofEpochMilli(5))
                        .setCounts(List.of(1, 0, 2))
                        .build();
        byte[] bytes = codec.encode(report);
        assertThat(codec.decode(bytes)).isEqualTo(report);
    }

    @Test
    void everySchemaVersionWritesEveryItemInAtLeastOneByte() {
        for (Class<? extends SpecificRecordBase> type : STRING_FIRST) {
            for (Schema version : RecordCodec.historyOf(type.getSimpleName())) {
                assertThat(BoundedBinaryDecoder.zeroByteItem(version)).isNull();
            }
        }
        Schema nullItems =
                new Schema.Parser()
                        .parse(
                                "{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"a\","
                                        + "\"type\":{\"type\":\"array\",\"items\":\"null\"}}]}");
        assertThat(BoundedBinaryDecoder.zeroByteItem(nullItems)).isEqualTo("array of \"null\"");
    }
}
