package dev.fieldprof.paths;

/**
 * The mutable copy of an {@link EdgeModel} that one coder adapts during one report, with The
 * adaptive update rule of AdapTracer (docs/references.md): after coding an edge, add {@code inc} to
 * its count; when the node's total exceeds {@code bound}, halve every count of the node, rounding
 * up so that none reaches 0. Encoder and decoder call the same code, so they stay in step. Methods
 * are copied from the model lazily, on first use after {@link #reset()}. Not thread-safe.
 *
 * <pre>{@code
 * AdaptiveEdgeModel counts = new AdaptiveEdgeModel(model);
 * counts.update(methodId, blockId, edge); // what a coder does after coding that edge
 * int f = counts.frequency(methodId, blockId, edge);
 * }</pre>
 */
public final class AdaptiveEdgeModel {
    private final EdgeModel model;
    private final BranchLayout layout;
    private final int inc;
    private final int bound;
    private final int[][] freq;
    private final int[][] total;
    private final int[] stamp;
    private int epoch = 1;

    /** A copy of {@code model}'s frequencies, ready to adapt; one per coder (not thread-safe). */
    public AdaptiveEdgeModel(EdgeModel model) {
        this.model = model;
        this.layout = model.layout;
        this.inc = model.inc();
        this.bound = model.bound();
        int n = layout.methodCount + 1;
        this.freq = new int[n][];
        this.total = new int[n][];
        this.stamp = new int[n];
    }

    public EdgeModel model() {
        return model;
    }

    /** Forgets all adaptation: every method returns to the model's frequencies. */
    public void reset() {
        epoch++;
    }

    private void touch(int m) {
        if (stamp[m] != epoch) {
            restart(m);
        }
    }

    private void restart(int m) {
        int[] src = model.freqs[m];
        if (freq[m] == null) {
            freq[m] = new int[src.length];
            total[m] = new int[layout.branchCount(m)];
        }
        System.arraycopy(src, 0, freq[m], 0, src.length);
        int[] s = layout.edgeStart[m];
        int[] t = total[m];
        for (int ord = 0; ord < t.length; ord++) {
            int sum = 0;
            for (int e = s[ord]; e < s[ord + 1]; e++) {
                sum += src[e];
            }
            t[ord] = sum;
        }
        stamp[m] = epoch;
    }

    /** Current frequency of an out-edge. */
    public int frequency(int methodId, int blockId, int edge) {
        int ord = checkedOrdinal(methodId, blockId, edge);
        touch(methodId);
        return freq[methodId][layout.edgeStart[methodId][ord] + edge];
    }

    /** Applies the update rule for a taken edge, as a coder does after coding it. */
    public void update(int methodId, int blockId, int edge) {
        int ord = checkedOrdinal(methodId, blockId, edge);
        touch(methodId);
        update(methodId, ord, layout.edgeStart[methodId][ord], edge);
    }

    private int checkedOrdinal(int methodId, int blockId, int edge) {
        int degree = layout.outDegree(methodId, blockId);
        if (edge < 0 || edge >= degree) {
            throw new IllegalArgumentException("edge must be in [0, " + degree + "), got " + edge);
        }
        return layout.ordinal(methodId, blockId);
    }

    /**
     * Method {@code m}'s current frequencies, restarted from the model if this report has not used
     * them yet; valid until the next {@link #reset()}. Index {@code ord} of {@link #totals} holds
     * the sum of branch ordinal ord's out-edges.
     */
    int[] frequencies(int m) {
        touch(m);
        return freq[m];
    }

    /** The node totals that go with {@link #frequencies} (call that first in the report). */
    int[] totals(int m) {
        return total[m];
    }

    /**
     * Encodes edge {@code edge} of branch ordinal {@code ord} and adapts, with {@code f}, {@code t}
     * and {@code starts} from {@link #frequencies}, {@link #totals} and the layout for the method.
     */
    void encode(RangeEncoder enc, int[] f, int[] t, int[] starts, int ord, int edge) {
        int from = starts[ord];
        int cum = 0;
        for (int e = from, to = from + edge; e < to; e++) {
            cum += f[e];
        }
        enc.encode(cum, f[from + edge], t[ord]);
        f[from + edge] += inc;
        int sum = t[ord] + inc;
        t[ord] = sum > bound ? shrink(f, from, starts[ord + 1]) : sum;
    }

    /** Encodes edge {@code edge} of branch ordinal {@code ord} and adapts. */
    void encode(RangeEncoder enc, int m, int ord, int edge) {
        touch(m);
        int from = layout.edgeStart[m][ord];
        int[] f = freq[m];
        int cum = 0;
        for (int e = from, to = from + edge; e < to; e++) {
            cum += f[e];
        }
        enc.encode(cum, f[from + edge], total[m][ord]);
        update(m, ord, from, edge);
    }

    /** Decodes the edge taken at branch ordinal {@code ord} and adapts. */
    int decode(RangeDecoder dec, int m, int ord) {
        touch(m);
        int from = layout.edgeStart[m][ord];
        int to = layout.edgeStart[m][ord + 1];
        int[] f = freq[m];
        int t = total[m][ord];
        int target = dec.target(t);
        int cum = 0;
        int e = from;
        while (e < to - 1 && cum + f[e] <= target) {
            cum += f[e];
            e++;
        }
        dec.consume(cum, f[e], t);
        update(m, ord, from, e - from);
        return e - from;
    }

    private void update(int m, int ord, int from, int edge) {
        int[] f = freq[m];
        f[from + edge] += inc;
        int t = total[m][ord] + inc;
        total[m][ord] = t > bound ? shrink(f, from, layout.edgeStart[m][ord + 1]) : t;
    }

    /**
     * AdapTracer's counter shrinking (ShrinkCounter there): halves the node's counts; (c + 1) / 2
     * keeps each >= 1.
     */
    private static int shrink(int[] f, int from, int to) {
        int t = 0;
        for (int e = from; e < to; e++) {
            f[e] = (f[e] + 1) >>> 1;
            t += f[e];
        }
        return t;
    }

    @Override
    public String toString() {
        return "AdaptiveEdgeModel{version=" + model.version() + ", epoch=" + epoch + "}";
    }
}
