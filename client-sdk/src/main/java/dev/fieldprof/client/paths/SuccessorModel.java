package dev.fieldprof.client.paths;

import java.util.Arrays;

/**
 * Predicts, per method frame, which event follows the previous one, so that the decoder needs no
 * CFG walk: it knows only the branch nodes and their fan-outs ({@link BranchTable}), not which
 * branch node, call or return comes next. AdapTracer's decoder walks the CFG instead (section 4.2,
 * Algorithm 2); here the device and server only have to agree on branch nodes.
 *
 * <p>The context is the frame's last coded edge (or method entry) and the number of calls returned
 * since (capped at {@link #CALL_LEVELS} − 1). Each context holds up to {@link #CANDIDATES} recently
 * seen next events with adaptive counts plus an escape; an escaped event is coded uniformly (2 bits
 * of kind, then branch ordinal or callee method id) and becomes a candidate. In straight-line CFG
 * code the next event is fixed, so after its first occurrence it costs well under 0.1 bit. Tables
 * start empty with every report (lazily per method) so reports decode independently. Encoder and
 * decoder run this same code. Not thread-safe.
 *
 * <p>Symbols in the frame of method m with B branch nodes: 0 = normal exit, 1 = exceptional exit, 2
 * + ordinal = branch node, 2 + B + callee = call of method callee.
 */
final class SuccessorModel {
    static final int CANDIDATES = 4;
    static final int CALL_LEVELS = 4;
    static final int EXIT = 0;
    static final int THROW = 1;
    static final int FIRST_BRANCH = 2;

    // A new candidate starts at NEW_COUNT against an escape of 1; hits add INC; totals above
    // BOUND halve. Fixed constants: they are part of path format version 1.
    static final int NEW_COUNT = 4;
    static final int INC = 16;
    static final int BOUND = 1 << 13;
    private static final int KINDS = 4;

    private final BranchLayout layout;
    private final EdgeModel model;
    private final int[][] sym;
    private final int[][] freq; // CANDIDATES + 1 per context; the last one is the escape
    private final int[][] count;
    private final int[] stamp;
    private int epoch = 1;
    private int[] touched = new int[16];
    private int touchedCount;

    SuccessorModel(EdgeModel model) {
        this.model = model;
        this.layout = model.layout;
        int n = layout.methodCount + 1;
        sym = new int[n][];
        freq = new int[n][];
        count = new int[n][];
        stamp = new int[n];
    }

    void reset() {
        epoch++;
        touchedCount = 0;
    }

    static int context(int lastEdgePlusOne, int calls) {
        return lastEdgePlusOne * CALL_LEVELS + (calls < CALL_LEVELS ? calls : CALL_LEVELS - 1);
    }

    private void touch(int m) {
        if (stamp[m] == epoch) {
            return;
        }
        int contexts = (layout.edgeCount(m) + 1) * CALL_LEVELS;
        if (count[m] == null) {
            sym[m] = new int[contexts * CANDIDATES];
            freq[m] = new int[contexts * (CANDIDATES + 1)];
            count[m] = new int[contexts];
        }
        if (touchedCount == touched.length) {
            touched = Arrays.copyOf(touched, touchedCount * 2);
        }
        touched[touchedCount++] = m;
        Arrays.fill(count[m], 0);
        int[] f = freq[m];
        for (int c = 0; c < contexts; c++) {
            f[c * (CANDIDATES + 1) + CANDIDATES] = 1;
        }
        // Seed the contexts the model has hints for (learned by the server from earlier reports).
        int[] hinted = model.hintContexts[m];
        for (int i = 0; i < hinted.length; i++) {
            int c = hinted[i];
            int[] hs = model.hintSymbols[m][i];
            int[] hf = model.hintFreqs[m][i];
            System.arraycopy(hs, 0, sym[m], c * CANDIDATES, hs.length);
            System.arraycopy(hf, 0, f, c * (CANDIDATES + 1), hf.length);
            count[m][c] = hs.length;
        }
        stamp[m] = epoch;
    }

    void encode(RangeEncoder enc, int m, int ctx, int symbol) {
        touch(m);
        int[] s = sym[m];
        int[] f = freq[m];
        int n = count[m][ctx];
        int sb = ctx * CANDIDATES;
        int fb = ctx * (CANDIDATES + 1);
        int total = f[fb + CANDIDATES];
        int hit = -1;
        int cum = 0;
        for (int j = 0; j < n; j++) {
            if (hit < 0) {
                if (s[sb + j] == symbol) {
                    hit = j;
                } else {
                    cum += f[fb + j];
                }
            }
            total += f[fb + j];
        }
        if (hit >= 0) {
            enc.encode(cum, f[fb + hit], total);
            adapt(f, fb, n, hit, total);
            return;
        }
        enc.encode(total - f[fb + CANDIDATES], f[fb + CANDIDATES], total);
        adapt(f, fb, n, CANDIDATES, total);
        int b = layout.branchCount(m);
        if (symbol < FIRST_BRANCH) {
            enc.encode(symbol, 1, KINDS);
        } else if (symbol < FIRST_BRANCH + b) {
            enc.encode(2, 1, KINDS);
            enc.encodeUniform(symbol - FIRST_BRANCH, b);
        } else {
            enc.encode(3, 1, KINDS);
            enc.encodeUniform(symbol - FIRST_BRANCH - b, layout.methodCount);
        }
        insert(m, ctx, symbol);
    }

    /**
     * @return the symbol, or -1 if the data names an event that cannot occur (corrupt report)
     */
    int decode(RangeDecoder dec, int m, int ctx) {
        touch(m);
        int[] s = sym[m];
        int[] f = freq[m];
        int n = count[m][ctx];
        int fb = ctx * (CANDIDATES + 1);
        int total = f[fb + CANDIDATES];
        for (int j = 0; j < n; j++) {
            total += f[fb + j];
        }
        int target = dec.target(total);
        int cum = 0;
        for (int j = 0; j < n; j++) {
            if (target < cum + f[fb + j]) {
                dec.consume(cum, f[fb + j], total);
                adapt(f, fb, n, j, total);
                return s[ctx * CANDIDATES + j];
            }
            cum += f[fb + j];
        }
        dec.consume(cum, f[fb + CANDIDATES], total);
        adapt(f, fb, n, CANDIDATES, total);
        int b = layout.branchCount(m);
        int kind = dec.target(KINDS);
        dec.consume(kind, 1, KINDS);
        int symbol;
        if (kind < 2) {
            symbol = kind;
        } else if (kind == 2) {
            if (b == 0) {
                return -1;
            }
            int ord = dec.decodeUniform(b);
            if (ord >= b) {
                return -1;
            }
            symbol = FIRST_BRANCH + ord;
        } else {
            if (layout.methodCount == 0) {
                return -1;
            }
            int callee = dec.decodeUniform(layout.methodCount);
            if (callee < 0 || callee >= layout.methodCount) {
                return -1;
            }
            symbol = FIRST_BRANCH + b + callee;
        }
        insert(m, ctx, symbol);
        return symbol;
    }

    /**
     * Folds the tables used in this report into {@code h}, in first-use order (the same on both
     * sides): a report's end check, so that a corrupt stream that happens to decode into other
     * valid events (say every normal exit of a context read as exceptional) is still rejected.
     */
    int digest(int h) {
        for (int i = 0; i < touchedCount; i++) {
            int m = touched[i];
            h = PathFormat.mix(h, m);
            int[] c = count[m];
            int[] s = sym[m];
            int[] f = freq[m];
            for (int ctx = 0; ctx < c.length; ctx++) {
                int n = c[ctx];
                if (n == 0) {
                    continue;
                }
                h = PathFormat.mix(h, ctx);
                for (int j = 0; j < n; j++) {
                    h = PathFormat.mix(h, s[ctx * CANDIDATES + j]);
                    h = PathFormat.mix(h, f[ctx * (CANDIDATES + 1) + j]);
                }
                h = PathFormat.mix(h, f[ctx * (CANDIDATES + 1) + CANDIDATES]);
            }
        }
        return h;
    }

    private static void adapt(int[] f, int fb, int n, int j, int total) {
        // Escapes grow by 1 (a context that keeps seeing new events should expect more).
        f[fb + j] += j == CANDIDATES ? 1 : INC;
        total += j == CANDIDATES ? 1 : INC;
        if (total > BOUND) {
            for (int i = 0; i < n; i++) {
                f[fb + i] = (f[fb + i] + 1) >>> 1;
            }
            f[fb + CANDIDATES] = (f[fb + CANDIDATES] + 1) >>> 1;
        }
    }

    private void insert(int m, int ctx, int symbol) {
        int[] f = freq[m];
        int n = count[m][ctx];
        int fb = ctx * (CANDIDATES + 1);
        int slot = n;
        if (n < CANDIDATES) {
            count[m][ctx] = n + 1;
        } else {
            // Full: replace the least frequent candidate (the first of equals).
            slot = 0;
            for (int j = 1; j < CANDIDATES; j++) {
                if (f[fb + j] < f[fb + slot]) {
                    slot = j;
                }
            }
        }
        sym[m][ctx * CANDIDATES + slot] = symbol;
        f[fb + slot] = NEW_COUNT;
        // Keep the context's total within BOUND after the insertion too.
        int total = f[fb + CANDIDATES];
        for (int j = 0; j < count[m][ctx]; j++) {
            total += f[fb + j];
        }
        if (total > BOUND) {
            for (int j = 0; j < count[m][ctx]; j++) {
                f[fb + j] = (f[fb + j] + 1) >>> 1;
            }
            f[fb + CANDIDATES] = (f[fb + CANDIDATES] + 1) >>> 1;
        }
    }
}
