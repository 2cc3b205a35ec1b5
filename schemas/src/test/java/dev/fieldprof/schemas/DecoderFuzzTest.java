package dev.fieldprof.schemas;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificRecordBase;
import org.junit.jupiter.api.Test;

/**
 * Seeded fuzzing of {@link RecordCodec#decode}: valid records of every version of every record
 * type, written by a generic writer with random contents, then truncated, given an oversized length
 * or count claim, or bit-flipped. Every input must decode or throw {@link RecordDecodingException};
 * anything else (an Error above all: OutOfMemoryError from a claim, StackOverflowError) fails the
 * test. Surefire runs it with -Xmx2g, so one claim-driven allocation of 2·10⁹ ints would fail it.
 */
class DecoderFuzzTest {
    private static final long SEED = 20261127L;
    private static final int VARIANTS_PER_RECORD = 60;
    private static final int RECORDS_PER_VERSION = 5;

    private static final List<Class<? extends SpecificRecordBase>> TYPES =
            List.of(
                    FrequencyReport.class,
                    PathReport.class,
                    EdgeModel.class,
                    ProgramModel.class,
                    DeadLetter.class,
                    EstimateWindow.class,
                    PrivacyConfig.class,
                    SealedReport.class,
                    ShuffledBatch.class);

    @Test
    void everyVariantOfEveryRecordTypeDecodesOrIsRefusedWithTheDocumentedException() {
        Random random = new Random(SEED);
        List<String> unexpected = new ArrayList<>();
        int inputs = 0;
        int refused = 0;
        for (Class<? extends SpecificRecordBase> type : TYPES) {
            RecordCodec<? extends SpecificRecordBase> codec = RecordCodec.of(type);
            List<Schema> versions = new ArrayList<>(RecordCodec.historyOf(type.getSimpleName()));
            versions.add(codec.schema());
            for (Schema version : versions) {
                for (int r = 0; r < RECORDS_PER_VERSION; r++) {
                    byte[] valid = write(version, random);
                    // The valid record itself decodes.
                    codec.decode(valid);
                    for (int v = 0; v < VARIANTS_PER_RECORD; v++) {
                        byte[] variant = mutate(valid, random, v % 3);
                        inputs++;
                        try {
                            codec.decode(variant);
                        } catch (RecordDecodingException e) {
                            refused++;
                        } catch (Throwable t) {
                            unexpected.add(
                                    type.getSimpleName()
                                            + " "
                                            + Arrays.toString(variant)
                                            + ": "
                                            + t);
                        }
                    }
                }
            }
        }
        assertThat(unexpected).isEmpty();
        // Nine types, 36 schema versions in all (27 old, 9 current), 5 records each, 60 variants
        // per record.
        assertThat(inputs).isEqualTo(36 * RECORDS_PER_VERSION * VARIANTS_PER_RECORD);
        assertThat(refused).isGreaterThan(inputs / 3);
    }

    @Test
    void recordsOfTheCurrentSchemasRoundTripByteForByte() {
        Random random = new Random(SEED);
        for (Class<? extends SpecificRecordBase> type : TYPES) {
            RecordCodec<? extends SpecificRecordBase> codec = RecordCodec.of(type);
            for (int r = 0; r < 20; r++) {
                byte[] valid = write(codec.schema(), random);
                assertThat(reencode(codec, valid)).isEqualTo(valid);
            }
        }
    }

    private static <T extends SpecificRecordBase> byte[] reencode(RecordCodec<T> codec, byte[] b) {
        return codec.encode(codec.decode(b));
    }

    /**
     * One of three variants of {@code valid}: 0 a prefix of it, 1 a huge length or count claim
     * (2·10⁹ or a random large value) written over a random position past the header, 2 one to
     * three bits flipped past the header.
     */
    static byte[] mutate(byte[] valid, Random random, int kind) {
        switch (kind) {
            case 0:
                return Arrays.copyOf(valid, random.nextInt(valid.length));
            case 1:
                {
                    int at = 10 + random.nextInt(valid.length - 10 + 1);
                    ByteArrayOutputStream out = new ByteArrayOutputStream();
                    out.write(valid, 0, at);
                    long claim =
                            random.nextBoolean()
                                    ? PoisonRecords.CLAIM
                                    : (random.nextBoolean() ? -1 : 1)
                                            * (1L + random.nextInt(Integer.MAX_VALUE));
                    PoisonRecords.varLong(out, claim);
                    int skip = Math.min(valid.length - at, random.nextInt(3));
                    out.write(valid, at + skip, valid.length - at - skip);
                    return out.toByteArray();
                }
            default:
                {
                    byte[] flipped = valid.clone();
                    if (flipped.length == 10) {
                        return flipped;
                    }
                    int flips = 1 + random.nextInt(3);
                    for (int i = 0; i < flips; i++) {
                        int at = 10 + random.nextInt(flipped.length - 10);
                        flipped[at] ^= (byte) (1 << random.nextInt(8));
                    }
                    return flipped;
                }
        }
    }

    /** A random valid record of {@code schema}, single-object encoded. */
    static byte[] write(Schema schema, Random random) {
        try {
            ByteArrayOutputStream out = PoisonRecords.header(schema);
            BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
            new GenericDatumWriter<Object>(schema).write(datum(schema, random, 0), encoder);
            encoder.flush();
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Object datum(Schema schema, Random random, int depth) {
        switch (schema.getType()) {
            case RECORD:
                {
                    GenericData.Record record = new GenericData.Record(schema);
                    for (Schema.Field field : schema.getFields()) {
                        record.put(field.pos(), datum(field.schema(), random, depth + 1));
                    }
                    return record;
                }
            case ARRAY:
                {
                    List<Object> items = new ArrayList<>();
                    int size = depth > 4 ? 0 : random.nextInt(5);
                    for (int i = 0; i < size; i++) {
                        items.add(datum(schema.getElementType(), random, depth + 1));
                    }
                    return items;
                }
            case MAP:
                {
                    Map<String, Object> map = new HashMap<>();
                    int size = random.nextInt(3);
                    for (int i = 0; i < size; i++) {
                        map.put("k" + i, datum(schema.getValueType(), random, depth + 1));
                    }
                    return map;
                }
            case UNION:
                {
                    List<Schema> branches = schema.getTypes();
                    return datum(branches.get(random.nextInt(branches.size())), random, depth);
                }
            case ENUM:
                {
                    List<String> symbols = schema.getEnumSymbols();
                    return new GenericData.EnumSymbol(
                            schema, symbols.get(random.nextInt(symbols.size())));
                }
            case STRING:
                return "s" + random.nextInt(1000);
            case BYTES:
                return ByteBuffer.wrap(
                        ("b" + random.nextInt(1000)).getBytes(StandardCharsets.UTF_8));
            case FIXED:
                {
                    byte[] bytes = new byte[schema.getFixedSize()];
                    random.nextBytes(bytes);
                    return new GenericData.Fixed(schema, bytes);
                }
            case INT:
                return random.nextInt(2000) - 100;
            case LONG:
                return random.nextLong();
            case FLOAT:
                return random.nextFloat();
            case DOUBLE:
                return random.nextDouble();
            case BOOLEAN:
                return random.nextBoolean();
            case NULL:
                return null;
            default:
                throw new IllegalArgumentException("no generator for " + schema.getType());
        }
    }
}
