package dev.fieldprof.monitor;

import dev.fieldprof.diff.estimates.EstimateDiff;
import dev.fieldprof.diff.estimates.EstimateDiffer;
import dev.fieldprof.diff.estimates.MethodAlignment;
import dev.fieldprof.diff.estimates.ReleaseEstimate;
import dev.fieldprof.schemas.EstimateWindow;
import dev.fieldprof.schemas.RankedMethod;
import dev.fieldprof.schemas.StandardErrors;
import java.util.ArrayList;
import java.util.List;

/**
 * Two app versions' cumulative estimates side by side, as the page's comparison table shows them:
 * the release diff of {@code fieldprof diff estimates} (methods paired by signature, the difference
 * of ĝ with its 95% interval, each method with its own standard error, Benjamini–Yekutieli at the
 * given false discovery rate).
 */
public final class ReleaseComparison {
    /** One row of the table: a method in both versions. */
    public record Row(
            String signature,
            double first,
            double second,
            double difference,
            double lower95,
            double upper95,
            boolean significant) {}

    /** The table: the versions compared, their n, and the rows, significant changes first. */
    public record Table(
            String first, String second, long firstReports, long secondReports, List<Row> rows) {}

    private ReleaseComparison() {}

    /**
     * @param firstSignatures the program model's signatures of the first version, or null (then the
     *     window's top methods name theirs and the others are {@code #id})
     * @param rows at most this many rows
     */
    public static Table of(
            EstimateWindow first,
            List<String> firstSignatures,
            EstimateWindow second,
            List<String> secondSignatures,
            double fdr,
            int rows) {
        ReleaseEstimate a = estimate(first, firstSignatures);
        ReleaseEstimate b = estimate(second, secondSignatures);
        MethodAlignment.Result alignment =
                MethodAlignment.align(a.signatures(), b.signatures(), null, 0);
        EstimateDiff diff = new EstimateDiffer(fdr).diff(a, b, alignment);
        List<Row> out = new ArrayList<>();
        for (EstimateDiff.MethodChange change : diff.changes()) {
            if (out.size() >= rows) {
                break;
            }
            out.add(
                    new Row(
                            change.signatureSecond(),
                            change.normalizedFirst(),
                            change.normalizedSecond(),
                            change.difference(),
                            change.lower95(),
                            change.upper95(),
                            change.significant()));
        }
        return new Table(label(first), label(second), first.getReports(), second.getReports(), out);
    }

    private static String label(EstimateWindow e) {
        return e.getAppVersion() + " [" + e.getConfigId() + "]";
    }

    private static ReleaseEstimate estimate(EstimateWindow window, List<String> signatures) {
        int size = window.getNormalized().size();
        List<String> names;
        if (signatures != null && signatures.size() == size) {
            names = signatures;
        } else {
            String[] byId = new String[size];
            for (RankedMethod m : window.getTop()) {
                if (m.getMethodId() < size) {
                    byId[m.getMethodId()] = m.getSignature();
                }
            }
            names = new ArrayList<>(size);
            for (int id = 0; id < size; id++) {
                names.add(byId[id] != null ? byId[id] : "#" + id);
            }
        }
        double[] normalized = new double[size];
        double[] consistent = new double[size];
        double[] standardErrors = new double[size];
        for (int id = 0; id < size; id++) {
            normalized[id] = window.getNormalized().get(id);
            standardErrors[id] = StandardErrors.of(window, id);
            consistent[id] =
                    id < window.getConsistent().size() ? window.getConsistent().get(id) : 0;
        }
        return new ReleaseEstimate(
                window.getAppVersion(),
                window.getConfigId(),
                window.getReports(),
                names,
                normalized,
                consistent,
                standardErrors);
    }
}
