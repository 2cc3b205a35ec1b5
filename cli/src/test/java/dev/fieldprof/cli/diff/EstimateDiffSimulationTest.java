package dev.fieldprof.cli.diff;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.diff.estimates.EstimateDiff;
import dev.fieldprof.diff.estimates.EstimateDiffer;
import dev.fieldprof.diff.estimates.MethodAlignment;
import dev.fieldprof.diff.estimates.ReleaseEstimate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The release diff of field estimates on simulated releases whose estimates come from the real
 * randomizer and estimator ({@link SimulatedRelease}): 30 methods, k = 60 entries per trace, 2,000
 * reports per release, ε = ln 9, t = 1 (a = 3). Exactly three methods change share between V1 and
 * V2: m00 +5/60, m01 −3/60, m02 −2/60; the other 27 keep their share.
 *
 * <p>Each ĝ has standard error √(a/(n k)) / (a − 1) = 0.0025, a difference √2 · 0.0025 = 0.00354,
 * so the three changes sit at z = 23.6, 14.1 and 9.4.
 */
class EstimateDiffSimulationTest {
    static final int METHODS = 30;
    static final int REPORTS = 2000;
    static final double FDR = 0.05;
    static final int SEEDS = 1000;

    static final int[] V1 = new int[METHODS];
    static final int[] V2 = new int[METHODS];
    static final List<String> SIGNATURES = new ArrayList<>();
    static final Set<String> CHANGED =
            Set.of("<app.M: void m00()>", "<app.M: void m01()>", "<app.M: void m02()>");

    static {
        // 60 entries: m00..m05 3, 4, 3, 2, 2, 2 ... the rest 1 or 2, summing to 60.
        int[] base = {
            10, 6, 4, 3, 3, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2,
            1
        };
        int sum = 0;
        for (int v = 0; v < METHODS; v++) {
            V1[v] = base[v];
            V2[v] = base[v];
            sum += base[v];
            SIGNATURES.add(String.format(Locale.ROOT, "<app.M: void m%02d()>", v));
        }
        if (sum != 60) {
            throw new AssertionError("traces must have k = 60 entries, have " + sum);
        }
        V2[0] += 5;
        V2[1] -= 3;
        V2[2] -= 2;
    }

    static EstimateDiff diff(long seed) {
        ReleaseEstimate first = SimulatedRelease.release("app:1", SIGNATURES, V1, REPORTS, seed);
        ReleaseEstimate second =
                SimulatedRelease.release("app:2", SIGNATURES, V2, REPORTS, seed + 1_000_003L);
        return new EstimateDiffer(FDR)
                .diff(first, second, MethodAlignment.align(SIGNATURES, SIGNATURES, null, 0));
    }

    static Set<String> flagged(EstimateDiff diff) {
        Set<String> out = new TreeSet<>();
        for (EstimateDiff.MethodChange c : diff.changes()) {
            if (c.significant()) {
                out.add(c.signatureSecond());
            }
        }
        return out;
    }

    /**
     * The three changed methods are flagged in every one of {@value #SEEDS} seeds, the largest
     * change ranks first, and the false discovery proportion averaged over the seeds stays within
     * the stated FDR up to the sampling error of an average over {@value #SEEDS} seeds.
     *
     * <p>False-failure probability, bounded:
     *
     * <ul>
     *   <li>Flagging. Benjamini–Yekutieli rejects every p-value ≤ 3q/(m·c(m)) = 0.00125 (c(30) = Σ
     *       1/i = 3.995) once three of them are that small, so a changed method is missed only if
     *       its |z| < 3.227; for the weakest (mean 9.43) that has probability Φ(3.227 − 9.43) <
     *       3e−10 per seed, < 1e−6 over all seeds and methods.
     *   <li>FDR. BY keeps E[FDP] ≤ q·27/30 = 0.045 under any dependence between the methods. FDP
     *       lies in [0, 1], so Var(FDP) ≤ E[FDP] ≤ q, and Bernstein's inequality bounds Pr[mean − E
     *       ≥ t] ≤ exp(−N t² / (2 (q + t/3))). With N = 1000 and t = 0.0287 that is < 1e−3: the
     *       assertion mean FDP ≤ q + t fails with probability < 1e−3 when the procedure is right.
     *       (BY is conservative: the measured mean FDP is 0.0114 ± 0.0017; Benjamini–Hochberg, used
     *       before, gave 0.0454 ± 0.0032.)
     * </ul>
     *
     * The seeds are fixed, so the run is deterministic; the bounds say how unlucky a choice of
     * seeds would have to be.
     */
    @Test
    void flagsExactlyTheChangedMethodsAndKeepsTheFalseDiscoveryRate() {
        double fdpSum = 0;
        double fdpSquares = 0;
        int falseDiscoveries = 0;
        int seedsWithFalseDiscoveries = 0;
        for (int s = 0; s < SEEDS; s++) {
            long seed = 7919L * s + 17;
            EstimateDiff diff = diff(seed);
            Set<String> flagged = flagged(diff);
            assertThat(flagged).as("seed %d", seed).containsAll(CHANGED);
            assertThat(diff.changes().get(0).signatureSecond())
                    .as("seed %d", seed)
                    .isEqualTo("<app.M: void m00()>");
            int falses = flagged.size() - CHANGED.size();
            falseDiscoveries += falses;
            seedsWithFalseDiscoveries += falses > 0 ? 1 : 0;
            double fdp = (double) falses / flagged.size();
            fdpSum += fdp;
            fdpSquares += fdp * fdp;
        }
        double meanFdp = fdpSum / SEEDS;
        double sd = Math.sqrt((fdpSquares / SEEDS - meanFdp * meanFdp) / SEEDS);
        double t = bernsteinMargin(SEEDS, FDR, 1e-3);
        System.out.printf(
                Locale.ROOT,
                "release diff simulation: %d seeds, mean FDP %.4f +- %.4f (FDR %.2f, bound %.4f),"
                        + " %d false discoveries in %d seeds%n",
                SEEDS,
                meanFdp,
                sd,
                FDR,
                FDR + t,
                falseDiscoveries,
                seedsWithFalseDiscoveries);
        assertThat(t).isBetween(0.0286, 0.0288);
        assertThat(meanFdp).isLessThanOrEqualTo(FDR + t);
    }

    /** The t with exp(−N t² / (2 (q + t/3))) = δ: the positive root of a quadratic. */
    static double bernsteinMargin(int n, double q, double delta) {
        double l = Math.log(1 / delta);
        // n t² − (2 l / 3) t − 2 l q = 0
        double b = 2 * l / 3;
        return (b + Math.sqrt(b * b + 8 * n * l * q)) / (2 * n);
    }

    @Test
    void reportsTheDifferenceOfTheChangedMethodWithinItsInterval() {
        EstimateDiff diff = diff(17);
        EstimateDiff.MethodChange top = diff.changes().get(0);
        assertThat(top.standardError())
                .isCloseTo(Math.sqrt(2) * 0.0025, org.assertj.core.api.Assertions.within(1e-12));
        assertThat(top.lower95()).isLessThan(5.0 / 60);
        assertThat(top.upper95()).isGreaterThan(5.0 / 60);
    }
}
