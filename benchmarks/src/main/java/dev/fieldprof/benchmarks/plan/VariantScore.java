package dev.fieldprof.benchmarks.plan;

import java.util.BitSet;

/**
 * What a probe distribution would have reported from the recorded field data, by the two measures
 * of Section 5.3 of probe distribution (docs/references.md).
 *
 * <p>Identified: the distinct exercised chains some site reports at a location where Full reports
 * the same chain; equivalently, a chain is identified by a site when it occurred there and its
 * site's variant probes all of its methods (with all its methods probed, the variant reads exactly
 * that chain wherever Full does; the score checks that the two agree).
 *
 * <p>Falsely reported, exactly as Section 5.3 defines it: a chain a site reports is false if (1)
 * Full does not report it at all, or (2) Full reports it but not at the same location of the trace.
 * Since the variant's reading and Full's read the same trace, both cases are "Full does not report
 * this chain at this location". {@code falseChains} counts the distinct chains reported falsely by
 * any site, {@code falseReports} every false report (each location of each site).
 *
 * @param identified distinct chains correctly reported by some site
 * @param falseChains distinct chains falsely reported by some site
 * @param falseReports false reports, counted per site and location
 */
public record VariantScore(int identified, int falseChains, long falseReports) {

    /**
     * The measure of the published Figure 3: falsely reported chains over correctly identified
     * ones.
     */
    public double falseRatio() {
        return identified == 0
                ? (falseChains == 0 ? 0 : Double.POSITIVE_INFINITY)
                : (double) falseChains / identified;
    }

    /**
     * Scores a distribution.
     *
     * @param field the sites' traces
     * @param variantMethods per variant, the method ids it probes
     * @param siteVariant per site, its variant
     */
    public static VariantScore of(FieldChains field, int[][] variantMethods, int[] siteVariant) {
        if (siteVariant.length != field.sites()) {
            throw new IllegalArgumentException(
                    "need a variant per site: " + field.sites() + ", got " + siteVariant.length);
        }
        boolean[][] probed = new boolean[variantMethods.length][field.methodCount()];
        for (int v = 0; v < variantMethods.length; v++) {
            for (int m : variantMethods[v]) {
                probed[v][m] = true;
            }
        }
        BitSet bySet = new BitSet();
        BitSet correct = new BitSet();
        BitSet falseSet = new BitSet();
        long[] falseReports = {0};
        for (int s = 0; s < field.sites(); s++) {
            boolean[] mask = probed[siteVariant[s]];
            for (int chain : field.chains(s)) {
                if (allProbed(field.methods(chain), mask)) {
                    bySet.set(chain);
                }
            }
            int site = s;
            ChainReplay.replay(
                    field.trace(s),
                    mask,
                    field.maxLength(),
                    field.trie(),
                    (location, chain) -> {
                        if (field.fullReportAt(site, location) == chain) {
                            correct.set(chain);
                        } else {
                            falseSet.set(chain);
                            falseReports[0]++;
                        }
                    });
        }
        if (!bySet.equals(correct)) {
            throw new IllegalStateException(
                    "chains with all methods probed ("
                            + bySet.cardinality()
                            + ") differ from those reported where Full reports them ("
                            + correct.cardinality()
                            + ")");
        }
        return new VariantScore(correct.cardinality(), falseSet.cardinality(), falseReports[0]);
    }

    static boolean allProbed(int[] methods, boolean[] probed) {
        for (int m : methods) {
            if (!probed[m]) {
                return false;
            }
        }
        return true;
    }
}
