package dev.fieldprof.paths;

import java.util.Arrays;

/**
 * Predicts, per method frame, which event follows the previous one, so that the decoder needs no
 * CFG walk: it knows only the branch nodes and their fan-outs ({@link BranchTable}), not which
 * branch node, call or return comes next. AdapTracer's decoder (docs/references.md) walks the CFG
 * instead; here the device and server only have to agree on branch nodes.
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

    // Per method (index methodCount = the outermost frame), all its contexts in one array, so
    // that coding an event touches one array and mostly one cache line: [0] the report epoch the
    // table belongs to, then STRIDE ints per context: candidate count, escape count, CANDIDATES
    // counts, CANDIDATES symbols. Slots at or beyond the candidate count are stale and unused.
    private static final int COUNT = 0;
    private static final int ESCAPE = 1;
    private static final int FREQ = 2;
    private static final int SYM = FREQ + CANDIDATES;
    private static final int STRIDE = SYM + CANDIDATES;

    private final BranchLayout layout;
    private final EdgeModel model;
    private final int[][] tables;
    private int epoch = 1;
    private int[] touched = new int[16];
    private int touchedCount;

    SuccessorModel(EdgeModel model) {
        this.model = model;
        this.layout = model.layout;
        tables = new int[layout.methodCount + 1][];
    }

    void reset() {
        epoch++;
        touchedCount = 0;
    }

    static int context(int lastEdgePlusOne, int calls) {
        return lastEdgePlusOne * CALL_LEVELS + (calls < CALL_LEVELS ? calls : CALL_LEVELS - 1);
    }

    /**
     * The method's table, restarted from the model if this report has not used it yet. The array
     * stays valid for the rest of the report (callers may keep it until the next {@link #reset()}),
     * and the first call per method and report fixes the order {@link #digest} folds tables in.
     */
    int[] table(int m) {
        int[] t = tables[m];
        return t != null && t[0] == epoch ? t : touch(m);
    }

    private int[] touch(int m) {
        int contexts = (layout.edgeCount(m) + 1) * CALL_LEVELS;
        int[] t = tables[m];
        if (t == null) {
            t = new int[1 + contexts * STRIDE];
            tables[m] = t;
        }
        if (touchedCount == touched.length) {
            touched = Arrays.copyOf(touched, touchedCount * 2);
        }
        touched[touchedCount++] = m;
        for (int c = 0, b = 1; c < contexts; c++, b += STRIDE) {
            t[b + COUNT] = 0;
            t[b + ESCAPE] = 1;
        }
        // Seed the contexts the model has hints for (learned by the server from earlier reports).
        int[] hinted = model.hintContexts[m];
        for (int i = 0; i < hinted.length; i++) {
            int b = 1 + hinted[i] * STRIDE;
            int[] hs = model.hintSymbols[m][i];
            int[] hf = model.hintFreqs[m][i];
            System.arraycopy(hs, 0, t, b + SYM, hs.length);
            System.arraycopy(hf, 0, t, b + FREQ, hf.length);
            t[b + COUNT] = hs.length;
        }
        t[0] = epoch;
        return t;
    }

    /**
     * Codes {@code symbol} in context {@code ctx} of method {@code m}, whose table {@code t} the
     * caller got from {@link #table} in this report (the encoder keeps it per open frame).
     */
    void encode(RangeEncoder enc, int[] t, int m, int ctx, int symbol) {
        int b = 1 + ctx * STRIDE;
        int n = t[b + COUNT];
        int total = t[b + ESCAPE];
        int hit = -1;
        int cum = 0;
        for (int j = 0; j < n; j++) {
            int f = t[b + FREQ + j];
            if (hit < 0) {
                if (t[b + SYM + j] == symbol) {
                    hit = j;
                } else {
                    cum += f;
                }
            }
            total += f;
        }
        if (hit >= 0) {
            enc.encode(cum, t[b + FREQ + hit], total);
            adapt(t, b, n, FREQ + hit, INC, total);
        } else {
            encodeEscape(enc, m, t, b, symbol, total);
        }
    }

    // The rare path (a symbol new to its context), apart so that encode() stays small.
    private void encodeEscape(RangeEncoder enc, int m, int[] t, int b, int symbol, int total) {
        int escape = t[b + ESCAPE];
        enc.encode(total - escape, escape, total);
        adapt(t, b, t[b + COUNT], ESCAPE, 1, total);
        int branches = layout.branchCount(m);
        if (symbol < FIRST_BRANCH) {
            enc.encode(symbol, 1, KINDS);
        } else if (symbol < FIRST_BRANCH + branches) {
            enc.encode(2, 1, KINDS);
            enc.encodeUniform(symbol - FIRST_BRANCH, branches);
        } else {
            enc.encode(3, 1, KINDS);
            enc.encodeUniform(symbol - FIRST_BRANCH - branches, layout.methodCount);
        }
        insert(t, b, symbol);
    }

    /**
     * @return the symbol, or -1 if the data names an event that cannot occur (corrupt report)
     */
    int decode(RangeDecoder dec, int m, int ctx) {
        int[] t = table(m);
        int b = 1 + ctx * STRIDE;
        int n = t[b + COUNT];
        int total = t[b + ESCAPE];
        for (int j = 0; j < n; j++) {
            total += t[b + FREQ + j];
        }
        int target = dec.target(total);
        int cum = 0;
        for (int j = 0; j < n; j++) {
            int f = t[b + FREQ + j];
            if (target < cum + f) {
                dec.consume(cum, f, total);
                adapt(t, b, n, FREQ + j, INC, total);
                return t[b + SYM + j];
            }
            cum += f;
        }
        dec.consume(cum, t[b + ESCAPE], total);
        adapt(t, b, n, ESCAPE, 1, total);
        int branches = layout.branchCount(m);
        int kind = dec.target(KINDS);
        dec.consume(kind, 1, KINDS);
        int symbol;
        if (kind < 2) {
            symbol = kind;
        } else if (kind == 2) {
            if (branches == 0) {
                return -1;
            }
            int ord = dec.decodeUniform(branches);
            if (ord >= branches) {
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
            symbol = FIRST_BRANCH + branches + callee;
        }
        insert(t, b, symbol);
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
            int[] t = tables[m];
            int contexts = (t.length - 1) / STRIDE;
            for (int ctx = 0; ctx < contexts; ctx++) {
                int b = 1 + ctx * STRIDE;
                int n = t[b + COUNT];
                if (n == 0) {
                    continue;
                }
                h = PathFormat.mix(h, ctx);
                for (int j = 0; j < n; j++) {
                    h = PathFormat.mix(h, t[b + SYM + j]);
                    h = PathFormat.mix(h, t[b + FREQ + j]);
                }
                h = PathFormat.mix(h, t[b + ESCAPE]);
            }
        }
        return h;
    }

    /**
     * Adds {@code inc} to the count at {@code slot} and halves the context above BOUND. Callers
     * pass INC for a candidate and 1 for the escape (a context that keeps seeing new events should
     * expect more).
     */
    private static void adapt(int[] t, int b, int n, int slot, int inc, int total) {
        t[b + slot] += inc;
        if (total + inc > BOUND) {
            halve(t, b, n);
        }
    }

    private static void halve(int[] t, int b, int n) {
        for (int j = 0; j < n; j++) {
            t[b + FREQ + j] = (t[b + FREQ + j] + 1) >>> 1;
        }
        t[b + ESCAPE] = (t[b + ESCAPE] + 1) >>> 1;
    }

    private static void insert(int[] t, int b, int symbol) {
        int n = t[b + COUNT];
        int slot = n;
        if (n < CANDIDATES) {
            n++;
            t[b + COUNT] = n;
        } else {
            // Full: replace the least frequent candidate (the first of equals).
            slot = 0;
            for (int j = 1; j < CANDIDATES; j++) {
                if (t[b + FREQ + j] < t[b + FREQ + slot]) {
                    slot = j;
                }
            }
        }
        t[b + SYM + slot] = symbol;
        t[b + FREQ + slot] = NEW_COUNT;
        // Keep the context's total within BOUND after the insertion too.
        int total = t[b + ESCAPE];
        for (int j = 0; j < n; j++) {
            total += t[b + FREQ + j];
        }
        if (total > BOUND) {
            halve(t, b, n);
        }
    }
}
