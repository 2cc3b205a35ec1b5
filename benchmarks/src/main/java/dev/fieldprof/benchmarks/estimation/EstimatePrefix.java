package dev.fieldprof.benchmarks.estimation;

import dev.fieldprof.schemas.EstimateWindow;
import dev.fieldprof.schemas.RecordCodec;

/**
 * The fields an EstimateWindow's single-object bytes hold ahead of its per-method arrays (app
 * version, config, window bounds, cumulative, reports), read without decoding the rest: a benchmark
 * that waits for estimates reads them while the job is still at work, and a whole estimate of a
 * million methods takes tens of milliseconds of CPU to decode.
 */
record EstimatePrefix(
        String appVersion,
        String configId,
        long windowStartMillis,
        long windowEndMillis,
        boolean cumulative,
        long reports) {
    private static final long FINGERPRINT = RecordCodec.of(EstimateWindow.class).fingerprint();
    private static final int HEADER = 10;

    /**
     * Reads the prefix of {@code bytes}.
     *
     * @throws IllegalArgumentException when the bytes are not an EstimateWindow of the current
     *     schema, or end inside the prefix
     */
    static EstimatePrefix of(byte[] bytes) {
        if (bytes.length < HEADER
                || bytes[0] != (byte) 0xC3
                || bytes[1] != (byte) 0x01
                || fingerprint(bytes) != FINGERPRINT) {
            throw new IllegalArgumentException("not an EstimateWindow of the current schema");
        }
        try {
            int[] position = {HEADER};
            String app = string(bytes, position);
            String config = string(bytes, position);
            long start = varLong(bytes, position);
            long end = varLong(bytes, position);
            boolean cumulative = bytes[position[0]++] != 0;
            long reports = varLong(bytes, position);
            return new EstimatePrefix(app, config, start, end, cumulative, reports);
        } catch (ArrayIndexOutOfBoundsException e) {
            throw new IllegalArgumentException("EstimateWindow bytes end inside the prefix", e);
        }
    }

    private static long fingerprint(byte[] bytes) {
        long value = 0;
        for (int i = HEADER - 1; i >= 2; i--) {
            value = (value << 8) | (bytes[i] & 0xFF);
        }
        return value;
    }

    private static String string(byte[] bytes, int[] position) {
        long length = varLong(bytes, position);
        if (length < 0 || length > bytes.length - position[0]) {
            throw new IllegalArgumentException("EstimateWindow string claims " + length + " bytes");
        }
        String value =
                new String(
                        bytes, position[0], (int) length, java.nio.charset.StandardCharsets.UTF_8);
        position[0] += (int) length;
        return value;
    }

    private static long varLong(byte[] bytes, int[] position) {
        long raw = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            byte b = bytes[position[0]++];
            raw |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return (raw >>> 1) ^ -(raw & 1);
            }
        }
        throw new IllegalArgumentException("EstimateWindow: malformed variable-length long");
    }
}
