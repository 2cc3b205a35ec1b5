package dev.fieldprof.client.paths;

import java.util.Arrays;

/**
 * The per-call-site model of path format version 2 (issue 12): in a frame of method m, the next
 * coded event is predicted from the frame's position, the segment (the last branch edge taken, or
 * the method entry) and the number of calls made in it so far (capped at {@link #LEVELS} − 1). A
 * position is what the CFG fixes: a segment is straight-line code up to one branch node or exit, so
 * its k-th call is one call site and its end is that node's outcome. Each position holds up to
 * {@link #CANDIDATES} recently seen outcomes with adaptive counts and an escape: a call site's
 * callees (virtual dispatch and callbacks give several), the branch node's out-edges (outcome and
 * "no more calls" in one symbol), the method's return, an exceptional exit. An escaped event names
 * its kind and then a branch node and its edge (from the report's {@link AdaptiveEdgeModel}) or a
 * callee (from the report's {@link MethodModel}). The outermost frame's position is the previous
 * outermost callee. Positions start from the edge model's successor hints, restart with every
 * report, and encoder and decoder run this same code. Not thread-safe.
 *
 * <p>Symbols in a frame of method m with E out-edges over its branch nodes: 0 = normal exit, 1 =
 * exceptional exit, 2 + g = local edge g taken, 2 + E + c = method c called.
 */
final class CallSiteModel {
    static final int LEVELS = 8;
    static final int CANDIDATES = 8;
    static final int EXIT = 0;
    static final int THROW = 1;
    static final int FIRST_EDGE = 2;

    // Fixed constants: they are part of path format version 2.
    static final int NEW_COUNT = 4;
    static final int INC = 16;
    static final int BOUND = 1 << 13;
    private static final int KINDS = 4;
    private static final int KIND_EDGE = 2;
    private static final int KIND_CALL = 3;
    // Successor hints of the edge model are kept per (segment, calls capped at 3).
    private static final int HINT_LEVELS = SuccessorModel.CALL_LEVELS;

    // One row per position: [EPOCH] report epoch, [COUNT] candidates, [ESCAPE] escape count,
    // [TOTAL] escape + counts, CANDIDATES counts, CANDIDATES symbols. Slots at or beyond the count
    // are stale. A hit moves its candidate one slot forward when it outgrows the one before, so
    // the frequent outcomes sit first and a hit's scan is short.
    private static final int EPOCH = 0;
    private static final int COUNT = 1;
    private static final int ESCAPE = 2;
    private static final int TOTAL = 3;
    private static final int FREQ = 4;
    private static final int SYM = FREQ + CANDIDATES;
    private static final int STRIDE = SYM + CANDIDATES;

    private final BranchLayout layout;
    private final EdgeModel model;
    private final AdaptiveEdgeModel edges;
    private final MethodModel methods;
    private final int[][][] rows;
    private int epoch = 1;
    private int[] touched = new int[32];
    private int touchedCount;
    CodeLengths meter;

    CallSiteModel(EdgeModel model) {
        this.model = model;
        this.layout = model.layout;
        this.edges = new AdaptiveEdgeModel(model);
        this.methods = new MethodModel(layout.methodCount);
        this.rows = new int[layout.methodCount + 1][][];
    }

    void reset() {
        epoch++;
        touchedCount = 0;
        edges.reset();
        methods.reset();
    }

    /** Position of a frame of a method (not the outermost) after {@code segment} and k calls. */
    static int position(int segment, int calls) {
        return segment * LEVELS + (calls < LEVELS ? calls : LEVELS - 1);
    }

    /** Rows of method m's positions (m = methodCount: the outermost frame), valid for good. */
    int[][] rowsOf(int m) {
        int[][] r = rows[m];
        if (r == null) {
            int positions =
                    m == layout.methodCount
                            ? layout.methodCount + 1
                            : (layout.edgeCount(m) + 1) * LEVELS;
            r = new int[positions][];
            rows[m] = r;
        }
        return r;
    }

    /**
     * The row of position {@code pos}, restarted (from the hints) if this report has not used it.
     */
    int[] row(int[][] rs, int m, int pos) {
        int[] r = rs[pos];
        return r != null && r[EPOCH] == epoch ? r : touch(rs, m, pos);
    }

    private int[] touch(int[][] rs, int m, int pos) {
        int[] r = rs[pos];
        if (r == null) {
            r = new int[STRIDE];
            rs[pos] = r;
        }
        if (touchedCount + 2 > touched.length) {
            touched = Arrays.copyOf(touched, touched.length * 2);
        }
        touched[touchedCount++] = m;
        touched[touchedCount++] = pos;
        r[EPOCH] = epoch;
        r[COUNT] = 0;
        r[ESCAPE] = 1;
        r[TOTAL] = 1;
        if (m < layout.methodCount) {
            seed(r, m, pos);
        }
        return r;
    }

    /**
     * Seeds a position from the model's successor hint of (segment, min(calls, 3)): a hinted branch
     * node becomes its out-edges, weighted by the model's edge frequencies.
     */
    private void seed(int[] r, int m, int pos) {
        int segment = pos / LEVELS;
        int calls = Math.min(pos % LEVELS, HINT_LEVELS - 1);
        int i = Arrays.binarySearch(model.hintContexts[m], segment * HINT_LEVELS + calls);
        if (i < 0) {
            return;
        }
        int[] hs = model.hintSymbols[m][i];
        int[] hf = model.hintFreqs[m][i];
        int branches = layout.branchCount(m);
        int edgeCount = layout.edgeCount(m);
        int n = 0;
        int total = 1;
        for (int j = 0; j < hs.length && n < CANDIDATES; j++) {
            int s = hs[j];
            if (s < SuccessorModel.FIRST_BRANCH) {
                r[SYM + n] = s;
                r[FREQ + n] = hf[j];
                total += hf[j];
                n++;
            } else if (s < SuccessorModel.FIRST_BRANCH + branches) {
                int ord = s - SuccessorModel.FIRST_BRANCH;
                int from = layout.edgeStart[m][ord];
                int to = layout.edgeStart[m][ord + 1];
                long nodeTotal = 0;
                for (int e = from; e < to; e++) {
                    nodeTotal += model.freqs[m][e];
                }
                for (int e = from; e < to && n < CANDIDATES; e++) {
                    int f = (int) Math.max(1, (long) hf[j] * model.freqs[m][e] / nodeTotal);
                    r[SYM + n] = FIRST_EDGE + e;
                    r[FREQ + n] = f;
                    total += f;
                    n++;
                }
            } else {
                int callee = s - SuccessorModel.FIRST_BRANCH - branches;
                r[SYM + n] = FIRST_EDGE + edgeCount + callee;
                r[FREQ + n] = hf[j];
                total += hf[j];
                n++;
            }
        }
        r[COUNT] = n;
        r[TOTAL] = total;
        while (r[TOTAL] > BOUND) {
            halve(r, n);
        }
    }

    /** Codes {@code symbol} at row {@code r} of method {@code m}'s frame. */
    void encode(RangeEncoder enc, int[] r, int m, int symbol) {
        int n = r[COUNT];
        int total = r[TOTAL];
        int cum = 0;
        int j = 0;
        while (j < n && r[SYM + j] != symbol) {
            cum += r[FREQ + j];
            j++;
        }
        if (j < n) {
            if (meter != null) {
                meterHit(r, m, n, symbol, total);
            }
            enc.encode(cum, r[FREQ + j], total);
            hit(r, n, j, total);
        } else {
            encodeEscape(enc, r, m, symbol, total);
        }
    }

    /** Adapts after candidate {@code j} was coded: its count grows, it may move one slot up. */
    private static void hit(int[] r, int n, int j, int total) {
        int f = r[FREQ + j] + INC;
        r[FREQ + j] = f;
        r[TOTAL] = total + INC;
        if (j > 0 && f > r[FREQ + j - 1]) {
            int s = r[SYM + j];
            r[FREQ + j] = r[FREQ + j - 1];
            r[SYM + j] = r[SYM + j - 1];
            r[FREQ + j - 1] = f;
            r[SYM + j - 1] = s;
        }
        if (total + INC > BOUND) {
            halve(r, n);
        }
    }

    // The rare path (an outcome new to its position), apart so that encode() stays small.
    private void encodeEscape(RangeEncoder enc, int[] r, int m, int symbol, int total) {
        int escape = r[ESCAPE];
        if (meter != null) {
            meter.category = CodeLengths.CALL;
        }
        enc.encode(total - escape, escape, total);
        escaped(r, total);
        if (m == layout.methodCount) {
            methods.encode(enc, symbol - FIRST_EDGE); // the outermost frame only calls
        } else {
            int edgeCount = layout.edgeCount(m);
            if (symbol < FIRST_EDGE) {
                enc.encode(symbol, 1, KINDS);
            } else if (symbol < FIRST_EDGE + edgeCount) {
                enc.encode(KIND_EDGE, 1, KINDS);
                int g = symbol - FIRST_EDGE;
                int[] starts = layout.edgeStart[m];
                int ord = ordinalOfEdge(starts, g);
                if (meter != null) {
                    meter.category = CodeLengths.BRANCH;
                }
                enc.encodeUniform(ord, layout.branchCount(m));
                edges.encode(enc, m, ord, g - starts[ord]);
            } else {
                enc.encode(KIND_CALL, 1, KINDS);
                methods.encode(enc, symbol - FIRST_EDGE - edgeCount);
            }
        }
        insert(r, symbol);
    }

    /**
     * Sets the meter's category for a hit; an edge's code length is split: "no more calls at this
     * position" to the call structure, the outcome among the position's edges to branches.
     */
    private void meterHit(int[] r, int m, int n, int symbol, int total) {
        int edgeEnd = FIRST_EDGE + (m == layout.methodCount ? 0 : layout.edgeCount(m));
        if (symbol >= FIRST_EDGE && symbol < edgeEnd) {
            int edgeSum = 0;
            for (int j = 0; j < n; j++) {
                int s = r[SYM + j];
                if (s >= FIRST_EDGE && s < edgeEnd) {
                    edgeSum += r[FREQ + j];
                }
            }
            meter.moveToCalls(edgeSum, total);
            meter.category = CodeLengths.BRANCH;
        } else {
            meter.category = CodeLengths.CALL;
        }
    }

    private static int ordinalOfEdge(int[] starts, int g) {
        int ord = Arrays.binarySearch(starts, g);
        if (ord < 0) {
            return -ord - 2;
        }
        // Equal starts cannot occur (every node has >= 2 edges), so g starts node ord.
        return ord;
    }

    /**
     * @return the symbol, or -1 if the data names an event that cannot occur (corrupt report)
     */
    int decode(RangeDecoder dec, int[] r, int m) {
        int n = r[COUNT];
        int total = r[TOTAL];
        int target = dec.target(total);
        int cum = 0;
        for (int j = 0; j < n; j++) {
            int f = r[FREQ + j];
            if (target < cum + f) {
                int symbol = r[SYM + j];
                dec.consume(cum, f, total);
                hit(r, n, j, total);
                return symbol;
            }
            cum += f;
        }
        dec.consume(cum, r[ESCAPE], total);
        escaped(r, total);
        int symbol;
        if (m == layout.methodCount) {
            int callee = methods.decode(dec);
            if (callee < 0) {
                return -1;
            }
            symbol = FIRST_EDGE + callee;
        } else {
            int edgeCount = layout.edgeCount(m);
            int kind = dec.target(KINDS);
            dec.consume(kind, 1, KINDS);
            if (kind < KIND_EDGE) {
                symbol = kind;
            } else if (kind == KIND_EDGE) {
                int branches = layout.branchCount(m);
                if (branches == 0) {
                    return -1;
                }
                int ord = dec.decodeUniform(branches);
                if (ord < 0 || ord >= branches) {
                    return -1;
                }
                int edge = edges.decode(dec, m, ord);
                symbol = FIRST_EDGE + layout.edgeStart[m][ord] + edge;
            } else {
                int callee = methods.decode(dec);
                if (callee < 0) {
                    return -1;
                }
                symbol = FIRST_EDGE + edgeCount + callee;
            }
        }
        for (int j = 0; j < n; j++) {
            if (r[SYM + j] == symbol) {
                return -1; // an escape never names a candidate: corrupt
            }
        }
        insert(r, symbol);
        return symbol;
    }

    /**
     * Folds the positions used in this report, in first-use order (the same on both sides), and the
     * method model into {@code h}: a report's end check.
     */
    int digest(int h) {
        for (int i = 0; i < touchedCount; i += 2) {
            int m = touched[i];
            int pos = touched[i + 1];
            int[] r = rows[m][pos];
            h = PathFormat.mix(h, m);
            h = PathFormat.mix(h, pos);
            int n = r[COUNT];
            for (int j = 0; j < n; j++) {
                h = PathFormat.mix(h, r[SYM + j]);
                h = PathFormat.mix(h, r[FREQ + j]);
            }
            h = PathFormat.mix(h, r[ESCAPE]);
        }
        return methods.digest(h);
    }

    /** The escape was coded: a position that keeps seeing new outcomes should expect more. */
    private static void escaped(int[] r, int total) {
        r[ESCAPE]++;
        r[TOTAL] = total + 1;
        if (total + 1 > BOUND) {
            halve(r, r[COUNT]);
        }
    }

    private static void halve(int[] r, int n) {
        int total = 0;
        for (int j = 0; j < n; j++) {
            r[FREQ + j] = (r[FREQ + j] + 1) >>> 1;
            total += r[FREQ + j];
        }
        r[ESCAPE] = (r[ESCAPE] + 1) >>> 1;
        r[TOTAL] = total + r[ESCAPE];
    }

    private static void insert(int[] r, int symbol) {
        int n = r[COUNT];
        int slot = n;
        int total = r[TOTAL];
        if (n < CANDIDATES) {
            n++;
            r[COUNT] = n;
        } else {
            // Full: replace the least frequent candidate (the last of equals).
            slot = CANDIDATES - 1;
            for (int j = CANDIDATES - 2; j >= 0; j--) {
                if (r[FREQ + j] < r[FREQ + slot]) {
                    slot = j;
                }
            }
            total -= r[FREQ + slot];
        }
        r[SYM + slot] = symbol;
        r[FREQ + slot] = NEW_COUNT;
        r[TOTAL] = total + NEW_COUNT;
        if (r[TOTAL] > BOUND) {
            halve(r, n);
        }
    }
}
