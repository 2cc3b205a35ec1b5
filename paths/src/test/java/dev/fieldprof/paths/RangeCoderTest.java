package dev.fieldprof.paths;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class RangeCoderTest {

    /** Encodes symbols of frequency tables, returns the coded bytes. */
    private static byte[] encode(int[][] tables, int[] symbols) {
        RangeEncoder enc = new RangeEncoder(0);
        for (int i = 0; i < symbols.length; i++) {
            int[] f = tables[i];
            int cum = 0;
            for (int s = 0; s < symbols[i]; s++) {
                cum += f[s];
            }
            enc.encode(cum, f[symbols[i]], Arrays.stream(f).sum());
        }
        int n = enc.finish();
        return Arrays.copyOf(enc.buffer(), n);
    }

    /** The coded bytes (finish() first: it may grow the buffer). */
    private static byte[] finished(RangeEncoder enc) {
        int n = enc.finish();
        return Arrays.copyOf(enc.buffer(), n);
    }

    private static int[] decode(byte[] coded, int[][] tables) {
        RangeDecoder dec = new RangeDecoder(coded, 0, coded.length);
        int[] out = new int[tables.length];
        for (int i = 0; i < tables.length; i++) {
            int[] f = tables[i];
            int total = Arrays.stream(f).sum();
            int t = dec.target(total);
            int s = 0;
            int cum = 0;
            while (s < f.length - 1 && cum + f[s] <= t) {
                cum += f[s++];
            }
            dec.consume(cum, f[s], total);
            out[i] = s;
        }
        return out;
    }

    @Test
    void roundTripsRandomTablesAndSymbols() {
        for (long seed = 1; seed <= 300; seed++) {
            SplittableRandom rnd = new SplittableRandom(seed);
            int n = rnd.nextInt(0, 2000);
            int[][] tables = new int[n][];
            int[] symbols = new int[n];
            for (int i = 0; i < n; i++) {
                int k = rnd.nextInt(1, rnd.nextBoolean() ? 3 : 40);
                int[] f = new int[k];
                int budget = RangeEncoder.MAX_TOTAL;
                for (int j = 0; j < k; j++) {
                    int max = Math.max(1, (budget - (k - j)) / (rnd.nextInt(1, 4)));
                    f[j] = rnd.nextInt(1, Math.min(max, rnd.nextBoolean() ? 50 : 60000) + 1);
                    budget -= f[j];
                }
                tables[i] = f;
                symbols[i] = rnd.nextInt(k);
            }
            byte[] coded = encode(tables, symbols);
            assertArrayEquals(symbols, decode(coded, tables), "seed " + seed);
        }
    }

    @Test
    void roundTripsExtremeSkewAndCarryRuns() {
        // Long runs of the most probable last symbol push low towards 0xFF.. and force carries;
        // the rare first symbol in between costs 16 bits each.
        int[] f = {1, RangeEncoder.MAX_TOTAL - 1};
        for (long seed = 1; seed <= 50; seed++) {
            SplittableRandom rnd = new SplittableRandom(seed);
            int n = 50_000;
            int[][] tables = new int[n][];
            int[] symbols = new int[n];
            for (int i = 0; i < n; i++) {
                tables[i] = i % 3 == 0 ? new int[] {RangeEncoder.MAX_TOTAL - 1, 1} : f;
                symbols[i] = rnd.nextInt(1000) == 0 ? 0 : 1;
            }
            byte[] coded = encode(tables, symbols);
            assertArrayEquals(symbols, decode(coded, tables), "seed " + seed);
        }
    }

    @Test
    void writesExactBytesForAFixedMessage() {
        // The worked example of AdapTracer's arithmetic-coding background (docs/references.md):
        // alphabet {a, b, c, d} with p = {0.4, 0.2, 0.1, 0.3},
        // message "daca". With cumulative order a, b, c, d the final interval is
        // [0.772, 0.7768); one byte 0xC6 = 0.7734 lies in it, the rest are stripped zeros.
        int[] f = {4, 2, 1, 3};
        int[][] tables = {f, f, f, f};
        byte[] coded = encode(tables, new int[] {3, 0, 2, 0});
        assertArrayEquals(new byte[] {(byte) 0xC6}, coded);
        assertArrayEquals(new int[] {3, 0, 2, 0}, decode(coded, tables));
    }

    /**
     * {@code tryEncodeLikely}, falling back to {@code encodeLikely} when it declines, codes exactly
     * what {@code encodeLikely} alone codes; it declines only when the interval needs normalizing,
     * which long runs of likely outcomes make happen thousands of times here.
     */
    @Test
    void tryEncodeLikelyCodesWhatEncodeLikelyCodes() {
        SplittableRandom rnd = new SplittableRandom(20261126);
        RangeEncoder plain = new RangeEncoder(64);
        RangeEncoder tried = new RangeEncoder(64);
        int declined = 0;
        for (int i = 0; i < 200_000; i++) {
            int q = 16 + rnd.nextInt((1 << 27) - 16 + 1);
            if (rnd.nextInt(8) == 0) {
                plain.encodeUnlikely(q);
                tried.encodeUnlikely(q);
            } else {
                plain.encodeLikely(q);
                if (!tried.tryEncodeLikely(q)) {
                    declined++;
                    tried.encodeLikely(q);
                }
            }
        }
        int n = plain.finish();
        assertEquals(n, tried.finish());
        assertArrayEquals(Arrays.copyOf(plain.buffer(), n), Arrays.copyOf(tried.buffer(), n));
        assertTrue(declined > 1000, declined + " declined");
    }

    @Test
    void writesExactBytesForFixedBinaryDecisions() {
        // Likely at q = 1/4 keeps [0, 3/4); unlikely at q = 1/4 its upper quarter [9/16, 3/4);
        // likely at q = 1/2 the lower half [9/16, 21/32) = [0.5625, 0.65625). The shortest value
        // in it is 0.101b = 0.625: one byte 0xA0.
        RangeEncoder enc = new RangeEncoder(0);
        enc.encodeLikely(1 << 26);
        enc.encodeUnlikely(1 << 26);
        enc.encodeLikely(1 << 27);
        byte[] coded = finished(enc);
        assertArrayEquals(new byte[] {(byte) 0xA0}, coded);
        RangeDecoder dec = new RangeDecoder(coded, 0, coded.length);
        assertTrue(dec.decodeLikely(1 << 26));
        assertFalse(dec.decodeLikely(1 << 26));
        assertTrue(dec.decodeLikely(1 << 27));

        // Eight unlikely outcomes at q = 1/2 leave [1 - 2^-8, 1): the top byte 0xFF, held back as
        // a byte a carry could still change, then written by finish().
        enc.reset();
        for (int i = 0; i < 8; i++) {
            enc.encodeUnlikely(1 << 27);
        }
        coded = finished(enc);
        assertArrayEquals(new byte[] {(byte) 0xFF}, coded);
        dec = new RangeDecoder(coded, 0, coded.length);
        for (int i = 0; i < 8; i++) {
            assertFalse(dec.decodeLikely(1 << 27), "decision " + i);
        }
    }

    @Test
    void roundTripsRandomBinaryDecisionsAtExtremeProbabilities() {
        // q from the smallest allowed (16 / 2^28) to 1/2, outcomes drawn at q or against it (the
        // unlikely outcome at the smallest q costs 24 bits), mixed with multi-symbol steps.
        int[] extremes = {16, 17, 255, 1 << 20, (1 << 27) - 1, 1 << 27};
        for (long seed = 1; seed <= 200; seed++) {
            SplittableRandom rnd = new SplittableRandom(seed);
            int n = rnd.nextInt(1, 20_000);
            int[] qs = new int[n];
            boolean[] likely = new boolean[n];
            int[] symbols = new int[n];
            RangeEncoder enc = new RangeEncoder(0);
            for (int i = 0; i < n; i++) {
                qs[i] =
                        rnd.nextBoolean()
                                ? extremes[rnd.nextInt(extremes.length)]
                                : rnd.nextInt(16, (1 << 27) + 1);
                boolean against = rnd.nextInt(8) == 0;
                likely[i] = against ? rnd.nextBoolean() : rnd.nextLong(1L << 28) >= qs[i];
                if (likely[i]) {
                    enc.encodeLikely(qs[i]);
                } else {
                    enc.encodeUnlikely(qs[i]);
                }
                if (rnd.nextInt(16) == 0) {
                    symbols[i] = rnd.nextInt(3);
                    enc.encode(symbols[i], 1, 3);
                } else {
                    symbols[i] = -1;
                }
            }
            byte[] coded = finished(enc);
            RangeDecoder dec = new RangeDecoder(coded, 0, coded.length);
            for (int i = 0; i < n; i++) {
                assertEquals(likely[i], dec.decodeLikely(qs[i]), "seed " + seed + " decision " + i);
                if (symbols[i] >= 0) {
                    int s = dec.target(3);
                    dec.consume(s, 1, 3);
                    assertEquals(symbols[i], s, "seed " + seed + " symbol " + i);
                }
            }
        }
    }

    @Test
    void likelyOutcomesAtTheSmallestMissProbabilityCostAlmostNothing() {
        // A million likely outcomes at q = 16 / 2^28 cost 10^6 * 16 / 2^28 / ln 2 = 0.09 bits
        // (the integer step rounds the unlikely part down, never up): the interval stays above
        // [0, 0.94); the unlikely half that follows puts 0.5 = 0x80 inside it.
        RangeEncoder enc = new RangeEncoder(0);
        for (int i = 0; i < 1_000_000; i++) {
            enc.encodeLikely(16);
        }
        enc.encodeUnlikely(1 << 27);
        byte[] coded = finished(enc);
        assertArrayEquals(new byte[] {(byte) 0x80}, coded);
    }

    @Test
    void emptyStreamIsEmpty() {
        assertEquals(0, encode(new int[0][], new int[0]).length);
    }

    @Test
    void certainSymbolsCostNothing() {
        int[][] tables = new int[10_000][];
        Arrays.fill(tables, new int[] {1});
        byte[] coded = encode(tables, new int[10_000]);
        assertEquals(0, coded.length);
    }

    @Test
    void uniformValuesRoundTripAbove16Bits() {
        SplittableRandom rnd = new SplittableRandom(7);
        RangeEncoder enc = new RangeEncoder(4);
        int[] ns = new int[5000];
        int[] vs = new int[5000];
        for (int i = 0; i < ns.length; i++) {
            ns[i] = rnd.nextInt(1, Integer.MAX_VALUE);
            vs[i] = rnd.nextInt(ns[i]);
            enc.encodeUniform(vs[i], ns[i]);
        }
        int len = enc.finish();
        RangeDecoder dec = new RangeDecoder(enc.buffer(), 0, len);
        for (int i = 0; i < ns.length; i++) {
            assertEquals(vs[i], dec.decodeUniform(ns[i]), "value " + i);
        }
    }

    @Test
    void rejectsBadSlices() {
        assertThrows(IllegalArgumentException.class, () -> new RangeDecoder(new byte[3], 2, 2));
        assertThrows(IllegalArgumentException.class, () -> new RangeEncoder(-1));
    }
}
