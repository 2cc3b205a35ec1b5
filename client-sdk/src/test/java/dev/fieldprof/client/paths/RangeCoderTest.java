package dev.fieldprof.client.paths;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

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
        // AdapTracer section 2.2's example: alphabet {a, b, c, d} with p = {0.4, 0.2, 0.1, 0.3},
        // message "daca". With cumulative order a, b, c, d the final interval is
        // [0.772, 0.7768); one byte 0xC6 = 0.7734 lies in it, the rest are stripped zeros.
        int[] f = {4, 2, 1, 3};
        int[][] tables = {f, f, f, f};
        byte[] coded = encode(tables, new int[] {3, 0, 2, 0});
        assertArrayEquals(new byte[] {(byte) 0xC6}, coded);
        assertArrayEquals(new int[] {3, 0, 2, 0}, decode(coded, tables));
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
