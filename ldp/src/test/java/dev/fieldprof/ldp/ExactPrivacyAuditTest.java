package dev.fieldprof.ldp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

class ExactPrivacyAuditTest {

    @Test
    void reproducesWorkedExampleOfSection33ForTEqualsOne() {
        ExactPrivacyAudit.Result result =
                new ExactPrivacyAudit(new PrivacyParameters(Math.log(9), 1, 5))
                        .audit(new int[] {4, 2});
        // The table of frequency profiling's section 3.3 (docs/references.md), rounded to 4
        // decimals there.
        double[] paper = {0.1043, 0.1265, 0.0746, 0.0247, 0.0061, 0.0013};
        assertThat(result.lines()).hasSize(6);
        for (int i = 0; i < 6; i++) {
            assertThat(result.lines().get(i).frequencies()).containsExactly(5 - i, i);
            assertThat(result.lines().get(i).probability()).isCloseTo(paper[i], within(5e-5));
        }
        assertThat(result.maxRatioWithinT()).isLessThanOrEqualTo(9);
        assertThat(result.bound()).isCloseTo(9, within(1e-12));
        // "the ratio between the highest and the lowest probability ... for t = 1 is 98.28"
        double highest = result.lines().get(1).probability();
        double lowest = result.lines().get(5).probability();
        assertThat(highest / lowest).isCloseTo(98.28, within(0.01));
    }

    @Test
    void reproducesWorkedExampleOfSection33ForTEqualsTwo() {
        ExactPrivacyAudit.Result result =
                new ExactPrivacyAudit(new PrivacyParameters(Math.log(9), 2, 5))
                        .audit(new int[] {4, 2});
        double[] paper = {0.1009, 0.0848, 0.0606, 0.0378, 0.0214, 0.0112};
        for (int i = 0; i < 6; i++) {
            assertThat(result.lines().get(i).probability()).isCloseTo(paper[i], within(5e-5));
        }
        // "In our example, the largest ratio of probabilities shown in the table for t = 2 is 9."
        double max = 0;
        double min = 1;
        for (ExactPrivacyAudit.Line line : result.lines()) {
            max = Math.max(max, line.probability());
            min = Math.min(min, line.probability());
        }
        assertThat(max / min).isCloseTo(9, within(1e-9));
        assertThat(result.maxRatioWithinT()).isLessThanOrEqualTo(9 + 1e-9);
    }

    @Test
    void formatsTheIssueOutputExactly() {
        List<String> text =
                new ExactPrivacyAudit(new PrivacyParameters(Math.log(9), 1, 5))
                        .audit(new int[] {4, 2})
                        .format();
        assertThat(text)
                .containsExactly(
                        "5,0 0.104284",
                        "4,1 0.126532",
                        "3,2 0.074621",
                        "2,3 0.024725",
                        "1,4 0.006140",
                        "0,5 0.001287",
                        "max-ratio-within-t 4.768889",
                        "bound 9.000000");
    }

    @Test
    void ordersThreeEventDomainDescendingLexicographically() {
        List<ExactPrivacyAudit.Line> lines =
                new ExactPrivacyAudit(new PrivacyParameters(1, 1, 2))
                        .audit(new int[] {1, 0, 2})
                        .lines();
        assertThat(
                        lines.stream()
                                .map(
                                        l ->
                                                l.frequencies()[0]
                                                        + ""
                                                        + l.frequencies()[1]
                                                        + l.frequencies()[2]))
                .containsExactly("200", "110", "101", "020", "011", "002");
    }

    @Test
    void maxRatioNeverExceedsBoundOnRandomSmallCases() {
        for (int t = 1; t <= 3; t++) {
            for (int k = t; k <= 6; k++) {
                PrivacyParameters params = new PrivacyParameters(1.7, t, k);
                ExactPrivacyAudit audit = new ExactPrivacyAudit(params);
                for (int z0 = 0; z0 <= k; z0 += 2) {
                    for (int z1 = 0; z1 <= k; z1 += 3) {
                        double ratio = audit.audit(new int[] {z0, z1, k - z0}).maxRatioWithinT();
                        assertThat(ratio)
                                .as("t=%d k=%d z=%d,%d", t, k, z0, z1)
                                .isLessThanOrEqualTo(params.bound() * (1 + 1e-12));
                    }
                }
            }
        }
    }

    @Test
    void rejectsOutputOutsideZeroToK() {
        assertThatThrownBy(
                        () ->
                                new ExactPrivacyAudit(new PrivacyParameters(1, 1, 5))
                                        .audit(new int[] {6, 0}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("output entries must be in [0, k=5], got 6");
    }
}
