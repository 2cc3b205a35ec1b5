package dev.fieldprof.schemas;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class RecordCodecTest {
    private final RecordCodec<FrequencyReport> codec = RecordCodec.of(FrequencyReport.class);

    private static FrequencyReport report() {
        return FrequencyReport.newBuilder()
                .setReportId("r-1")
                .setDeviceId("device-7")
                .setAppVersion("demo:1.0")
                .setConfigId("default")
                .setK(5)
                .setCreatedAtMillis(Instant.ofEpochMilli(1_700_000_000_000L))
                .setCounts(List.of(4, 2, 0))
                .build();
    }

    @Test
    void roundTripsARecordExactly() {
        assertThat(codec.decode(codec.encode(report()))).isEqualTo(report());
    }

    @Test
    void writesSingleObjectMarkerAndSchemaFingerprint() {
        byte[] bytes = codec.encode(report());
        assertThat(bytes[0]).isEqualTo((byte) 0xC3);
        assertThat(bytes[1]).isEqualTo((byte) 0x01);
        long fingerprint = 0;
        for (int i = 9; i >= 2; i--) {
            fingerprint = (fingerprint << 8) | (bytes[i] & 0xFF);
        }
        assertThat(fingerprint).isEqualTo(codec.fingerprint());
    }

    @Test
    void writesTheBytesOfAvrosMessageEncoderForRecordsLargerThanItsBuffer() throws Exception {
        java.util.ArrayList<Integer> subset = new java.util.ArrayList<>();
        for (int id = 0; id < 100_000; id += 7) {
            subset.add(id);
        }
        FrequencyReport large =
                FrequencyReport.newBuilder(report()).setCounts(List.of()).setSubset(subset).build();
        for (FrequencyReport record : List.of(report(), large)) {
            java.nio.ByteBuffer avro =
                    new org.apache.avro.message.BinaryMessageEncoder<FrequencyReport>(
                                    new org.apache.avro.specific.SpecificData(),
                                    FrequencyReport.getClassSchema())
                            .encode(record);
            byte[] expected = new byte[avro.remaining()];
            avro.get(expected);
            assertThat(codec.encode(record)).isEqualTo(expected);
        }
    }

    @Test
    void rejectsBytesWithoutHeaderNamingTheType() {
        assertThatThrownBy(() -> codec.decode(new byte[] {1, 2, 3}))
                .isInstanceOf(RecordDecodingException.class)
                .hasMessageStartingWith("FrequencyReport: cannot decode 3 bytes");
    }

    @Test
    void rejectsRecordOfAnotherTypeNamingTheType() {
        RecordCodec<PrivacyConfig> other = RecordCodec.of(PrivacyConfig.class);
        byte[] bytes =
                other.encode(
                        PrivacyConfig.newBuilder()
                                .setConfigId("c")
                                .setEpsilon(1.0)
                                .setT(1)
                                .setK(5)
                                .build());
        assertThatThrownBy(() -> codec.decode(bytes))
                .isInstanceOf(RecordDecodingException.class)
                .hasMessageContaining("FrequencyReport");
    }

    @Test
    void rejectsNullValue() {
        assertThatThrownBy(() -> codec.decode(null))
                .isInstanceOf(RecordDecodingException.class)
                .hasMessage("FrequencyReport: no bytes (null value)");
    }
}
