package dev.fieldprof.schemas;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.List;
import org.apache.avro.specific.SpecificRecordBase;
import org.junit.jupiter.api.Test;

class RecordCodecTest {
    private final RecordCodec<FrequencyReport> codec = RecordCodec.of(FrequencyReport.class);

    /** What Avro's own message encoder writes for {@code record}. */
    private static byte[] avroMessage(SpecificRecordBase record) throws Exception {
        java.nio.ByteBuffer avro =
                new org.apache.avro.message.BinaryMessageEncoder<SpecificRecordBase>(
                                new org.apache.avro.specific.SpecificData(), record.getSchema())
                        .encode(record);
        byte[] bytes = new byte[avro.remaining()];
        avro.get(bytes);
        return bytes;
    }

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
            assertThat(codec.encode(record)).isEqualTo(avroMessage(record));
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

    @Test
    void writesAnEstimateWhoseArraysAreViewsAsAvroWritesItsLists() throws Exception {
        RecordCodec<EstimateWindow> windows = RecordCodec.of(EstimateWindow.class);
        Object random =
                new org.apache.avro.util.RandomData(windows.schema(), 1, 11L).iterator().next();
        java.nio.ByteBuffer randomBytes =
                new org.apache.avro.message.BinaryMessageEncoder<>(
                                org.apache.avro.generic.GenericData.get(), windows.schema())
                        .encode(random);
        byte[] randomArray = new byte[randomBytes.remaining()];
        randomBytes.get(randomArray);
        EstimateWindow lists = windows.decode(randomArray);
        // Larger than the encoder's 8 KiB buffer, with the values whose bits are easy to lose.
        double[] normalized = new double[5_000];
        java.util.SplittableRandom random2 = new java.util.SplittableRandom(3);
        for (int v = 0; v < normalized.length; v++) {
            normalized[v] = random2.nextDouble(-1, 1);
        }
        normalized[0] = Double.NaN;
        normalized[1] = -0.0;
        normalized[2] = Double.NEGATIVE_INFINITY;
        normalized[3] = Double.MIN_VALUE;
        double[] errors = {0.25, 0.5};
        double[] consistent = {};
        lists.setNormalized(java.util.Arrays.stream(normalized).boxed().toList());
        lists.setStandardErrors(java.util.Arrays.stream(errors).boxed().toList());
        lists.setConsistent(List.of());
        EstimateWindow views = EstimateWindow.newBuilder(lists).build();
        views.setNormalized(DoubleListView.of(normalized));
        views.setStandardErrors(DoubleListView.of(errors));
        views.setConsistent(DoubleListView.of(consistent));

        byte[] written = windows.encode(views);
        assertThat(written).isEqualTo(avroMessage(lists));
        assertThat(windows.decode(written)).isEqualTo(lists);
    }

    @Test
    void aDoubleListViewReadsItsArrayAndRefusesChanges() {
        DoubleListView view = DoubleListView.of(new double[] {1.5, -0.0});
        assertThat(view).containsExactly(1.5, -0.0);
        assertThat(view.getDouble(1)).isEqualTo(-0.0);
        assertThatThrownBy(() -> view.get(2)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> view.set(0, 2.0))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> view.add(2.0)).isInstanceOf(UnsupportedOperationException.class);
    }
}
