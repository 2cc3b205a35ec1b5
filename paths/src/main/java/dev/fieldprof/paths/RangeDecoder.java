package dev.fieldprof.paths;

/**
 * Integer range coder, decoding side of {@link RangeEncoder} (Said 2004, section 3): keeps {@code
 * code} = coded value − low, so that a symbol is found by one division. Reads zeros past the end of
 * the data, matching the encoder's stripped trailing zeros. Not thread-safe.
 *
 * <pre>{@code
 * RangeDecoder dec = new RangeDecoder(coded, 0, coded.length);
 * int target = dec.target(4);      // in [0, 4)
 * // find the symbol [cum, cum + freq) containing target, then:
 * dec.consume(cum, freq, 4);
 * }</pre>
 */
public final class RangeDecoder {
    private final byte[] data;
    private final int start;
    private final int end;
    private int pos;
    private long code;
    private long range;
    private long r;

    /**
     * Starts decoding {@code data[offset .. offset + length)}.
     *
     * @param data the coded bytes (not copied; must not change while decoding)
     * @param offset start, 0 <= offset <= data.length
     * @param length number of bytes, 0 <= offset + length <= data.length
     */
    public RangeDecoder(byte[] data, int offset, int length) {
        if (offset < 0 || length < 0 || offset + length > data.length) {
            throw new IllegalArgumentException(
                    "need 0 <= offset <= offset + length <= "
                            + data.length
                            + ", got offset "
                            + offset
                            + ", length "
                            + length);
        }
        this.data = data;
        this.pos = offset;
        this.start = offset;
        this.end = offset + length;
        this.range = RangeEncoder.MASK32;
        for (int i = 0; i < 4; i++) {
            code = (code << 8) | next();
        }
    }

    private int next() {
        if (pos < end) {
            return data[pos++] & 0xFF;
        }
        pos++;
        return 0;
    }

    /**
     * The scaled value in [0, total) whose symbol comes next; call {@link #consume} with that
     * symbol's interval before the next {@code target}.
     *
     * @throws IllegalStateException if the data cannot have come from {@link RangeEncoder}
     */
    public int target(int total) {
        if (code >= range) {
            throw new IllegalStateException("corrupt range-coded data at byte " + pos);
        }
        r = range / total;
        long q = code / r;
        // The last symbol also owns the rounding remainder [r * total, range).
        return q >= total ? total - 1 : (int) q;
    }

    /** Removes the symbol [cum, cum + freq) of a total-frequency table found by {@link #target}. */
    public void consume(int cum, int freq, int total) {
        long start = r * cum;
        code -= start;
        if (cum + freq < total) {
            range = r * freq;
        } else {
            range -= start;
        }
        while (range < RangeEncoder.TOP) {
            code = ((code << 8) | next()) & RangeEncoder.MASK32;
            range <<= 8;
        }
    }

    /**
     * Decodes a binary decision coded by {@link RangeEncoder#encodeLikely} or {@link
     * RangeEncoder#encodeUnlikely} with the same q.
     *
     * @return true for the likely outcome
     * @throws IllegalStateException if the data cannot have come from {@link RangeEncoder}
     */
    public boolean decodeLikely(int q) {
        if (code >= range) {
            throw new IllegalStateException("corrupt range-coded data at byte " + pos);
        }
        long w = (range * q) >>> RangeEncoder.PROBABILITY_BITS;
        long likely = range - w;
        boolean hit = code < likely;
        if (hit) {
            range = likely;
        } else {
            code -= likely;
            range = w;
        }
        while (range < RangeEncoder.TOP) {
            code = ((code << 8) | next()) & RangeEncoder.MASK32;
            range <<= 8;
        }
        return hit;
    }

    /** Decodes a value written by {@link RangeEncoder#encodeUniform} with the same n. */
    public int decodeUniform(int n) {
        if (n <= RangeEncoder.MAX_TOTAL) {
            if (n <= 1) {
                return 0;
            }
            int v = target(n);
            consume(v, 1, n);
            return v;
        }
        int hi = decodeUniform(((n - 1) >>> 16) + 1);
        int lo = target(RangeEncoder.MAX_TOTAL);
        consume(lo, 1, RangeEncoder.MAX_TOTAL);
        return (hi << 16) | lo;
    }

    /** Bytes read so far, counting the zeros read past the end of the data. */
    public int bytesRead() {
        return pos - start;
    }
}
