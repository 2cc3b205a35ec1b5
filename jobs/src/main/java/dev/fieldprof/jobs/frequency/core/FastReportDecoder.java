package dev.fieldprof.jobs.frequency.core;

import dev.fieldprof.jobs.frequency.records.ReportRecord;
import dev.fieldprof.jobs.io.RawRecord;
import dev.fieldprof.schemas.FrequencyReport;
import dev.fieldprof.schemas.RecordCodec;
import dev.fieldprof.schemas.RecordDecodingException;
import java.nio.charset.StandardCharsets;

/**
 * Reads FrequencyReports written with the current schema straight from the Avro single-object bytes
 * into an {@code int[]}, without Avro's boxed {@code List<Integer>}: the counts are almost all of a
 * report, and decoding them dominates the job's per-report cost. Bytes of any other schema version
 * return null so the caller falls back to {@link RecordCodec}, which resolves old versions.
 *
 * <p>Bounds every claim the bytes make as {@link RecordCodec} does: a string length, or an array
 * block count (each int takes at least one byte), larger than the bytes left is refused before
 * anything is allocated, with the same message, so a 42-byte record claiming 2·10⁹ counts costs
 * nothing. Thread-safe.
 *
 * <p>{@link #decodeEnvelope} checks a whole record the same way but leaves its two arrays in the
 * raw bytes: a report crosses the network twice before it is validated (to its device's
 * deduplication, then to its program's shard), and its ids or counts are most of what it holds, so
 * they are read from the bytes once, where they are validated and summed.
 */
final class FastReportDecoder {
    private static final long FINGERPRINT = RecordCodec.of(FrequencyReport.class).fingerprint();
    private static final int HEADER = 10;
    private static final int[] NO_INTS = new int[0];

    private final byte[] bytes;
    private int position;

    private FastReportDecoder(byte[] bytes) {
        this.bytes = bytes;
        this.position = HEADER;
    }

    /**
     * The report in {@code raw}, or null when its bytes are not single-object encoded with the
     * current FrequencyReport schema.
     *
     * @throws RecordDecodingException when the bytes claim the current schema but are malformed
     */
    static ReportRecord decode(RawRecord raw) {
        return decode(raw, true);
    }

    /**
     * As {@link #decode}, every byte checked the same way, but the report's counts and subset are
     * left in {@code raw} (both null) for {@link #decode} to read again where they are needed.
     */
    static ReportRecord decodeEnvelope(RawRecord raw) {
        return decode(raw, false);
    }

    private static ReportRecord decode(RawRecord raw, boolean arrays) {
        byte[] bytes = raw.value;
        if (bytes == null
                || bytes.length < HEADER
                || bytes[0] != (byte) 0xC3
                || bytes[1] != (byte) 0x01
                || fingerprint(bytes) != FINGERPRINT) {
            return null;
        }
        try {
            FastReportDecoder in = new FastReportDecoder(bytes);
            String reportId = in.string();
            String deviceId = in.string();
            String appVersion = in.string();
            String configId = in.string();
            int k = in.integer();
            in.varLong(); // createdAtMillis: informational only
            int[] counts = in.counts(arrays);
            long sequence = in.varLong();
            int[] subset = in.counts(arrays);
            double epsilon = in.float64();
            int t = in.integer();
            if (in.position != bytes.length) {
                throw new RecordDecodingException(
                        "FrequencyReport: "
                                + (bytes.length - in.position)
                                + " trailing bytes after the record");
            }
            ReportRecord report =
                    new ReportRecord(reportId, deviceId, appVersion, configId, k, counts, raw);
            report.sequence = sequence;
            report.subset = subset;
            report.epsilon = epsilon;
            report.t = t;
            return report;
        } catch (ArrayIndexOutOfBoundsException e) {
            throw new RecordDecodingException(
                    "FrequencyReport: cannot decode " + bytes.length + " bytes: truncated", e);
        } catch (ClaimTooLarge e) {
            throw new RecordDecodingException(
                    "FrequencyReport: cannot decode " + bytes.length + " bytes: " + e.getMessage());
        }
    }

    /** A length or count larger than the bytes left; the message names claim and bytes left. */
    private static final class ClaimTooLarge extends RuntimeException {
        private static final long serialVersionUID = 1L;

        ClaimTooLarge(String message) {
            super(message, null, false, false);
        }
    }

    private int remaining() {
        return bytes.length - position;
    }

    private static long fingerprint(byte[] bytes) {
        // Avro writes the CRC-64-AVRO fingerprint little-endian.
        long value = 0;
        for (int i = 9; i >= 2; i--) {
            value = (value << 8) | (bytes[i] & 0xFF);
        }
        return value;
    }

    private long varLong() {
        long raw = 0;
        int shift = 0;
        while (true) {
            byte b = bytes[position++];
            raw |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                break;
            }
            shift += 7;
            if (shift > 63) {
                throw new RecordDecodingException(
                        "FrequencyReport: malformed variable-length long");
            }
        }
        return (raw >>> 1) ^ -(raw & 1);
    }

    private double float64() {
        long bits = 0;
        for (int i = 7; i >= 0; i--) {
            bits = (bits << 8) | (bytes[position + i] & 0xFF);
        }
        position += 8;
        return Double.longBitsToDouble(bits);
    }

    private int integer() {
        // Method ids and counts take one to four bytes (under 2^27 in magnitude): read those
        // without a loop, anything longer as the long it may claim to be, range-checked below.
        int b = bytes[position];
        if (b >= 0) {
            position += 1;
            return zigzag(b);
        }
        int raw = b & 0x7F;
        b = bytes[position + 1];
        if (b >= 0) {
            position += 2;
            return zigzag(raw | b << 7);
        }
        raw |= (b & 0x7F) << 7;
        b = bytes[position + 2];
        if (b >= 0) {
            position += 3;
            return zigzag(raw | b << 14);
        }
        raw |= (b & 0x7F) << 14;
        b = bytes[position + 3];
        if (b >= 0) {
            position += 4;
            return zigzag(raw | b << 21);
        }
        long value = varLong();
        if (value != (int) value) {
            throw new RecordDecodingException("FrequencyReport: int out of range: " + value);
        }
        return (int) value;
    }

    private static int zigzag(int raw) {
        return (raw >>> 1) ^ -(raw & 1);
    }

    private String string() {
        long claimed = varLong();
        if (claimed < 0 || claimed > remaining()) {
            throw new ClaimTooLarge(
                    "string claims " + claimed + " bytes but " + remaining() + " bytes are left");
        }
        int length = (int) claimed;
        String value = new String(bytes, position, length, StandardCharsets.UTF_8);
        position += length;
        return value;
    }

    /** The array's ints, or null after checking them when {@code keep} is false. */
    private int[] counts(boolean keep) {
        int[] counts = keep ? NO_INTS : null;
        int size = 0;
        while (true) {
            long block = varLong();
            if (block == 0) {
                break;
            }
            if (block < 0) {
                if (block == Long.MIN_VALUE) {
                    throw new ClaimTooLarge("array block claims " + block + " items");
                }
                block = -block;
                long blockBytes = varLong(); // the block's size in bytes, only for skipping
                if (blockBytes < 0 || blockBytes > remaining()) {
                    throw new ClaimTooLarge(
                            "array block claims "
                                    + blockBytes
                                    + " bytes but "
                                    + remaining()
                                    + " bytes are left");
                }
            }
            if (block > remaining()) {
                throw new ClaimTooLarge(
                        "array block claims "
                                + block
                                + " items but "
                                + remaining()
                                + " bytes are left (every item takes at least one)");
            }
            if (!keep) {
                for (long i = 0; i < block; i++) {
                    integer();
                }
                continue;
            }
            if (size + block > counts.length) {
                // Exactly the first block (Avro writes an array as one), doubling after it.
                counts =
                        java.util.Arrays.copyOf(
                                counts, (int) Math.max(size + block, 2L * counts.length));
            }
            for (long i = 0; i < block; i++) {
                counts[size++] = integer();
            }
        }
        if (!keep) {
            return null;
        }
        return size == counts.length ? counts : java.util.Arrays.copyOf(counts, size);
    }
}
