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
        // BH over 3: q(b) = min(3/2 * 0.4237, q(c) = 1).
        assertThat(b.qValue()).isCloseTo(1.5 * 0.4237107971667934, within(1e-12));
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
}
