package dev.fieldprof.paths;

import java.util.Arrays;

/**
 * The per-call-site model of path format version 3: in a frame of method m, the next coded event is
 * predicted from the frame's position, the segment (the last branch edge taken, or the method
 * entry) and the number of calls made in it so far (capped at {@link #LEVELS} − 1). A position is
 * what the CFG fixes: a segment is straight-line code up to one branch node or exit, so its k-th
 * call is one call site and its end is that node's outcome.
 *
 * <p>Almost every event is its position's most probable outcome, so each position codes first one
 * binary decision, "is it the most probable symbol (MPS)?", with an adaptive probability and a
 * division-free binary coder step ({@link RangeEncoder#encodeLikely}): the whole cost of a typical
 * event. Only on a miss does it code which other outcome came, from up to {@link #CANDIDATES}
 * recently seen outcomes with adaptive counts and an escape: a call site's callees (virtual
 * dispatch and callbacks give several), the branch node's out-edges (outcome and "no more calls" in
 * one symbol), the method's return, an exceptional exit. An escaped event names its kind and then a
 * branch node and its edge (from the report's {@link AdaptiveEdgeModel}) or a callee (from the
 * report's {@link MethodModel}). The outermost frame's position is the previous outermost callee.
 * Positions start from the edge model's successor hints, restart with every report, and encoder and
 * decoder run this same code. Not thread-safe.
 *
 * <p>The miss probability q / 2^28 adapts with rate 1 / (n + 2) after n observations (a running
 * average, so a position learns from its first events), then 2^-{@link #SHIFT}; when a miss makes
 * it exceed 1/2 the MPS trades places with the first candidate and q becomes 1 − q.
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

    /** The MPS of a position that has seen no event yet. */
    static final int NONE = -1;

    // Fixed constants: they are part of path format version 3.
    static final int NEW_COUNT = 4;
    static final int INC = 16;
    static final int BOUND = 1 << 13;
    static final int Q_ONE = 1 << RangeEncoder.PROBABILITY_BITS;
    static final int Q_HALF = Q_ONE >>> 1;

    /** Steady adaptation rate of the miss probability: 2^-SHIFT per event. */
    static final int SHIFT = 6;

    /** Observations after which the rate 1 / (n + 2) has reached 2^-SHIFT. */
    static final int LIMIT = (1 << SHIFT) - 2;

    /** Miss probability and observation count of an outcome that has just become the MPS. */
    static final int Q_NEW = Q_ONE / 4;

    static final int SEEN_NEW = 1;

    /** Smallest seeded miss probability: keeps q >= 16 through any run of hits. */
    static final int Q_SEED_MIN = 1 << 16;

    // RATE[n] = 2^16 / (n + 2): the running average's rate after n observations.
    private static final int[] RATE = new int[LIMIT];

    static {
        for (int n = 0; n < LIMIT; n++) {
            RATE[n] = (1 << 16) / (n + 2);
        }
    }

    private static final int KINDS = 4;
    private static final int KIND_EDGE = 2;
    private static final int KIND_CALL = 3;
    // Successor hints of the edge model are kept per (segment, calls capped at 3).
    private static final int HINT_LEVELS = SuccessorModel.CALL_LEVELS;

    // Per method, one flat table of its positions' hot fields, HOT ints each: [STATE] the most
    // probable symbol in the low SYMBOL_BITS (SYMBOL_MASK: none yet) and above them the
    // observations of the binary decision (capped at LIMIT), or UNUSED for a position this report
    // has not used yet; [MISS] q. A position that has settled (LIMIT observations) and sees its
    // MPS again is recognised by one compare of STATE with symbol | SATURATED, so the common event
    // reads one int pair; a segment's LEVELS positions span 64 bytes. The other outcomes of a
    // position sit in its own cold row, allocated when first used: [COUNT] candidates, [ESCAPE]
    // escape count, [TOTAL] escape + counts, CANDIDATES counts, CANDIDATES symbols. The MPS is
    // never a candidate. Slots at or beyond the count are stale. A hit moves its candidate one
    // slot forward when it outgrows the one before, so the frequent outcomes sit first.
    private static final int STATE = 0;
    private static final int MISS = 1;
    private static final int HOT = 2;
    private static final int HOT_SHIFT = 1;
    private static final int SYMBOL_BITS = 24;
    private static final int SYMBOL_MASK = (1 << SYMBOL_BITS) - 1;
    private static final int ONE_SEEN = 1 << SYMBOL_BITS;
    private static final int SATURATED = LIMIT << SYMBOL_BITS;
    private static final int UNUSED = -1;
    // A table's header, before its positions: the method (methodCount for the outermost frame),
    // its first call symbol (FIRST_EDGE + its edge count) and where its block entries start.
    private static final int METHOD_AT = 0;
    private static final int CALL_BASE_AT = 1;
    private static final int BLOCK_BASE_AT = 2;
    private static final int FIRST_POSITION = 4;
    private static final int COUNT = 0;
    private static final int ESCAPE = 1;
    private static final int TOTAL = 2;
    private static final int FREQ = 3;
    private static final int SYM = FREQ + CANDIDATES;
    private static final int STRIDE = SYM + CANDIDATES;

    private final BranchLayout layout;
    private final EdgeModel model;
    private final AdaptiveEdgeModel edges;
    private final MethodModel methods;
    private final int[][] hot;
    private final int[][][] cold;
    private int[] touched = new int[32];
    private int touchedCount;
    // Seeding's scratch: one slot more than the candidates, as the MPS leaves the table.
    private final int[] seedSymbols = new int[CANDIDATES + 1];
    private final int[] seedFreqs = new int[CANDIDATES + 1];
    CodeLengths meter;

    CallSiteModel(EdgeModel model) {
        this.model = model;
        this.layout = model.layout;
        this.edges = new AdaptiveEdgeModel(model);
        this.methods = new MethodModel(layout.methodCount);
        for (int m = 0; m < layout.methodCount; m++) {
            if ((long) FIRST_EDGE + layout.edgeCount(m) + layout.methodCount >= SYMBOL_MASK) {
                throw new IllegalArgumentException(
                        "method "
                                + m
                                + " has more path symbols than format version 3 can code ("
                                + layout.edgeCount(m)
                                + " edges, "
                                + layout.methodCount
                                + " methods)");
            }
        }
        this.hot = new int[layout.methodCount + 1][];
        this.cold = new int[layout.methodCount + 1][][];
    }

    void reset() {
        for (int j = 0; j < touchedCount; j += 2) {
            hot[touched[j]][at(touched[j + 1])] = UNUSED;
        }
        touchedCount = 0;
        edges.reset();
        methods.reset();
    }

    /** Position of a frame of a method (not the outermost) after {@code segment} and k calls. */
    static int position(int segment, int calls) {
        return segment * LEVELS + (calls < LEVELS ? calls : LEVELS - 1);
    }

    /**
     * The position table of method m (m = methodCount: the outermost frame), valid for good: pass
     * it to {@link #encode} and {@link #decode} for frames of m, and to {@link #edge} for its
     * branches. It names its method ({@link #method}) and first call symbol ({@link #callBase}), so
     * that a frame is its table and its position. After the positions it holds, per block of m, the
     * first and end local edge of its out-edges (0, 0 for a block that is no branch node), so that
     * a branch probe finds its edge in the table it codes with.
     */
    int[] rowsOf(int m) {
        int[] t = hot[m];
        return t != null ? t : newTable(m);
    }

    private int[] newTable(int m) {
        boolean root = m == layout.methodCount;
        int edgeCount = root ? 0 : layout.edgeCount(m);
        int positions = root ? layout.methodCount + 1 : (edgeCount + 1) * LEVELS;
        int[] ordinals = root ? new int[0] : layout.ordinalByBlock[m];
        int base = at(positions);
        int[] t = new int[base + 2 * ordinals.length];
        t[METHOD_AT] = m;
        t[CALL_BASE_AT] = FIRST_EDGE + edgeCount;
        t[BLOCK_BASE_AT] = base;
        for (int pos = 0; pos < positions; pos++) {
            t[at(pos)] = UNUSED;
        }
        for (int b = 0; b < ordinals.length; b++) {
            int ord = ordinals[b];
            if (ord >= 0) {
                t[base + 2 * b] = layout.edgeStart[m][ord];
                t[base + 2 * b + 1] = layout.edgeStart[m][ord + 1];
            }
        }
        hot[m] = t;
        cold[m] = new int[positions][];
        return t;
    }

    /** Where position {@code pos}'s hot fields start in its method's table. */
    private static int at(int pos) {
        return FIRST_POSITION + (pos << HOT_SHIFT);
    }

    /** The method of a table ({@link #rowsOf}): methodCount for the outermost frame's. */
    static int method(int[] t) {
        return t[METHOD_AT];
    }

    /** The first call symbol of a table's method: a call of method c is callBase + c. */
    static int callBase(int[] t) {
        return t[CALL_BASE_AT];
    }

    /** The number of local edges of a table's method (0 for the outermost frame's). */
    static int edgeCount(int[] t) {
        return t[CALL_BASE_AT] - FIRST_EDGE;
    }

    /**
     * The local edge of out-edge {@code edgeIndex} of block {@code blockId}, or -1 if the block is
     * no branch node of the method or has no such out-edge.
     *
     * @param t the method's table ({@link #rowsOf})
     */
    static int edge(int[] t, int blockId, int edgeIndex) {
        int at = t[BLOCK_BASE_AT] + 2 * blockId;
        if (blockId < 0 || at >= t.length) {
            return -1;
        }
        int g = t[at] + edgeIndex;
        return edgeIndex < 0 || g >= t[at + 1] ? -1 : g;
    }

    /** Restarts position {@code pos} of method m (from the hints) for this report. */
    private int[] touch(int[] t, int m, int pos) {
        int[] r = cold[m][pos];
        if (r == null) {
            r = new int[STRIDE];
            cold[m][pos] = r;
        }
        if (touchedCount + 2 > touched.length) {
            touched = Arrays.copyOf(touched, touched.length * 2);
        }
        touched[touchedCount++] = m;
        touched[touchedCount++] = pos;
        int i = at(pos);
        t[i + STATE] = state(NONE, 0);
        t[i + MISS] = 0;
        r[COUNT] = 0;
        r[ESCAPE] = 1;
        r[TOTAL] = 1;
        if (m < layout.methodCount) {
            seed(t, i, r, m, pos);
        }
        return r;
    }

    /**
     * Seeds a position from the model's successor hint of (segment, min(calls, 3)): a hinted branch
     * node becomes its out-edges, weighted by the model's edge frequencies. The most frequent
     * becomes the MPS, its miss probability the others' share, trusted as total / {@link #INC}
     * observations (as many as the counts would stand for).
     */
    private void seed(int[] t, int i0, int[] r, int m, int pos) {
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
        int[] sym = seedSymbols;
        int[] freq = seedFreqs;
        for (int j = 0; j < hs.length && n <= CANDIDATES; j++) {
            int s = hs[j];
            if (s < SuccessorModel.FIRST_BRANCH) {
                sym[n] = s;
                freq[n++] = hf[j];
                total += hf[j];
            } else if (s < SuccessorModel.FIRST_BRANCH + branches) {
                int ord = s - SuccessorModel.FIRST_BRANCH;
                int from = layout.edgeStart[m][ord];
                int to = layout.edgeStart[m][ord + 1];
                long nodeTotal = 0;
                for (int e = from; e < to; e++) {
                    nodeTotal += model.freqs[m][e];
                }
                for (int e = from; e < to && n <= CANDIDATES; e++) {
                    int f = (int) Math.max(1, (long) hf[j] * model.freqs[m][e] / nodeTotal);
                    sym[n] = FIRST_EDGE + e;
                    freq[n++] = f;
                    total += f;
                }
            } else {
                int callee = s - SuccessorModel.FIRST_BRANCH - branches;
                sym[n] = FIRST_EDGE + edgeCount + callee;
                freq[n++] = hf[j];
                total += hf[j];
            }
        }
        if (n == 0) {
            return;
        }
        int top = 0;
        for (int j = 1; j < n; j++) {
            if (freq[j] > freq[top]) {
                top = j;
            }
        }
        long q = (long) (total - freq[top]) * Q_ONE / total;
        t[i0 + STATE] = state(sym[top], Math.min(LIMIT, total / INC));
        t[i0 + MISS] = (int) Math.max(Q_SEED_MIN, Math.min(Q_HALF, q));
        int k = 0;
        for (int j = 0; j < n; j++) {
            if (j != top && k < CANDIDATES) {
                r[SYM + k] = sym[j];
                r[FREQ + k++] = freq[j];
            }
        }
        r[COUNT] = k;
        r[TOTAL] = total - freq[top];
        while (r[TOTAL] > BOUND) {
            halve(r, k);
        }
    }

    /** A position's STATE word: its MPS (or NONE) and its observations n <= LIMIT. */
    private static int state(int mps, int seen) {
        return (seen << SYMBOL_BITS) | (mps & SYMBOL_MASK);
    }

    /** The MPS of a STATE word, or NONE. */
    private static int mps(int state) {
        int s = state & SYMBOL_MASK;
        return s == SYMBOL_MASK ? NONE : s;
    }

    /**
     * Codes {@code symbol} at position {@code pos} of a frame whose method's table is {@code t}
     * ({@link #rowsOf}, which names the method). The common case, a settled position's MPS, is one
     * compare, one multiplication and a shift: small enough to inline.
     */
    void encode(RangeEncoder enc, int[] t, int pos, int symbol) {
        int i = at(pos);
        if (t[i + STATE] == (symbol | SATURATED) && meter == null) {
            int q = t[i + MISS];
            if (enc.tryEncodeLikely(q)) {
                t[i + MISS] = q - (q >>> SHIFT);
                return;
            }
            // The coder must shift out a byte (about once per byte of output): the rare path.
        }
        encodeOther(enc, t, t[METHOD_AT], pos, symbol);
    }

    /** Adapts after the MPS was coded: its miss probability falls. */
    private static void likely(int[] t, int i) {
        int q = t[i + MISS];
        int w = t[i + STATE];
        int n = w >>> SYMBOL_BITS;
        if (n >= LIMIT) {
            t[i + MISS] = q - (q >>> SHIFT);
        } else {
            t[i + MISS] = q - (int) (((long) q * RATE[n]) >>> 16);
            t[i + STATE] = w + ONE_SEEN;
        }
    }

    /**
     * Adapts after a miss (once the other outcome is coded and counted in cold row r): the miss
     * probability rises, and past 1/2 the first candidate becomes the MPS.
     */
    private static void missed(int[] t, int i, int[] r) {
        int q = t[i + MISS];
        int w = t[i + STATE];
        int n = w >>> SYMBOL_BITS;
        if (n >= LIMIT) {
            q += (Q_ONE - q) >>> SHIFT;
        } else {
            q += (int) (((long) (Q_ONE - q) * RATE[n]) >>> 16);
            n++;
        }
        int mps = mps(w);
        if (q > Q_HALF) {
            int s = r[SYM];
            r[SYM] = mps;
            mps = s;
            q = Q_ONE - q;
        }
        t[i + STATE] = state(mps, n);
        t[i + MISS] = q;
    }

    /** The first outcome of a position becomes its MPS. */
    private static void promote(int[] t, int i, int symbol) {
        t[i + STATE] = state(symbol, SEEN_NEW);
        t[i + MISS] = Q_NEW;
    }

    /** Position {@code pos}'s cold row, restarting the position if this report has not used it. */
    private int[] coldRow(int[] t, int m, int pos) {
        return t[at(pos)] == UNUSED ? touch(t, m, pos) : cold[m][pos];
    }

    // The rare path (a miss or a position's first use in the report), apart so that encode()
    // stays small; with a meter every event. Kept in one method larger than the JIT's inlining
    // limit (325 bytecodes): when it was two smaller ones, C2 inlined them into encode(), whose
    // compiled size then kept encode() itself from being inlined into the probe methods.
    private void encodeOther(RangeEncoder enc, int[] t, int m, int pos, int symbol) {
        int[] r = coldRow(t, m, pos);
        int i = at(pos);
        int mps = mps(t[i + STATE]);
        if (mps == symbol) {
            if (meter != null) {
                meterLikely(t, i, r, m, symbol);
            }
            enc.encodeLikely(t[i + MISS]);
            likely(t, i);
            return;
        }
        int n = r[COUNT];
        int total = r[TOTAL];
        int cum = 0;
        int j = 0;
        while (j < n && r[SYM + j] != symbol) {
            cum += r[FREQ + j];
            j++;
        }
        if (meter != null) {
            meterMiss(t, i, r, m, symbol, j < n);
        }
        if (mps != NONE) {
            enc.encodeUnlikely(t[i + MISS]);
        }
        if (j < n) {
            enc.encode(cum, r[FREQ + j], total);
            hit(r, n, j, total);
        } else {
            // An outcome new to its position: the escape, then the outcome from the report's
            // models.
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
            if (mps == NONE) {
                promote(t, i, symbol);
                return;
            }
            insert(r, symbol);
        }
        missed(t, i, r);
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

    /**
     * Meters the MPS: an edge's code length is split, "no more calls at this position" (the
     * probability of any edge here) to the call structure, the outcome among the edges to branches.
     */
    private void meterLikely(int[] t, int i, int[] r, int m, int symbol) {
        double p = 1 - (double) t[i + MISS] / Q_ONE;
        int edgeEnd = edgeEnd(m);
        if (symbol >= FIRST_EDGE && symbol < edgeEnd) {
            meter.category = CodeLengths.BRANCH;
            meter.addProbability(p);
            meter.moveToCalls(edgeProbability(t, i, r, edgeEnd));
        } else {
            meter.category = CodeLengths.CALL;
            meter.addProbability(p);
        }
    }

    /**
     * Meters the miss decision and sets the category for the candidate's code length (the range
     * coder adds it); an edge among the candidates is split as in {@link #meterLikely}.
     */
    private void meterMiss(int[] t, int i, int[] r, int m, int symbol, boolean candidate) {
        int edgeEnd = edgeEnd(m);
        boolean edge = candidate && symbol >= FIRST_EDGE && symbol < edgeEnd;
        meter.category = edge ? CodeLengths.BRANCH : CodeLengths.CALL;
        if (mps(t[i + STATE]) != NONE) {
            meter.addProbability((double) t[i + MISS] / Q_ONE);
        }
        if (edge) {
            meter.moveToCalls(edgeProbability(t, i, r, edgeEnd));
        }
    }

    private int edgeEnd(int m) {
        return FIRST_EDGE + (m == layout.methodCount ? 0 : layout.edgeCount(m));
    }

    /** Probability the position gives to "an edge comes next" (no further call or exit). */
    private static double edgeProbability(int[] t, int i, int[] r, int edgeEnd) {
        int mps = mps(t[i + STATE]);
        double miss = mps == NONE ? 1 : (double) t[i + MISS] / Q_ONE;
        double p = mps >= FIRST_EDGE && mps < edgeEnd ? 1 - miss : 0;
        int edgeSum = 0;
        for (int j = 0; j < r[COUNT]; j++) {
            int s = r[SYM + j];
            if (s >= FIRST_EDGE && s < edgeEnd) {
                edgeSum += r[FREQ + j];
            }
        }
        return p + miss * edgeSum / r[TOTAL];
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
     * Decodes the symbol at position {@code pos} of method {@code m}'s frame (table {@code t}).
     *
     * @return the symbol, or -1 if the data names an event that cannot occur (corrupt report)
     */
    int decode(RangeDecoder dec, int[] t, int m, int pos) {
        int[] r = coldRow(t, m, pos);
        int i = at(pos);
        int mps = mps(t[i + STATE]);
        if (mps != NONE && dec.decodeLikely(t[i + MISS])) {
            likely(t, i);
            return mps;
        }
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
                missed(t, i, r);
                return symbol;
            }
            cum += f;
        }
        dec.consume(cum, r[ESCAPE], total);
        escaped(r, total);
        int symbol = decodeEscaped(dec, m);
        if (symbol < 0 || symbol == mps) {
            return -1; // an escape never names the MPS: corrupt
        }
        for (int j = 0; j < n; j++) {
            if (r[SYM + j] == symbol) {
                return -1; // nor a candidate
            }
        }
        if (mps == NONE) {
            promote(t, i, symbol);
        } else {
            insert(r, symbol);
            missed(t, i, r);
        }
        return symbol;
    }

    /** The outcome after an escape, or -1 if the data names none (corrupt). */
    private int decodeEscaped(RangeDecoder dec, int m) {
        if (m == layout.methodCount) {
            int callee = methods.decode(dec);
            return callee < 0 ? -1 : FIRST_EDGE + callee;
        }
        int edgeCount = layout.edgeCount(m);
        int kind = dec.target(KINDS);
        dec.consume(kind, 1, KINDS);
        if (kind < KIND_EDGE) {
            return kind;
        }
        if (kind == KIND_EDGE) {
            int branches = layout.branchCount(m);
            if (branches == 0) {
                return -1;
            }
            int ord = dec.decodeUniform(branches);
            if (ord < 0 || ord >= branches) {
                return -1;
            }
            int edge = edges.decode(dec, m, ord);
            return FIRST_EDGE + layout.edgeStart[m][ord] + edge;
        }
        int callee = methods.decode(dec);
        return callee < 0 ? -1 : FIRST_EDGE + edgeCount + callee;
    }

    /**
     * Folds the positions used in this report, in first-use order (the same on both sides), and the
     * method model into {@code h}: a report's end check.
     */
    int digest(int h) {
        for (int i = 0; i < touchedCount; i += 2) {
            int m = touched[i];
            int pos = touched[i + 1];
            int[] t = hot[m];
            int[] r = cold[m][pos];
            int k = at(pos);
            h = PathFormat.mix(h, m);
            h = PathFormat.mix(h, pos);
            h = PathFormat.mix(h, mps(t[k + STATE]));
            h = PathFormat.mix(h, t[k + MISS]);
            h = PathFormat.mix(h, t[k + STATE] >>> SYMBOL_BITS);
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
