package dev.fieldprof.diff.estimates;

import java.util.List;

/**
 * The release diff of two app versions' field estimates: per compared method the difference of
 * shares with its confidence interval and significance, and the methods only one version has.
 * Immutable.
 *
 * @param first the estimate of V1
 * @param second the estimate of V2
 * @param fdr the false discovery rate at which {@link MethodChange#significant()} was decided
 * @param changes compared methods: the significant ones by |Δĝ| (largest first), then the others by
 *     p-value
 * @param gone methods of V1 with no partner in V2, by g* in V1
 * @param added methods of V2 with no partner in V1, by g* in V2
 */
public record EstimateDiff(
        ReleaseEstimate first,
        ReleaseEstimate second,
        double fdr,
        List<MethodChange> changes,
        List<MethodShare> gone,
        List<MethodShare> added) {

    public EstimateDiff {
        changes = List.copyOf(changes);
        gone = List.copyOf(gone);
        added = List.copyOf(added);
    }

    /** The number of methods flagged as changed. */
    public long discoveries() {
        return changes.stream().filter(MethodChange::significant).count();
    }

    /**
     * One method compared across the releases.
     *
     * @param first its id in V1
     * @param second its id in V2
     * @param source how the two were paired
     * @param normalizedFirst ĝ in V1
     * @param normalizedSecond ĝ in V2
     * @param consistentFirst g* in V1
     * @param consistentSecond g* in V2
     * @param standardError √(se1(v)² + se2(w)²), the standard error of the difference
     * @param z Δĝ / standardError
     * @param pValue two-sided p-value of "the share did not change"
     * @param qValue the Benjamini–Yekutieli adjusted p-value over all compared methods
     * @param significant whether {@code qValue <= fdr}
     */
    public record MethodChange(
            String signatureFirst,
            String signatureSecond,
            int first,
            int second,
            MethodAlignment.Source source,
            double normalizedFirst,
            double normalizedSecond,
            double consistentFirst,
            double consistentSecond,
            double standardError,
            double z,
            double pValue,
            double qValue,
            boolean significant) {

        /** Δĝ = ĝ(V2) − ĝ(V1). */
        public double difference() {
            return normalizedSecond - normalizedFirst;
        }

        /** The lower end of the 95% confidence interval of Δĝ. */
        public double lower95() {
            return difference() - NormalDistribution.Z_95 * standardError;
        }

        /** The upper end of the 95% confidence interval of Δĝ. */
        public double upper95() {
            return difference() + NormalDistribution.Z_95 * standardError;
        }
    }

    /**
     * A method only one release has.
     *
     * @param standardError the standard error of its ĝ
     */
    public record MethodShare(
            String signature, int id, double normalized, double consistent, double standardError) {}
}
