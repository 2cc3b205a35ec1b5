package dev.fieldprof.paths;

/**
 * Constants and varint helpers of the path report byte format; the layout itself is documented on
 * {@code PathEncoder} (a test fixture).
 */
final class PathFormat {
    /** Version 1: every event coded as the frame's next event (successor model). */
    static final int VERSION_1 = 1;

    /**
     * Version 3: branch outcomes and call-site outcomes at CFG positions ({@link
     * CallSitePathEncoder}), each first as one binary "most probable outcome?" decision. Decoders
     * keep reading old versions. Version 2 (the same positions, each event one multi-symbol coder
     * step) never left this repository and is not decoded.
     */
    static final int VERSION_3 = 3;

    /**
     * Version 4: version 3 with the number of raw-event segments dropped before the report (the
     * staged tracer, which codes buffered events in batches).
     */
    static final int VERSION_4 = 4;

    /** Format written by devices. */
    static final int CURRENT = VERSION_3;

    /** Seed of the end check (a hash of the final adaptive state and open frames). */
    static final int CHECK_SEED = 0xA55A_1F0D;

    static int mix(int h, int x) {
        return (h ^ x) * 0x9E37_79B1 + 0x7F4A_7C15;
    }

    /** The 16 bits coded after the last event. */
    static int check(int h) {
        h ^= h >>> 16;
        h *= 0x85EB_CA6B;
        h ^= h >>> 13;
        return h & 0xFFFF;
    }

    /** Header pairs (n, calls) with calls <= 4 are written as one varint n * 5 + calls. */
    static final int PACK = SuccessorModel.CALL_LEVELS + 1;

    static long pack(int n, int calls) {
        return (long) n * PACK + calls;
    }

    private PathFormat() {}

    /** Unsigned LEB128. */
    static int putVarLong(byte[] out, int pos, long v) {
        while ((v & ~0x7FL) != 0) {
            out[pos++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        out[pos++] = (byte) v;
        return pos;
    }

    static int varLongSize(long v) {
        int n = 1;
        while ((v & ~0x7FL) != 0) {
            v >>>= 7;
            n++;
        }
        return n;
    }

    /** Reads varints from a report, failing with a reason on truncation or overlong values. */
    static final class Reader {
        private final byte[] data;
        int pos;

        Reader(byte[] data, int pos) {
            this.data = data;
            this.pos = pos;
        }

        long varLong(String what) throws InvalidPathReportException {
            long v = 0;
            for (int shift = 0; shift < 64; shift += 7) {
                if (pos >= data.length) {
                    throw new InvalidPathReportException("truncated header: no " + what);
                }
                int b = data[pos++] & 0xFF;
                v |= (long) (b & 0x7F) << shift;
                if ((b & 0x80) == 0) {
                    return v;
                }
            }
            throw new InvalidPathReportException("malformed header: " + what + " is too long");
        }

        int varInt(String what, int maxExclusive) throws InvalidPathReportException {
            long v = varLong(what);
            if (v < 0 || v >= maxExclusive) {
                throw new InvalidPathReportException(
                        "malformed header: "
                                + what
                                + " "
                                + v
                                + " not in [0, "
                                + maxExclusive
                                + ")");
            }
            return (int) v;
        }
    }
}
