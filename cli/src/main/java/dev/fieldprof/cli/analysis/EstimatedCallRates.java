package dev.fieldprof.cli.analysis;

import dev.fieldprof.analysis.plan.CallRates;
import dev.fieldprof.schemas.EstimateWindow;
import dev.fieldprof.schemas.ProgramModel;
import dev.fieldprof.schemas.RankedMethod;
import java.util.List;
import java.util.Locale;

/**
 * The call rates {@code fieldprof plan --call-rates} weighs methods by: the frequency job's
 * unbiased estimate ĝ (each method's share of all entries) of the app version the model describes,
 * checked against that model, with shares below a floor raised to it.
 */
final class EstimatedCallRates {

    private EstimatedCallRates() {}

    /**
     * @param floorShare the least share a method is priced at, or null for the estimate's standard
     *     error (a method whose share cannot be told from 0 is priced as if it ran that often)
     * @throws IllegalArgumentException with one line naming the mismatch when the estimate is not
     *     of this model's app version or methods
     */
    static CallRates of(EstimateWindow window, ProgramModel model, Double floorShare) {
        String estimated = window.getAppVersion();
        String planned = model.getAppVersion();
        if (!app(estimated).equals(app(planned))) {
            throw new IllegalArgumentException(
                    "the estimates are of another program: "
                            + estimated
                            + ", the model is of "
                            + planned);
        }
        if (!estimated.equals(planned)) {
            throw new IllegalArgumentException(
                    "the estimates are of "
                            + estimated
                            + ", the model is of "
                            + planned
                            + ": method ids differ between app versions; use the estimates of "
                            + planned);
        }
        if (window.getReports() <= 0) {
            throw new IllegalArgumentException("the estimate of " + estimated + " has no reports");
        }
        int methods = model.getMethods().size();
        List<Double> normalized = window.getNormalized();
        if (normalized.size() != methods) {
            throw new IllegalArgumentException(
                    "the estimates of "
                            + estimated
                            + " cover "
                            + normalized.size()
                            + " methods, the model has "
                            + methods
                            + ": not the model the estimates were made with");
        }
        for (RankedMethod top : window.getTop()) {
            int id = top.getMethodId();
            if (id < 0 || id >= methods) {
                throw new IllegalArgumentException(
                        "the estimates name method " + id + ", which the model does not have");
            }
            String signature = model.getMethods().get(id).getSignature();
            if (!signature.equals(top.getSignature())) {
                throw new IllegalArgumentException(
                        "the estimates' method "
                                + id
                                + " is "
                                + top.getSignature()
                                + ", the model's is "
                                + signature
                                + ": not the model the estimates were made with");
            }
        }
        double floor = floorShare != null ? floorShare : window.getStandardError();
        double[] shares = new double[methods];
        for (int m = 0; m < methods; m++) {
            shares[m] = normalized.get(m);
        }
        return CallRates.fromShares(shares, floor);
    }

    /** One line on where the rates came from and how many shares the floor raised. */
    static String describe(EstimateWindow window, CallRates rates, boolean floorGiven) {
        return String.format(
                Locale.ROOT,
                "call rates: %s's %s estimate of %d reports (config %s), relative to the mean"
                    + " method; %d of %d methods estimated at or below the floor share %.3g (%s)"
                    + " are priced at it",
                window.getAppVersion(),
                window.getCumulative() ? "cumulative" : "window",
                window.getReports(),
                window.getConfigId(),
                rates.clamped(),
                rates.size(),
                rates.floorShare(),
                floorGiven ? "--call-rate-floor" : "the estimate's standard error");
    }

    private static String app(String appVersion) {
        int colon = appVersion.lastIndexOf(':');
        return colon < 0 ? appVersion : appVersion.substring(0, colon);
    }
}
