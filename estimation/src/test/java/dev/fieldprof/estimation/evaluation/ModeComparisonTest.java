package dev.fieldprof.estimation.evaluation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.estimation.ConstraintGraph;
import java.util.List;
import org.junit.jupiter.api.Test;

class ModeComparisonTest {
    @Test
    void comparesBothModesAtEachEpsilonAndUserLevelWinsAtEqualPerReportPrivacy() {
        int[] left = new int[39];
        int[] right = new int[39];
        for (int i = 0; i < 39; i++) {
            left[i] = i;
            right[i] = i + 1;
        }
        ConstraintGraph graph = new ConstraintGraph(60, left, right);
        List<ModeComparison.Row> rows =
                ModeComparison.run(
                        new SyntheticWorkload("chain", graph, 5),
                        new double[] {Math.log(3), 8},
                        3000,
                        2,
                        0.25,
                        11);

        assertThat(rows)
                .extracting(ModeComparison.Row::mode, ModeComparison.Row::k)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("epsilon-t", 1),
                        org.assertj.core.groups.Tuple.tuple("epsilon-t", 300),
                        org.assertj.core.groups.Tuple.tuple("user-level", 1),
                        org.assertj.core.groups.Tuple.tuple("epsilon-t", 1),
                        org.assertj.core.groups.Tuple.tuple("epsilon-t", 300),
                        org.assertj.core.groups.Tuple.tuple("user-level", 1));
        System.out.print(ModeComparison.table("chain", 60, 3000, rows));
        for (int e = 0; e < 2; e++) {
            ModeComparison.Row oneEvent = rows.get(3 * e);
            ModeComparison.Row study = rows.get(3 * e + 1);
            ModeComparison.Row userLevel = rows.get(3 * e + 2);
            // At equal per-report privacy, k = 5|V| at t = k spreads ε over 300 events: its
            // randomizer is almost a coin flip, and subset selection is the optimal oracle for a
            // single event, so the order is fixed by the variances (factors of 2 and more here).
            assertThat(userLevel.relativeErrorRaw()).isLessThan(oneEvent.relativeErrorRaw());
            assertThat(oneEvent.relativeErrorRaw()).isLessThan(study.relativeErrorRaw());
            assertThat(userLevel.relativeErrorProjected())
                    .isLessThanOrEqualTo(study.relativeErrorProjected());
        }
    }
}
