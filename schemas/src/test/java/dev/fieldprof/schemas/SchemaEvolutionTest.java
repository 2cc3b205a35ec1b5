package dev.fieldprof.schemas;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.Iterator;
import java.util.List;
import java.util.stream.Stream;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.SchemaNormalization;
import org.apache.avro.generic.GenericData;
import org.apache.avro.message.BinaryMessageEncoder;
import org.apache.avro.specific.SpecificRecordBase;
import org.apache.avro.util.RandomData;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Fails when a schema change would break reading records written with an earlier published version.
 * Every change to {@code src/main/avro} must add a new {@code <Name>-v<N>.avsc} to the history
 * folder; this test then proves the current schema reads all of them.
 */
class SchemaEvolutionTest {

    static Stream<Class<? extends SpecificRecordBase>> recordTypes() {
        return Stream.of(
                ProgramModel.class,
                FrequencyReport.class,
                EstimateWindow.class,
                PathReport.class,
                EdgeModel.class,
                DeadLetter.class,
                PrivacyConfig.class,
                SealedReport.class,
                ShuffledBatch.class);
    }

    @ParameterizedTest
    @MethodSource("recordTypes")
    void currentSchemaIsTheLatestPublishedVersion(Class<? extends SpecificRecordBase> type) {
        RecordCodec<?> codec = RecordCodec.of(type);
        List<Schema> history = RecordCodec.historyOf(codec.schema().getName());
        assertThat(history).as("published versions of " + type.getSimpleName()).isNotEmpty();
        Schema latest = history.get(history.size() - 1);
        assertThat(SchemaNormalization.parsingFingerprint64(latest))
                .as(
                        "%s changed: add it as history/%s-v%d.avsc",
                        type.getSimpleName(), type.getSimpleName(), history.size() + 1)
                .isEqualTo(codec.fingerprint());
    }

    @ParameterizedTest
    @MethodSource("recordTypes")
    void currentSchemaReadsEveryPublishedVersion(Class<? extends SpecificRecordBase> type) {
        RecordCodec<?> codec = RecordCodec.of(type);
        for (Schema writer : RecordCodec.historyOf(codec.schema().getName())) {
            SchemaCompatibility.SchemaPairCompatibility result =
                    SchemaCompatibility.checkReaderWriterCompatibility(codec.schema(), writer);
            assertThat(result.getType())
                    .as(result.getDescription())
                    .isEqualTo(SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE);
        }
    }

    @ParameterizedTest
    @MethodSource("recordTypes")
    void decodesRecordsWrittenWithEveryPublishedVersion(Class<? extends SpecificRecordBase> type) {
        RecordCodec<?> codec = RecordCodec.of(type);
        for (Schema writer : RecordCodec.historyOf(codec.schema().getName())) {
            long seed = 20261122L;
            Iterator<Object> records = new RandomData(writer, 20, seed).iterator();
            BinaryMessageEncoder<Object> oldEncoder =
                    new BinaryMessageEncoder<>(GenericData.get(), writer);
            while (records.hasNext()) {
                Object written = records.next();
                byte[] bytes = toBytes(oldEncoder, written);
                SpecificRecordBase read = codec.decode(bytes);
                // Every field the old writer had must come back with the same value; nested
                // records are compared in the writer's shape, since fields added to them later
                // come back with their defaults.
                GenericData.Record readAsWriter = inShapeOf(writer, read);
                for (Schema.Field field : writer.getFields()) {
                    Object expected = ((GenericData.Record) written).get(field.name());
                    Object actual = readAsWriter.get(field.name());
                    assertThat(GenericData.get().toString(withoutLogicalTypes(actual)))
                            .as("%s.%s (seed %d)", type.getSimpleName(), field.name(), seed)
                            .isEqualTo(GenericData.get().toString(withoutLogicalTypes(expected)));
                }
            }
        }
    }

    @org.junit.jupiter.api.Test
    void programModelHistoryEndsWithTheShuffledModeVersion() {
        List<Schema> history = RecordCodec.historyOf("ProgramModel");
        assertThat(history).hasSize(5);
        assertThat(history.get(1).getField("probePlan")).isNull();
        assertThat(history.get(2).getField("probePlan")).isNotNull();
        assertThat(privacyConfigOf(history.get(3)).getField("shuffler")).isNull();
        assertThat(privacyConfigOf(history.get(4)).getField("shuffler")).isNotNull();
    }

    @org.junit.jupiter.api.Test
    void estimateWindowHistoryEndsWithTheShuffledModeVersion() {
        List<Schema> history = RecordCodec.historyOf("EstimateWindow");
        assertThat(history).hasSize(6);
        assertThat(history.get(4).getField("centralEpsilon")).isNull();
        assertThat(history.get(5).getField("shuffledBatchSizes")).isNotNull();
        assertThat(history.get(5).getField("centralEpsilon")).isNotNull();
        assertThat(history.get(5).getField("centralDelta")).isNotNull();
    }

    @org.junit.jupiter.api.Test
    void estimateWrittenBeforeTheShuffledModeReadsAsLocalOnly() {
        Schema v5 = RecordCodec.historyOf("EstimateWindow").get(4);
        BinaryMessageEncoder<Object> v5Encoder = new BinaryMessageEncoder<>(GenericData.get(), v5);
        Object written = new RandomData(v5, 1, 11L).iterator().next();
        EstimateWindow read =
                RecordCodec.of(EstimateWindow.class).decode(toBytes(v5Encoder, written));
        assertThat(read.getShuffledBatchSizes()).isEmpty();
        assertThat(read.getCentralEpsilon()).isEqualTo(0.0);
        assertThat(read.getCentralDelta()).isEqualTo(0.0);
    }

    private static Schema privacyConfigOf(Schema programModel) {
        return programModel.getField("privacyConfigs").schema().getElementType();
    }

    @org.junit.jupiter.api.Test
    void modelWrittenBeforeProbePlansReadsWithoutAPlan() {
        Schema v2 = RecordCodec.historyOf("ProgramModel").get(1);
        BinaryMessageEncoder<Object> v2Encoder = new BinaryMessageEncoder<>(GenericData.get(), v2);
        Object written = new RandomData(v2, 1, 7L).iterator().next();
        ProgramModel read = RecordCodec.of(ProgramModel.class).decode(toBytes(v2Encoder, written));
        assertThat(read.getProbePlan()).isNull();
    }

    @org.junit.jupiter.api.Test
    void probePlanRoundTripsInTheCurrentVersion() {
        ProbePlan plan =
                ProbePlan.newBuilder()
                        .setSalt(-42L)
                        .setVariantCount(2)
                        .setVariants(List.of(List.of(0, 2), List.of(1)))
                        .setStrategy("balanced-clusters")
                        .setHBound(5L)
                        .setCostUnit("branch-probes")
                        .setMethodCosts(List.of(1L, 3L, 2L))
                        .setAlpha(0.5)
                        .setBeta(0.0)
                        .setGamma(0.5)
                        .setSeed(11L)
                        .build();
        ProgramModel model =
                ProgramModel.newBuilder()
                        .setAppVersion("app:1")
                        .setCreatedAtMillis(java.time.Instant.ofEpochMilli(1_000L))
                        .setMethods(List.of())
                        .setPairs(List.of())
                        .setPrivacyConfigs(List.of())
                        .setProbePlan(plan)
                        .build();
        RecordCodec<ProgramModel> codec = RecordCodec.of(ProgramModel.class);
        assertThat(codec.decode(codec.encode(model)).getProbePlan()).isEqualTo(plan);
    }

    /**
     * Logical timestamps come back as Instants where the old writer wrote epoch millis, and map
     * order is not part of a record's value.
     */
    /** {@code record} written with its own schema and read back with {@code writer}'s. */
    private static GenericData.Record inShapeOf(Schema writer, SpecificRecordBase record) {
        try {
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
            org.apache.avro.io.BinaryEncoder encoder =
                    org.apache.avro.io.EncoderFactory.get().binaryEncoder(out, null);
            new org.apache.avro.specific.SpecificDatumWriter<Object>(record.getSchema())
                    .write(record, encoder);
            encoder.flush();
            return new org.apache.avro.generic.GenericDatumReader<GenericData.Record>(
                            record.getSchema(), writer)
                    .read(
                            null,
                            org.apache.avro.io.DecoderFactory.get()
                                    .binaryDecoder(out.toByteArray(), null));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static Object withoutLogicalTypes(Object value) {
        if (value instanceof java.time.Instant instant) {
            return instant.toEpochMilli();
        }
        if (value instanceof java.util.Map<?, ?> map) {
            java.util.TreeMap<String, Object> sorted = new java.util.TreeMap<>();
            map.forEach((k, v) -> sorted.put(k.toString(), v));
            return sorted;
        }
        return value;
    }

    private static byte[] toBytes(BinaryMessageEncoder<Object> encoder, Object record) {
        try {
            ByteBuffer buffer = encoder.encode(record);
            byte[] bytes = new byte[buffer.remaining()];
            buffer.get(bytes);
            return bytes;
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
