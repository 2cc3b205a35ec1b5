package dev.fieldprof.diff.estimates;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

class EstimateDifferTest {

    static ReleaseEstimate release(String version, List<String> names, double[] g, double se) {
        return new ReleaseEstimate("app:" + version, "c", 1000, names, g, g, se);
    }

    @Test
    void computesDifferenceIntervalAndPValueOfEachMethod() {
        ReleaseEstimate v1 =
                release(
                        "1",
                        List.of("a", "b", "c", "gone"),
                        new double[] {0.5, 0.3, 0.1, 0.1},
                        0.03);
        ReleaseEstimate v2 =
                release(
                        "2",
                        List.of("a", "b", "c", "new"),
                        new double[] {0.2, 0.34, 0.1, 0.36},
                        0.04);
        EstimateDiff diff =
                new EstimateDiffer(0.05)
                        .diff(
                                v1,
                                v2,
                                MethodAlignment.align(v1.signatures(), v2.signatures(), null, 0));
        // se = sqrt(0.03^2 + 0.04^2) = 0.05. a: delta -0.3, z = -6; b: +0.04, z = 0.8; c: 0.
        assertThat(diff.changes())
                .extracting(EstimateDiff.MethodChange::signatureSecond)
                .containsExactly("a", "b", "c");
        EstimateDiff.MethodChange a = diff.changes().get(0);
        assertThat(a.standardError()).isCloseTo(0.05, within(1e-15));
        assertThat(a.difference()).isCloseTo(-0.3, within(1e-15));
        assertThat(a.z()).isCloseTo(-6, within(1e-12));
        assertThat(a.lower95()).isCloseTo(-0.3 - 1.959963984540054 * 0.05, within(1e-15));
        assertThat(a.pValue() / 1.973175290075e-9).isCloseTo(1, within(1e-9));
        assertThat(a.significant()).isTrue();
        EstimateDiff.MethodChange b = diff.changes().get(1);
        assertThat(b.pValue()).isCloseTo(0.4237107971667934, within(1e-12));
        // BY over 3: c(3) = 11/6, q(b) = min(1, 11/6 * 3/2 * 0.4237) = 1; q(a) = 11/6 * 3 * p(a).
        assertThat(b.qValue()).isEqualTo(1.0);
        assertThat(a.qValue() / (11.0 / 6 * 3 * a.pValue())).isCloseTo(1, within(1e-12));
        assertThat(b.significant()).isFalse();
        assertThat(diff.changes().get(2).pValue()).isEqualTo(1.0);
        assertThat(diff.discoveries()).isEqualTo(1);
        assertThat(diff.gone())
                .extracting(EstimateDiff.MethodShare::signature)
                .containsExactly("gone");
        assertThat(diff.added())
                .extracting(EstimateDiff.MethodShare::signature)
                .containsExactly("new");
    }

    /**
     * User-level estimates carry a standard error per method: each Δ uses its own two, √(se1(v)² +
     * se2(w)²), and so does each method only one release has.
     */
    @Test
    void usesEachMethodsOwnStandardErrors() {
        List<String> names = List.of("hot", "cold", "gone");
        ReleaseEstimate v1 =
                new ReleaseEstimate(
                        "app:1",
                        "user",
                        1000,
                        names,
                        new double[] {0.5, 0.0, 0.5},
                        new double[] {0.5, 0.0, 0.5},
                        new double[] {0.03, 0.012, 0.05});
        ReleaseEstimate v2 =
                new ReleaseEstimate(
                        "app:2",
                        "user",
                        1000,
                        List.of("hot", "cold"),
                        new double[] {0.6, 0.016},
                        new double[] {0.6, 0.016},
                        new double[] {0.04, 0.016});
        EstimateDiff diff =
                new EstimateDiffer(0.05)
                        .diff(
                                v1,
                                v2,
                                MethodAlignment.align(v1.signatures(), v2.signatures(), null, 0));
        // hot: √(0.03² + 0.04²) = 0.05, z = 0.1/0.05 = 2; cold: √(0.012² + 0.016²) = 0.02, z = 0.8.
        assertThat(diff.changes())
                .extracting(
                        EstimateDiff.MethodChange::signatureSecond,
                        c -> Math.round(c.standardError() * 1e12) / 1e12,
                        c -> Math.round(c.z() * 1e12) / 1e12)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("hot", 0.05, 2.0),
                        org.assertj.core.groups.Tuple.tuple("cold", 0.02, 0.8));
        assertThat(diff.gone())
                .extracting(EstimateDiff.MethodShare::standardError)
                .containsExactly(0.05);
    }

    @Test
    void rejectsAStandardErrorPerMethodOfAnotherLength() {
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () ->
                                new ReleaseEstimate(
                                        "app:1",
                                        "c",
                                        1,
                                        List.of("a", "b"),
                                        new double[2],
                                        new double[2],
                                        new double[] {0.1}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("1 standard errors");
    }
}
