package dev.fieldprof.client.paths;

/**
 * Produces edge model version M+1 from version M and the edge counts decoded in a window
 * (AdapTracer section 6.3): each branch node seen in the window gets frequencies proportional to
 * its counts, scaled to at most {@code targetTotal} and smoothed by one so no edge gets probability
 * 0; nodes not seen keep model M's frequencies. Integer arithmetic only, so the server's result is
 * reproducible. Immutable and thread-safe.
 *
 * <pre>{@code
 * EdgeModel next = new ModelUpdater(ModelUpdater.DEFAULT_TARGET_TOTAL).next(current, counter);
 * }</pre>
 */
public final class ModelUpdater {
    /**
     * Default frequency total of an updated node. It weighs the model against in-report adaptation:
     * with inc = 24 a report overrides a node's model after about 40 visits.
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
                int shift = Math.max(0, 64 - Long.numberOfLeadingZeros(max) - 44);
                long sum = 0;
                for (int e = 0; e < degree; e++) {
                    row[e] >>>= shift;
                    sum += row[e];
                }
                int total = Math.max(degree, Math.min(targetTotal, current.bound()));
                int spare = total - degree;
                int[] f = new int[degree];
                for (int e = 0; e < degree; e++) {
                    f[e] = 1 + (int) (row[e] * spare / sum);
                }
                b.frequencies(m, layout.blocks[m][ord], f);
            }
        }
        return b.build();
    }
}
