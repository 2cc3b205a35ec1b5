package dev.fieldprof.ldp;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Deterministic exactness conditions of BTRD (Hörmann 1993), checked over the whole support, like
 * the ratio-of-uniforms hat check of {@link HypergeometricSamplerTest}. No randomness: no false
 * failures.
 *
 * <p>BTRD maps U uniform on (−½, ½) to x = G(U) = (2a/(½ − |U|) + b)·U + c, K = ⌊x⌋, and accepts K
 * when V·α/G'(U) <= f(K)/f(m) for V uniform on (0, 1), where G'(u) = a/(½ − |u|)² + b. Accepted K
 * then has probability proportional to f(K) exactly iff
 *
 * <ul>
 *   <li>the hat dominates: f(K)/f(m) <= α/G'(u) for every u with ⌊G(u)⌋ = K (else acceptance is
 *       capped at 1 and K comes out too rarely), and
 *   <li>the immediate-acceptance box |U| <= 0.43, V <= v_r lies under the pmf: v_r·α/G'(u) <=
 *       f(K)/f(m) there (else K is accepted without the test, too often).
 * </ul>
 *
 * The checks take G's inverse in closed form, so each K costs one logarithm ratio.
 */
class BtrdHatTest {

    @ParameterizedTest(name = "n={0}, p={1}")
    @CsvSource({
        "20, 0.5",
        "21, 0.5",
        "50, 0.2",
        "100, 0.3",
        "1000, 0.5",
        "1000, 0.01",
        "50000, 0.25",
        "50000, 0.0002",
        "200000, 0.5",
        "3000000, 0.3",
        "10000000, 0.000001",
        "10000000, 0.5"
    })
    void hatDominatesThePmfAndTheBoxLiesUnderIt(int n, double p) {
        BinomialSampler.Btrd btrd = new BinomialSampler.Btrd(n, p);
        double[] h = btrd.hatConstants();
        assertThat(hatMargin(btrd, n, h[0], h[1], h[2], h[3]))
                .as("min over K of ln(hat) − ln f(K)/f(m)")
                .isGreaterThan(0);
        assertThat(boxMargin(btrd, n, h[0], h[1], h[2], h[3], h[4]))
                .as("min over the box of ln f(K)/f(m) − ln(box height)")
                .isGreaterThan(0);
    }

    @Test
    void catchesAHatScaledDownAndABoxTooTall() {
        // Wrong constants the checks must reject: α 10% too small (the hat dips under the pmf
        // near the mode), and v_r = 0.99 (the box reaches above the pmf away from the mode).
        for (int[] np : new int[][] {{1000, 50}, {50000, 25}, {10000000, 50}}) {
            int n = np[0];
            double p = np[1] / 100.0;
            BinomialSampler.Btrd btrd = new BinomialSampler.Btrd(n, p);
            double[] h = btrd.hatConstants();
            assertThat(hatMargin(btrd, n, h[0], h[1], h[2], 0.9 * h[3]))
                    .as("n=%d p=%s, alpha scaled by 0.9", n, p)
                    .isLessThan(0);
            assertThat(boxMargin(btrd, n, h[0], h[1], h[2], h[3], 0.99))
                    .as("n=%d p=%s, v_r = 0.99", n, p)
                    .isLessThan(0);
        }
    }

    /**
     * G⁻¹(c + y): for y >= 0 the root in [0, ½) of b·u² − (2a + b/2 + y)·u + y/2; G is odd about c.
     */
    static double inverse(double y, double a, double b) {
        double t = Math.abs(y);
        double big = 2 * a + 0.5 * b + t;
        double u = t / (big + Math.sqrt(big * big - 2 * b * t));
        return Math.copySign(u, y);
    }

    static double slope(double u, double a, double b) {
        double us = 0.5 - Math.abs(u);
        return a / (us * us) + b;
    }

    /** min over K in [0, n] of ln(α/max G' on K's preimage) − ln f(K)/f(m). */
    static double hatMargin(
            BinomialSampler.Btrd btrd, int n, double a, double b, double c, double alpha) {
        double worst = Double.POSITIVE_INFINITY;
        double logAlpha = Math.log(alpha);
        for (int k = 0; k <= n; k++) {
            double lo = inverse(k - c, a, b);
            double hi = inverse(k + 1 - c, a, b);
            // G' grows with |u|: its largest value on [lo, hi] is at the end farther from 0.
            double far = Math.max(Math.abs(lo), Math.abs(hi));
            double margin = logAlpha - Math.log(slope(far, a, b)) - btrd.logRatio(k);
            worst = Math.min(worst, margin);
        }
        return worst;
    }

    /** min over K reached from |u| <= 0.43 of ln f(K)/f(m) − ln(v_r·α/min G' there). */
    static double boxMargin(
            BinomialSampler.Btrd btrd,
            int n,
            double a,
            double b,
            double c,
            double alpha,
            double vr) {
        double edge = 0.43;
        long first = (long) Math.floor((2 * a / (0.5 - edge) + b) * -edge + c);
        long last = (long) Math.floor((2 * a / (0.5 - edge) + b) * edge + c);
        double worst = Double.POSITIVE_INFINITY;
        for (long k = first; k <= last; k++) {
            double lo = Math.max(-edge, inverse(k - c, a, b));
            double hi = Math.min(edge, inverse(k + 1 - c, a, b));
            if (lo > hi) {
                continue;
            }
            // G' is smallest at the point of [lo, hi] nearest 0: there the box is tallest.
            double near = lo <= 0 && hi >= 0 ? 0 : Math.min(Math.abs(lo), Math.abs(hi));
            double boxHeight = Math.log(vr * alpha) - Math.log(slope(near, a, b));
            double logPmf = k < 0 || k > n ? Double.NEGATIVE_INFINITY : btrd.logRatio((int) k);
            worst = Math.min(worst, logPmf - boxHeight);
        }
        return worst;
    }
}
