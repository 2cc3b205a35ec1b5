package dev.fieldprof.ldp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The user-level oracle: its output distribution is exactly the definition's, its audit ratio never
 * exceeds e^ε and reaches it up to the 2^-53 rounding of P.
 */
class SubsetSelectionTest {

    /**
     * Every ω-subset of a small domain is drawn with the definition's probability (with P̃), for
     * two inputs. Each cell count is Binomial(N, π); the test fails when a count leaves π·N ± δ
     * with δ from Bernstein's inequality, Pr[|X − Nπ| ≥ δ] ≤ 2·exp(−δ²/(2(Nπ(1−π) + δ/3))), at
     * α/cells per cell. By the union bound the false-failure probability is at most α = 1e-9 (no
     * asymptotic approximation). Its power: at N = 10^6 a cell of probability 0.1 has δ ≈ 2100
     * draws, so a sampler off by 5% there (5000 draws) fails.
     */
    @ParameterizedTest
    @CsvSource({"5, 1.0986122886681098, 2, 1", "5, 1.0986122886681098, 1, 2", "6, 4, 3, 3"})
    void drawsEverySubsetWithTheDefinitionsProbability(
            int d, double epsilon, int omega, long seed) {
        SubsetSelection oracle = new SubsetSelection(d, epsilon, omega);
        int n = 1_000_000;
        double alpha = 1e-9;
        int cells = SubsetSelection.binomial(d, omega).intValueExact();
        for (int x : new int[] {0, d - 2}) {
            RandomSource random = new SeededRandomSource(seed * 31 + x);
            Map<String, Integer> counts = new HashMap<>();
            for (int i = 0; i < n; i++) {
                int[] z = oracle.randomize(random, x);
                assertThat(z).hasSize(omega).isSorted().doesNotHaveDuplicates();
                counts.merge(java.util.Arrays.toString(z), 1, Integer::sum);
            }
            assertThat(counts).as("every subset appears").hasSize(cells);
            for (Map.Entry<String, Integer> cell : counts.entrySet()) {
                int[] z = parse(cell.getKey());
                double pi = oracle.probability(z, x, MathContext.DECIMAL64).doubleValue();
                double variance = n * pi * (1 - pi);
                double log = Math.log(2 * 2 * cells / alpha); // two inputs, cells per input
                // Solve δ² = 2·log·(variance + δ/3) for δ.
                double b = 2 * log / 3;
                double delta = (b + Math.sqrt(b * b + 8 * log * variance)) / 2;
                assertThat(Math.abs(cell.getValue() - n * pi))
                        .as("subset %s from x=%d (seed %d)", cell.getKey(), x, seed)
                        .isLessThanOrEqualTo(delta);
            }
        }
    }

    private static int[] parse(String text) {
        String[] parts = text.substring(1, text.length() - 1).split(", ");
        int[] out = new int[parts.length];
        for (int i = 0; i < parts.length; i++) {
            out[i] = Integer.parseInt(parts[i]);
        }
        return out;
    }

    @ParameterizedTest
    @CsvSource({
        "5, 1.0986122886681098, 2",
        "5, 1.0986122886681098, 1",
        "8, 2.1972245773362196, 3",
        "12, 8, 1",
        "10, 0.5, 5"
    })
    void auditRatioIsAtMostEToTheEpsilonAndEqualsItUpToTheRoundingOfP(
            int d, double epsilon, int omega) {
        SubsetSelection oracle = new SubsetSelection(d, epsilon, omega);
        ExactPrivacyAudit.UserLevelResult result = ExactPrivacyAudit.auditUserLevel(oracle);
        assertThat(result.exhaustive()).isTrue();
        // The enumeration finds the closed form's pair (x in Z, x' not in Z) and nothing worse.
        assertThat(result.maxRatio().subtract(result.closedFormRatio()).abs())
                .isLessThanOrEqualTo(result.closedFormRatio().movePointLeft(27));
        BigDecimal eToTheEpsilon = new BigDecimal(Math.nextDown(Math.exp(epsilon)));
        assertThat(result.closedFormRatio()).isLessThanOrEqualTo(eToTheEpsilon);
        // Equality up to P's resolution: T + 1 would exceed E.
        assertThat(result.maxRatio().doubleValue() / Math.exp(epsilon))
                .isGreaterThan(1 - 1e-13)
                .isLessThanOrEqualTo(1);
        assertThat(result.format()).last().isEqualTo("max-ratio <= bound: true");
    }

    /**
     * Where P = ωe^ε/(ωe^ε + d − ω) is a multiple of 2^-53 the implemented oracle is the ideal one
     * and the ratio is e^ε itself: d = 8, ω = 2, e^ε = 3 give P = 1/2 and the ratio 3 exactly (the
     * double ε nearest ln 3 has e^ε >= 3, else T = 2^52 would not fit).
     */
    @Test
    void reachesEToTheEpsilonExactlyWhenPIsDyadic() {
        SubsetSelection oracle = new SubsetSelection(8, Math.log(3), 2);
        assertThat(oracle.inclusionThreshold()).isEqualTo(1L << 52);
        assertThat(oracle.p()).isEqualTo(0.5);
        ExactPrivacyAudit.UserLevelResult result = ExactPrivacyAudit.auditUserLevel(oracle);
        assertThat(result.exhaustive()).isTrue();
        assertThat(result.maxRatio()).isEqualByComparingTo(BigDecimal.valueOf(3));
        assertThat(result.closedFormRatio()).isEqualByComparingTo(BigDecimal.valueOf(3));
    }

    @Test
    void thresholdIsTheLargestKeepingTheRatioAtMostE() {
        int d = 1000;
        double epsilon = Math.log(3);
        SubsetSelection oracle = new SubsetSelection(d, epsilon);
        long t = oracle.inclusionThreshold();
        BigDecimal e = new BigDecimal(Math.nextDown(Math.exp(epsilon)));
        BigDecimal two53 = BigDecimal.valueOf(1L << 53);
        int omega = oracle.subsetSize();
        BigDecimal rest = BigDecimal.valueOf(d - omega);
        BigDecimal omegaE = e.multiply(BigDecimal.valueOf(omega));
        assertThat(BigDecimal.valueOf(t).multiply(rest))
                .isLessThanOrEqualTo(two53.subtract(BigDecimal.valueOf(t)).multiply(omegaE));
        assertThat(BigDecimal.valueOf(t + 1).multiply(rest))
                .isGreaterThan(two53.subtract(BigDecimal.valueOf(t + 1)).multiply(omegaE));
        assertThat(omega).isEqualTo(250);
        assertThat(oracle.worstCaseRatio(new MathContext(20, RoundingMode.FLOOR)).doubleValue())
                .isLessThanOrEqualTo(3.0);
    }

    @Test
    void largeDomainsAreAuditedInClosedForm() {
        ExactPrivacyAudit.UserLevelResult result =
                ExactPrivacyAudit.auditUserLevel(new SubsetSelection(500, Math.log(3)));
        assertThat(result.exhaustive()).isFalse();
        assertThat(result.maxRatio().doubleValue())
                .isLessThanOrEqualTo(3.0)
                .isGreaterThan(3 - 1e-12);
    }

    @Test
    void rejectsParametersOutsideTheirRanges() {
        assertThatThrownBy(() -> new SubsetSelection(1, 1.0))
                .hasMessageContaining("domain size d must be in [2");
        assertThatThrownBy(() -> new SubsetSelection(10, 31))
                .hasMessageContaining("epsilon must be in [");
        assertThatThrownBy(() -> new SubsetSelection(10, 1.0, 10))
                .hasMessageContaining("subset size must be in [1, d-1=9]");
        assertThatThrownBy(
                        () -> new SubsetSelection(10, 1.0).randomize(new SeededRandomSource(1), 10))
                .hasMessageContaining("value must be in [0, d=10)");
    }
}
