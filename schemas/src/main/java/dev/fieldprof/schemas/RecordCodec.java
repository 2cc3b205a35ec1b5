package dev.fieldprof.schemas;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.avro.Schema;
import org.apache.avro.SchemaNormalization;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DatumReader;
import org.apache.avro.io.DatumWriter;
import org.apache.avro.io.Encoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecordBase;

/**
 * Writes and reads one record type as Avro single-object encoding: a two-byte marker, the 8-byte
 * CRC-64-AVRO fingerprint of the writer schema, then Avro binary. Records written with any earlier
 * published version of the schema (kept under {@code
 * dev/fieldprof/schemas/history/<Name>-v<N>.avsc}) stay readable.
 *
 * <p>Decoding trusts no claim of the bytes: a string or bytes length, or an array or map block
 * count, larger than the bytes left is refused before anything is allocated for it (see {@link
 * BoundedBinaryDecoder}), so a short hostile record cannot make the reader allocate gigabytes. What
 * one record can make the reader allocate stays within a small multiple of its length.
 *
 * <p>Thread-safe after construction: Avro's datum writer and readers are safe for concurrent use,
 * and each encode and decode goes through its own encoder or decoder.
 *
 * <pre>{@code
 * RecordCodec<FrequencyReport> codec = RecordCodec.of(FrequencyReport.class);
 * byte[] bytes = codec.encode(report);
 * FrequencyReport back = codec.decode(bytes);
 * }</pre>
 */
public final class RecordCodec<T extends SpecificRecordBase> {
    private static final String HISTORY = "/dev/fieldprof/schemas/history/";
    private static final int HEADER = 10;

    private final Class<T> type;
    private final Schema schema;
    private static final EncoderFactory ENCODERS = new EncoderFactory().configureBufferSize(8192);

    /**
     * Each thread's output buffer, reused from record to record as Avro's message encoder reuses
     * its own: one copy of the bytes per record instead of a growing buffer's garbage.
     */
    private static final ThreadLocal<ByteArrayOutputStream> BUFFERS =
            ThreadLocal.withInitial(() -> new ByteArrayOutputStream(4096));

    private final byte[] header;
    private final DatumWriter<T> writer;
    private final Map<Long, DatumReader<T>> readersByFingerprint = new HashMap<>();

    private RecordCodec(Class<T> type) {
        this.type = Objects.requireNonNull(type, "type");
        this.schema = SpecificData.get().getSchema(type);
        SpecificData model = new SpecificData(type.getClassLoader());
        this.header = headerOf(schema);
        this.writer = new ViewWritingDatumWriter<>(schema, model);
        List<Schema> writers = new ArrayList<>(historyOf(schema.getName()));
        writers.add(schema);
        for (Schema writer : writers) {
            String zeroByteItem = BoundedBinaryDecoder.zeroByteItem(writer);
            if (zeroByteItem != null) {
                // The decoder's count bound assumes every item takes a byte; refuse to guess.
                throw new IllegalStateException(
                        schema.getName()
                                + ": a schema version has an item type written in zero bytes ("
                                + zeroByteItem
                                + "), so its counts cannot be bounded by its length");
            }
            @SuppressWarnings("unchecked")
            DatumReader<T> reader = (DatumReader<T>) model.createDatumReader(writer, schema);
            readersByFingerprint.put(SchemaNormalization.parsingFingerprint64(writer), reader);
        }
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

    /**
     * The record's single-object encoding, byte for byte what Avro's {@code BinaryMessageEncoder}
     * writes. Through a buffering encoder: Avro's message encoder writes each value straight to its
     * stream, one synchronized call per double of an estimate's three arrays (millions at a million
     * methods).
     */
    public byte[] encode(T record) {
        try {
            ByteArrayOutputStream out = BUFFERS.get();
            out.reset();
            out.write(header);
            BinaryEncoder body = ENCODERS.binaryEncoder(out, null);
            writer.write(record, body);
            body.flush();
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot encode " + schema.getName(), e);
        }
    }

    /**
     * Avro's specific writer, but an {@code array<double>} held as a {@link DoubleListView} is
     * written from its {@code double[]}: the same bytes (one block of all the items, then the end
     * marker), without a {@code Double} read per item through an iterator and a schema dispatch.
     */
    private static final class ViewWritingDatumWriter<T> extends SpecificDatumWriter<T> {
        ViewWritingDatumWriter(Schema schema, SpecificData model) {
            super(schema, model);
        }

        @Override
        protected void writeArray(Schema schema, Object datum, Encoder out) throws IOException {
            if (!(datum instanceof DoubleListView view)
                    || schema.getElementType().getType() != Schema.Type.DOUBLE) {
                super.writeArray(schema, datum, out);
                return;
            }
            double[] values = view.array();
            out.writeArrayStart();
            out.setItemCount(values.length);
            for (double value : values) {
                out.startItem();
                out.writeDouble(value);
            }
            out.writeArrayEnd();
        }
    }

    /** The two-byte marker and the schema's fingerprint, little-endian, as Avro writes them. */
    private static byte[] headerOf(Schema schema) {
        byte[] header = new byte[HEADER];
        header[0] = (byte) 0xC3;
        header[1] = (byte) 0x01;
        long fingerprint = SchemaNormalization.parsingFingerprint64(schema);
        for (int i = 2; i < HEADER; i++) {
            header[i] = (byte) fingerprint;
            fingerprint >>>= 8;
        }
        return header;
    }

    /**
     * Decodes bytes written with the current or any earlier schema version.
     *
     * @throws RecordDecodingException naming what is wrong when the bytes are not such a record,
     *     among them a length or count larger than the bytes left could hold
     */
    public T decode(byte[] bytes) {
        if (bytes == null) {
            throw new RecordDecodingException(schema.getName() + ": no bytes (null value)");
        }
        try {
            return readerFor(bytes).read(null, new BoundedBinaryDecoder(bytes, HEADER));
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

    private DatumReader<T> readerFor(byte[] bytes) throws IOException {
        if (bytes.length < HEADER) {
            throw new IOException("not enough header bytes");
        }
        if (bytes[0] != (byte) 0xC3 || bytes[1] != (byte) 0x01) {
            throw new IOException("no single-object marker");
        }
        // Avro writes the CRC-64-AVRO fingerprint little-endian.
        long fingerprint = 0;
        for (int i = HEADER - 1; i >= 2; i--) {
            fingerprint = (fingerprint << 8) | (bytes[i] & 0xFF);
        }
        DatumReader<T> reader = readersByFingerprint.get(fingerprint);
        if (reader == null) {
            throw new IOException(
                    "writer schema fingerprint " + fingerprint + " is no known version");
        }
        return reader;
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
