package dev.fieldprof.schemas;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.apache.avro.Schema;
import org.apache.avro.SchemaNormalization;

/**
 * Short hostile records whose length and count fields claim far more than their bytes hold: the
 * records that made Avro allocate gigabytes before reading anything. Shared by the tests of every
 * module that decodes them.
 */
public final class PoisonRecords {
    /** What the poison claims: 2·10⁹ items or bytes (under Avro's own limit of 2³¹ - 9). */
    public static final long CLAIM = 2_000_000_000L;

    private PoisonRecords() {}

    /**
     * A 42-byte FrequencyReport written with {@code writer} (the current schema or a history
     * version: both start reportId, deviceId, appVersion, configId, k, createdAtMillis, counts)
     * whose counts array claims 2·10⁹ ints, followed by nothing.
     */
    public static byte[] frequencyReportClaimingTwoBillionCounts(Schema writer) {
        ByteArrayOutputStream out = header(writer);
        string(out, "poison-report-01"); // 17 bytes: length and 16 characters
        string(out, "d");
        string(out, "a:1");
        string(out, "c");
        varLong(out, 1); // k
        varLong(out, 0); // createdAtMillis
        varLong(out, CLAIM); // counts: one block of 2·10⁹ items
        byte[] bytes = out.toByteArray();
        if (bytes.length != 42) {
            throw new AssertionError("expected 42 bytes, built " + bytes.length);
        }
        return bytes;
    }

    /**
     * A 15-byte record of {@code writer}, whose first field is a string, claiming that string is
     * 2·10⁹ bytes long, followed by nothing.
     */
    public static byte[] fifteenBytesClaimingTwoGigabyteString(Schema writer) {
        if (writer.getFields().get(0).schema().getType() != Schema.Type.STRING) {
            throw new IllegalArgumentException(writer.getName() + " does not start with a string");
        }
        ByteArrayOutputStream out = header(writer);
        varLong(out, CLAIM);
        byte[] bytes = out.toByteArray();
        if (bytes.length != 15) {
            throw new AssertionError("expected 15 bytes, built " + bytes.length);
        }
        return bytes;
    }

    /** The single-object marker and the little-endian fingerprint of {@code writer}. */
    public static ByteArrayOutputStream header(Schema writer) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(0xC3);
        out.write(0x01);
        long fingerprint = SchemaNormalization.parsingFingerprint64(writer);
        for (int i = 0; i < 8; i++) {
            out.write((int) (fingerprint >>> (8 * i)) & 0xFF);
        }
        return out;
    }

    /** Avro's zig-zag variable-length encoding of {@code value}. */
    public static void varLong(ByteArrayOutputStream out, long value) {
        long n = (value << 1) ^ (value >> 63);
        while ((n & ~0x7FL) != 0) {
            out.write((int) ((n & 0x7F) | 0x80));
            n >>>= 7;
        }
        out.write((int) n);
    }

    private static void string(ByteArrayOutputStream out, String value) {
        byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
        varLong(out, utf8.length);
        out.writeBytes(utf8);
    }
}
