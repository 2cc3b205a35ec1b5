package dev.fieldprof.ldp;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * The comparison that picks the user-level mode's oracle and its events per report: the variance
 * formulas of {@link OracleVariance} over fieldprof's |V| (hundreds to thousands) and ε (ln 3 ..
 * 8), printed as a table. Deterministic: no randomness.
 */
class OracleVarianceTest {
    private static final int[] DOMAINS = {200, 500, 1000, 2000, 5000};
    private static final double[] EPSILONS = {Math.log(3), 2, Math.log(9), 4, 6, 8};

    @Test
    void subsetSelectionHasTheSmallestVarianceOverFieldprofsRange() {
        System.out.println(
                "share-0 variance per report, n*Var(g^(v)); ratio = other / subset selection");
        System.out.println(
                "     d  epsilon  omega         SS        OLH         HR   OLH/SS    HR/SS");
        for (int d : DOMAINS) {
            for (double epsilon : EPSILONS) {
                int omega = SubsetSelection.optimalSubsetSize(d, epsilon);
                double ss = OracleVariance.subsetSelection(d, epsilon);
                double olh = OracleVariance.optimalLocalHashing(epsilon);
                double hr = OracleVariance.hadamardResponse(epsilon);
                System.out.println(
                        String.format(
                                Locale.ROOT,
                                "%6d %8.4f %6d %10.5f %10.5f %10.5f %8.3f %8.3f",
                                d,
                                epsilon,
                                omega,
                                ss,
                                olh,
                                hr,
                                olh / ss,
                                hr / ss));
                assertThat(ss).as("d=%d epsilon=%f", d, epsilon).isLessThanOrEqualTo(olh);
                assertThat(ss).as("d=%d epsilon=%f", d, epsilon).isLessThanOrEqualTo(hr);
            }
        }
    }

    /**
     * The decision is made on n·E‖ĝ − g‖² = Σ_v of the per-method variances: one event at ε wins at
     * every point of the grid, for evenly spread and for concentrated shares. Per method it wins
     * for every share up to 0.01; for hot methods (share 0.1 and more on every device) at ε >= 4,
     * two to four events at ε/s are lower (the table shows where), which does not outweigh the |V|
     * methods of small share.
     */
    @Test
    void oneEventPerReportBeatsSeveralEventsAtASplitEpsilon() {
        int[] s = {1, 2, 4, 8};
        System.out.println(
                "n*E|g^-g|^2 per device: s events at epsilon/s each; shares spread evenly over"
                        + " |V| (flat) or all on one method (one); then one method's variance at"
                        + " share f");
        System.out.println("     d  epsilon  profile       s=1       s=2       s=4       s=8");
        for (int d : DOMAINS) {
            for (double epsilon : EPSILONS) {
                double[][] totals = new double[2][s.length];
                for (int i = 0; i < s.length; i++) {
                    double zero = OracleVariance.eventsPerReport(d, epsilon, s[i], 0);
                    double flatShare = 1.0 / d;
                    totals[0][i] = d * OracleVariance.eventsPerReport(d, epsilon, s[i], flatShare);
                    totals[1][i] =
                            (d - 1) * zero + OracleVariance.eventsPerReport(d, epsilon, s[i], 1);
                }
                String[] names = {"flat", "one"};
                for (int row = 0; row < 2; row++) {
                    System.out.println(
                            String.format(
                                    Locale.ROOT,
                                    "%6d %8.4f %8s %9.3f %9.3f %9.3f %9.3f",
                                    d,
                                    epsilon,
                                    names[row],
                                    totals[row][0],
                                    totals[row][1],
                                    totals[row][2],
                                    totals[row][3]));
                    for (int i = 1; i < s.length; i++) {
                        assertThat(totals[row][0])
                                .as("d=%d epsilon=%f %s s=%d", d, epsilon, names[row], s[i])
                                .isLessThan(totals[row][i]);
                    }
                }
                for (double f : new double[] {0, 0.01, 0.1, 0.5, 1}) {
                    double[] v = new double[s.length];
                    for (int i = 0; i < s.length; i++) {
                        v[i] = OracleVariance.eventsPerReport(d, epsilon, s[i], f);
                    }
                    System.out.println(
                            String.format(
                                    Locale.ROOT,
                                    "%6d %8.4f f=%6.2f %9.4f %9.4f %9.4f %9.4f",
                                    d,
                                    epsilon,
                                    f,
                                    v[0],
                                    v[1],
                                    v[2],
                                    v[3]));
                    if (f <= 0.01) {
                        assertThat(v[0]).isLessThan(v[1]);
                    }
                }
            }
        }
    }

    @Test
    void subsetSizeOneIsRandomizedResponse() {
        // omega = 1: p = e/(e + d - 1), q = 1/(e + d - 1), Var = (e + d - 2)/(e - 1)^2.
        double e = Math.exp(8);
        int d = 500;
        assertThat(OracleVariance.subsetSelection(d, e, 1))
                .isCloseTo(
                        (e + d - 2) / ((e - 1) * (e - 1)),
                        org.assertj.core.data.Offset.offset(1e-12));
    }
}
