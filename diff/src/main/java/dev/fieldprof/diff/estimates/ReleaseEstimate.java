package dev.fieldprof.diff.estimates;

import dev.fieldprof.schemas.EstimateWindow;
import dev.fieldprof.schemas.MethodInfo;
import dev.fieldprof.schemas.ProgramModel;
import dev.fieldprof.schemas.RankedMethod;
import dev.fieldprof.schemas.StandardErrors;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * The estimates of one app version that the release diff compares: per method id its signature, the
 * unbiased share ĝ(v), the consistent share g*(v) and the standard error of ĝ(v). Immutable (the
 * arrays are copied).
 *
 * @param appVersion {@code app:version}
 * @param configId the privacy configuration of the reports
 * @param reports n, the number of reports aggregated
 * @param signatures method signature per id; every id has one, and they are distinct
 * @param normalized ĝ per id
 * @param consistent g* per id
 * @param standardErrors the standard error of each ĝ(v), finite and >= 0 (in user-level mode it
 *     grows with the share; see docs/architecture.md, "The estimator")
 */
public record ReleaseEstimate(
        String appVersion,
        String configId,
        long reports,
        List<String> signatures,
        double[] normalized,
        double[] consistent,
        double[] standardErrors) {

    public ReleaseEstimate {
        Objects.requireNonNull(appVersion, "appVersion");
        Objects.requireNonNull(configId, "configId");
        signatures = List.copyOf(signatures);
        normalized = normalized.clone();
        consistent = consistent.clone();
        standardErrors = standardErrors.clone();
        if (normalized.length != signatures.size()
                || consistent.length != signatures.size()
                || standardErrors.length != signatures.size()) {
            throw new IllegalArgumentException(
                    "need one signature, ĝ, g* and standard error per method: "
                            + signatures.size()
                            + " signatures, "
                            + normalized.length
                            + " ĝ, "
                            + consistent.length
                            + " g*, "
                            + standardErrors.length
                            + " standard errors");
        }
        if (new java.util.HashSet<>(signatures).size() != signatures.size()) {
            throw new IllegalArgumentException("signatures must be distinct");
        }
        for (double standardError : standardErrors) {
            if (!(standardError >= 0) || Double.isInfinite(standardError)) {
                throw new IllegalArgumentException(
                        "standard errors must be finite and >= 0, was " + standardError);
            }
        }
    }

    /** An estimate whose every ĝ(v) has the same standard error (ε-t mode). */
    public ReleaseEstimate(
            String appVersion,
            String configId,
            long reports,
            List<String> signatures,
            double[] normalized,
            double[] consistent,
            double standardError) {
        this(
                appVersion,
                configId,
                reports,
                signatures,
                normalized,
                consistent,
                filled(signatures.size(), standardError));
    }

    private static double[] filled(int size, double value) {
        double[] values = new double[size];
        Arrays.fill(values, value);
        return values;
    }

    /**
     * The estimate of a window with method signatures from the program model of the same app
     * version; without a model, from the window's top methods, and {@code #id} for the others (then
     * only methods of equal id are compared, which is right only when V did not change). Each ĝ(v)
     * gets the window's own standard error ({@link StandardErrors#of}: the common one for records
     * written before per-method errors).
     *
     * @param model the app version's program model, or {@code null}
     * @throws IllegalArgumentException when the model's |V| differs from the window's
     */
    public static ReleaseEstimate of(EstimateWindow window, ProgramModel model) {
        int size = window.getNormalized().size();
        if (window.getConsistent().size() != size) {
            throw new IllegalArgumentException(
                    window.getAppVersion() + ": ĝ and g* have different lengths");
        }
        String[] names = new String[size];
        if (model != null) {
            if (model.getMethods().size() != size) {
                throw new IllegalArgumentException(
                        "the program model of "
                                + model.getAppVersion()
                                + " has "
                                + model.getMethods().size()
                                + " methods, the estimate of "
                                + window.getAppVersion()
                                + " has "
                                + size
                                + ": not the same release");
            }
            for (MethodInfo method : model.getMethods()) {
                names[method.getId()] = method.getSignature();
            }
        } else {
            for (RankedMethod ranked : window.getTop()) {
                if (ranked.getMethodId() >= 0 && ranked.getMethodId() < size) {
                    names[ranked.getMethodId()] = ranked.getSignature();
                }
            }
        }
        List<String> signatures = new ArrayList<>(size);
        double[] standardErrors = new double[size];
        for (int v = 0; v < size; v++) {
            signatures.add(names[v] == null ? "#" + v : names[v]);
            standardErrors[v] = StandardErrors.of(window, v);
        }
        return new ReleaseEstimate(
                window.getAppVersion(),
                window.getConfigId(),
                window.getReports(),
                signatures,
                window.getNormalized().stream().mapToDouble(Double::doubleValue).toArray(),
                window.getConsistent().stream().mapToDouble(Double::doubleValue).toArray(),
                standardErrors);
    }

    /** |V|. */
    public int size() {
        return signatures.size();
    }

    /** ĝ(v). */
    public double normalized(int v) {
        return normalized[v];
    }

    /** g*(v). */
    public double consistent(int v) {
        return consistent[v];
    }

    /** The standard error of ĝ(v). */
    public double standardError(int v) {
        return standardErrors[v];
    }

    /** The largest standard error of any ĝ(v), 0 for no method. */
    public double largestStandardError() {
        double largest = 0;
        for (double se : standardErrors) {
            largest = Math.max(largest, se);
        }
        return largest;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ReleaseEstimate r
                && appVersion.equals(r.appVersion)
                && configId.equals(r.configId)
                && reports == r.reports
                && signatures.equals(r.signatures)
                && Arrays.equals(normalized, r.normalized)
                && Arrays.equals(consistent, r.consistent)
                && Arrays.equals(standardErrors, r.standardErrors);
    }

    @Override
    public int hashCode() {
        return Objects.hash(appVersion, configId, reports, signatures)
                ^ Arrays.hashCode(normalized)
                ^ Arrays.hashCode(standardErrors);
    }

    @Override
    public String toString() {
        return appVersion + " (" + configId + ", n = " + reports + ", |V| = " + size() + ")";
    }
}
