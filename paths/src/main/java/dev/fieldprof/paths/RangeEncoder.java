package dev.fieldprof.paths;

import java.util.Arrays;

/**
 * Integer range coder, encoding side: the low/range scheme with byte-wise carry propagation
 * described by Said (2004, "Introduction to arithmetic coding", section 3), the integer arithmetic
 * coder that AdapTracer (docs/references.md) uses for its path IDs. Exact and deterministic: only
 * {@code long} integer arithmetic, no floating point. Not thread-safe.
 *
 * <p>The coded number lies in [0, 1); {@code low} holds its next 32 fraction bits plus one carry
 * bit, {@code range} stays in [2^24, 2^32) after each symbol. A byte that could still receive a
 * carry is held back ({@code cache} and a run of pending 0xFF bytes) until the carry is known, so
 * no interval ever has to be split at a byte boundary. {@link #finish()} picks the value of the
 * final interval with the most trailing zero bits and drops trailing zero bytes: {@link
 * RangeDecoder} reads zeros past the end.
 *
 * <pre>{@code
 * RangeEncoder enc = new RangeEncoder(64);
 * enc.encode(0, 3, 4); // symbol with cumulative frequency 0, frequency 3, total 4
 * int length = enc.finish();
 * byte[] coded = Arrays.copyOf(enc.buffer(), length);
 * }</pre>
 */
public final class RangeEncoder {
    /** The largest total frequency a symbol may be coded with; keeps range / total >= 2^8. */
    public static final int MAX_TOTAL = 1 << 16;

    /**
     * Scale of the probability of a binary decision's unlikely outcome ({@link #encodeLikely}): q /
     * 2^28, 16 <= q <= 2^27.
     */
    public static final int PROBABILITY_BITS = 28;

    static final long TOP = 1L << 24;
    static final long MASK32 = 0xFFFF_FFFFL;

    private long low;
    private long range;
    private int cache;
    private boolean hasCache;
    private long pendingFF;
    private byte[] buf;
    private int pos;
    // Benchmarks only: where the code lengths go (null on devices).
    CodeLengths meter;

    /**
     * Creates an empty encoder.
     *
     * @param initialCapacity initial output buffer size in bytes, >= 0 (the buffer grows by
     *     doubling)
     */
    public RangeEncoder(int initialCapacity) {
        if (initialCapacity < 0) {
            throw new IllegalArgumentException(
                    "initialCapacity must be >= 0, got " + initialCapacity);
        }
        buf = new byte[Math.max(16, initialCapacity)];
        reset();
    }

    /** Starts a new coded stream, keeping the buffer. */
    public void reset() {
        low = 0;
        range = MASK32;
        cache = 0;
        // The first byte to leave the window is the integer part of the coded number, always 0
        // (the interval stays inside [0, 1)), so it is never written.
        hasCache = false;
        pendingFF = 0;
        pos = 0;
    }

    /**
     * Narrows the interval to the symbol [cum, cum + freq) of a table with the given total. The
     * last symbol of the table (cum + freq == total) also receives the rounding remainder, as
     * {@link RangeDecoder} assumes.
     *
     * @param cum cumulative frequency of the symbols before it, >= 0
     * @param freq frequency of the symbol, >= 1
     * @param total sum of all frequencies, cum + freq <= total <= {@link #MAX_TOTAL}
     */
    public void encode(int cum, int freq, int total) {
        if (meter != null) {
            meter.add(freq, total);
        }
        long r = range / total;
        long start = r * cum;
        low += start;
        if (cum + freq < total) {
            range = r * freq;
        } else {
            range -= start;
        }
        if (range < TOP) {
            normalize(); // about once a byte of output, not once a symbol
        }
    }

    /**
     * Codes the likely outcome of a binary decision whose other outcome has probability q / 2^28:
     * the likely outcome owns the lower part of the interval. One multiplication, no division: this
     * is the step almost every path event takes (path format version 3).
     *
     * @param q probability of the unlikely outcome in units of 2^-28, 16 <= q <= 2^27 (so that both
     *     parts of a range >= 2^24 are non-empty)
     */
    public void encodeLikely(int q) {
        long r = range;
        r -= (r * q) >>> PROBABILITY_BITS;
        range = r;
        if (r < TOP) {
            normalize();
        }
    }

    /**
     * As {@link #encodeLikely}, unless the interval would then need normalizing: then it changes
     * nothing and returns false, and the caller codes the decision with {@link #encodeLikely}.
     * Holds no call, so that it compiles to a few instructions wherever the JIT inlines it (a
     * method that reaches {@link #normalize()} grows past the size the JIT inlines into a probe).
     */
    public boolean tryEncodeLikely(int q) {
        long r = range;
        r -= (r * q) >>> PROBABILITY_BITS;
        if (r < TOP) {
            return false;
        }
        range = r;
        return true;
    }

    /** Codes the unlikely outcome of the decision of {@link #encodeLikely} (the upper part). */
    public void encodeUnlikely(int q) {
        long r = range;
        long w = (r * q) >>> PROBABILITY_BITS;
        low += r - w;
        range = w;
        if (w < TOP) {
            normalize();
        }
    }

    // Kept out of encode() and encodeLikely() so that they stay small enough for the JIT to
    // inline them into the models' coding methods (one of them runs per probe event).
    private void normalize() {
        do {
            range <<= 8;
            shiftLow();
        } while (range < TOP);
    }

    /** Encodes {@code value} uniformly from [0, n), n >= 1, splitting n above 2^16. */
    public void encodeUniform(int value, int n) {
        if (n <= MAX_TOTAL) {
            if (n > 1) {
                encode(value, 1, n);
            }
            return;
        }
        encodeUniform(value >>> 16, ((n - 1) >>> 16) + 1);
        encode(value & 0xFFFF, 1, MAX_TOTAL);
    }

    private void shiftLow() {
        if (low < 0xFF00_0000L || low > MASK32) {
            int carry = (int) (low >>> 32);
            if (hasCache) {
                put(cache + carry);
            }
            for (; pendingFF > 0; pendingFF--) {
                put(0xFF + carry);
            }
            hasCache = true;
            cache = (int) ((low >>> 24) & 0xFF);
        } else {
            // Top byte is 0xFF without carry: a later carry could still turn it into 0x00.
            pendingFF++;
        }
        low = (low & 0x00FF_FFFFL) << 8;
    }

    private void put(int b) {
        if (pos == buf.length) {
            buf = Arrays.copyOf(buf, buf.length * 2);
        }
        buf[pos++] = (byte) b;
    }

    /**
     * Ends the stream: writes the shortest value of the final interval and strips trailing zero
     * bytes. The coded bytes are {@code buffer()[0 .. length)}.
     *
     * @return the coded length in bytes
     */
    public int finish() {
        long high = low + range; // exclusive
        for (int k = 32; k >= 0; k--) {
            long mask = (1L << k) - 1;
            long v = (low + mask) & ~mask;
            if (v < high) {
                low = v;
                break;
            }
        }
        for (int i = 0; i < 5; i++) {
            shiftLow();
        }
        while (pos > 0 && buf[pos - 1] == 0) {
            pos--;
        }
        return pos;
    }

    /** The output buffer; valid bytes are {@code [0, length())}. */
    public byte[] buffer() {
        return buf;
    }

    /** Bytes written so far (excluding up to about 5 bytes still held in the coder). */
    public int length() {
        return pos;
    }
}
