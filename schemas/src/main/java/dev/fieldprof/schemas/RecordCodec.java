package dev.fieldprof.schemas;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.avro.Schema;
import org.apache.avro.SchemaNormalization;
import org.apache.avro.message.BinaryMessageDecoder;
import org.apache.avro.message.BinaryMessageEncoder;
import org.apache.avro.message.SchemaStore;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecordBase;

/**
 * Writes and reads one record type as Avro single-object encoding: a two-byte marker, the 8-byte
 * CRC-64-AVRO fingerprint of the writer schema, then Avro binary. Records written with any earlier
 * published version of the schema (kept under {@code
 * dev/fieldprof/schemas/history/<Name>-v<N>.avsc}) stay readable.
 *
 * <p>Thread-safe after construction: encoders and decoders from Avro's message package are safe for
 * concurrent use.
 *
 * <pre>{@code
 * RecordCodec<FrequencyReport> codec = RecordCodec.of(FrequencyReport.class);
 * byte[] bytes = codec.encode(report);
 * FrequencyReport back = codec.decode(bytes);
 * }</pre>
 */
public final class RecordCodec<T extends SpecificRecordBase> {
    private static final String HISTORY = "/dev/fieldprof/schemas/history/";

    private final Class<T> type;
    private final Schema schema;
    private final BinaryMessageEncoder<T> encoder;
    private final BinaryMessageDecoder<T> decoder;

    private RecordCodec(Class<T> type) {
        this.type = Objects.requireNonNull(type, "type");
        this.schema = SpecificData.get().getSchema(type);
        SpecificData model = new SpecificData(type.getClassLoader());
        this.encoder = new BinaryMessageEncoder<>(model, schema);
        SchemaStore.Cache store = new SchemaStore.Cache();
        for (Schema previous : historyOf(schema.getName())) {
            store.addSchema(previous);
        }
        this.decoder = new BinaryMessageDecoder<>(model, schema, store);
    }

    /** A codec for one generated record class. */
    public static <T extends SpecificRecordBase> RecordCodec<T> of(Class<T> type) {
        return new RecordCodec<>(type);
    }

    public Class<T> type() {
        return type;
    }

    public Schema schema() {
        return schema;
    }

    /** The 8-byte fingerprint written in front of every record of the current schema. */
    public long fingerprint() {
        return SchemaNormalization.parsingFingerprint64(schema);
    }

    public byte[] encode(T record) {
        try {
            ByteBuffer buffer = encoder.encode(record);
            byte[] bytes = new byte[buffer.remaining()];
            buffer.get(bytes);
            return bytes;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot encode " + schema.getName(), e);
        }
    }

    /**
     * Decodes bytes written with the current or any earlier schema version.
     *
     * @throws RecordDecodingException naming what is wrong when the bytes are not such a record
     */
    public T decode(byte[] bytes) {
        if (bytes == null) {
            throw new RecordDecodingException(schema.getName() + ": no bytes (null value)");
        }
        try {
            return decoder.decode(bytes);
        } catch (IOException | RuntimeException e) {
            throw new RecordDecodingException(
                    schema.getName()
                            + ": cannot decode "
                            + bytes.length
                            + " bytes: "
                            + (e.getMessage() == null
                                    ? e.getClass().getSimpleName()
                                    : e.getMessage()),
                    e);
        }
    }

    /**
     * Every published version of a schema, oldest first, read from the history folder ({@code
     * <Name>-v1.avsc}, {@code <Name>-v2.avsc}, ... until the first missing one).
     */
    public static List<Schema> historyOf(String schemaName) {
        List<Schema> versions = new ArrayList<>();
        for (int version = 1; ; version++) {
            String resource = HISTORY + schemaName + "-v" + version + ".avsc";
            try (InputStream in = RecordCodec.class.getResourceAsStream(resource)) {
                if (in == null) {
                    return versions;
                }
                String json = new String(in.readAllBytes(), StandardCharsets.UTF_8);
                // A fresh parser per file: each history file is self-contained.
                versions.add(new Schema.Parser().parse(json));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + resource, e);
            }
        }
    }
}
