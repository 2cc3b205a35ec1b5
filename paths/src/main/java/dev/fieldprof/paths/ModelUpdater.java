package dev.fieldprof.paths;

/**
 * Produces edge model version M+1 from version M and the edge counts decoded in a window (the
 * server side of AdapTracer, docs/references.md). A branch node seen in the window starts where a
 * device's adaptive counts would be after seeing the window's decisions: (count + 1/2) x inc per
 * edge (the add-half smoothing of the Krichevsky-Trofimov estimator, so no edge gets probability
 * 0), scaled down to {@code targetTotal} when larger. So a node seen twice keeps a small total that
 * a report quickly overrides, and a node seen a million times a confident one. Nodes not seen keep
 * model M's frequencies. Successor hints are derived the same way, per frame context, from the up
 * to four most frequent next events (at most {@code targetTotal} in all; hints of contexts not seen
 * are kept). Integer arithmetic only, so the server's result is reproducible. Immutable and
 * thread-safe.
 *
 * <pre>{@code
 * EdgeModel next = new ModelUpdater(ModelUpdater.DEFAULT_TARGET_TOTAL).next(current, counter);
 * }</pre>
 */
public final class ModelUpdater {
    /**
     * Default largest frequency total of an updated node: caps the cost of a rare edge near 10
     * bits, and with inc = 4 a report outweighs a confident node's model after about 256 visits.
     */
    public static final int DEFAULT_TARGET_TOTAL = 1024;

    private final int targetTotal;

    /**
     * @param targetTotal frequency total of an updated node, 2 <= targetTotal <= 65536; capped by
     *     each model's bound and raised to a node's out-degree where needed
     */
    public ModelUpdater(int targetTotal) {
        if (targetTotal < 2 || targetTotal > RangeEncoder.MAX_TOTAL) {
            throw new IllegalArgumentException(
                    "targetTotal must be in [2, "
                            + RangeEncoder.MAX_TOTAL
                            + "], got "
                            + targetTotal);
        }
        this.targetTotal = targetTotal;
    }

    /**
     * The next model: version + 1, same inc and bound and branch nodes.
     *
     * @throws IllegalArgumentException if the counts are for other branch nodes
     */
    public EdgeModel next(EdgeModel current, EdgeCounter counts) {
        BranchLayout layout = current.layout;
        if (!layout.sameAs(counts.layout())) {
            throw new IllegalArgumentException("counts are for other branch nodes than the model");
        }
        EdgeModel.Builder b = EdgeModel.builder(current).version(current.version() + 1);
        for (int m = 0; m < layout.methodCount; m++) {
            long[] c = counts.rawCounts(m);
            int[] s = layout.edgeStart[m];
            for (int ord = 0; ord + 1 < s.length; ord++) {
                int degree = s[ord + 1] - s[ord];
                long[] row = new long[degree];
                long max = 0;
                for (int e = 0; e < degree; e++) {
                    row[e] = c[s[ord] + e];
                    max = Math.max(max, row[e]);
                }
                if (max == 0) {
                    continue;
                }
                // Keep count * total below 2^63: shift huge counts down first.
                int shift = Math.max(0, 64 - Long.numberOfLeadingZeros(max) - 40);
                long sum = 0;
                for (int e = 0; e < degree; e++) {
                    row[e] >>>= shift;
                    sum += row[e];
                }
                int cap = Math.max(degree, Math.min(targetTotal, current.bound()));
                int inc = current.inc();
                int[] f = new int[degree];
                long total = 0;
                for (int e = 0; e < degree; e++) {
                    f[e] = (int) Math.max(1, Math.min(cap, (2 * row[e] + 1) * inc / 2));
                    total += f[e];
                }
                if (total > cap) {
                    long spare = cap - degree;
                    long halves = 2 * sum + degree;
                    for (int e = 0; e < degree; e++) {
                        f[e] = 1 + (int) ((2 * row[e] + 1) * spare / halves);
                    }
                }
                b.frequencies(m, layout.blocks[m][ord], f);
            }
        }
        for (var entry : counts.successorCounts().entrySet()) {
            int m = (int) (entry.getKey() >>> 32);
            int context = (int) (long) entry.getKey();
            // Most frequent first, ties by symbol, so the result does not depend on hash order.
            long[][] ranked =
                    entry.getValue().entrySet().stream()
                            .map(e -> new long[] {e.getKey(), e.getValue()[0]})
                            .sorted(
                                    (x, y) ->
                                            x[1] != y[1]
                                                    ? Long.compare(y[1], x[1])
                                                    : Long.compare(x[0], y[0]))
                            .limit(SuccessorModel.CANDIDATES)
                            .toArray(long[][]::new);
            int k = ranked.length;
            long max = ranked[0][1];
            int shift = Math.max(0, 64 - Long.numberOfLeadingZeros(max) - 40);
            long sum = 0;
            int[] symbols = new int[k];
            long[] row = new long[k];
            for (int i = 0; i < k; i++) {
                symbols[i] = (int) ranked[i][0];
                row[i] = ranked[i][1] >>> shift;
                sum += row[i];
            }
            int cap = Math.max(k, Math.min(targetTotal, SuccessorModel.BOUND - 1));
            int[] f = new int[k];
            long total = 0;
            for (int i = 0; i < k; i++) {
                f[i] = (int) Math.max(1, Math.min(cap, (2 * row[i] + 1) * SuccessorModel.INC / 2));
                total += f[i];
            }
            if (total > cap) {
                for (int i = 0; i < k; i++) {
                    f[i] = 1 + (int) ((2 * row[i] + 1) * (cap - k) / (2 * sum + k));
                }
            }
            b.successors(m, context, symbols, f);
        }
        return b.build();
    }
}
