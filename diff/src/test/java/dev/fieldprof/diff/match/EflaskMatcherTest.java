package dev.fieldprof.diff.match;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.diff.cct.CallingContextTree;
import dev.fieldprof.diff.cct.CctNode;
import dev.fieldprof.diff.cct.Trees;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class EflaskMatcherTest {

    @Test
    void equalsBruteForceOnRandomTinyTrees() {
        long seed = 20261122L;
        Random random = new Random(seed);
        int largest = 0;
        int alphaMattered = 0;
        for (int round = 0; round < 600; round++) {
            CallingContextTree a =
                    Trees.random(random, 2 + random.nextInt(7), 4, round % 2 == 0 ? "ab" : "abc");
            CallingContextTree b =
                    Trees.random(random, 2 + random.nextInt(7), 4, round % 2 == 0 ? "ab" : "abc");
            int atZero = -1;
            for (int alpha = 0; alpha <= 3; alpha++) {
                NodeMatching matching =
                        new EflaskMatcher(alpha, LabelEquivalence.exactNames()).match(a, b);
                int expected = new BruteForceMatcher(alpha).maximum(a, b);
                String where =
                        "seed " + seed + " round " + round + " alpha " + alpha + "\nA " + show(a)
                                + "\nB " + show(b);
                assertThat(matching.size()).as(where).isEqualTo(expected);
                List<CctNode[]> exact = new ArrayList<>();
                for (NodeMatching.Pair pair : matching.pairs()) {
                    if (pair.exact()) {
                        assertThat(
                                        BruteForceMatcher.editDistance(
                                                BruteForceMatcher.labels(pair.a()),
                                                BruteForceMatcher.labels(pair.b())))
                                .as(where)
                                .isLessThanOrEqualTo(alpha);
                        assertThat(
                                        BruteForceMatcher.consistent(
                                                exact, new CctNode[] {pair.a(), pair.b()}))
                                .as(where)
                                .isTrue();
                        exact.add(new CctNode[] {pair.a(), pair.b()});
                    }
                }
                assertThat(exact).as(where).hasSize(expected);
                largest = Math.max(largest, expected);
                if (alpha == 0) {
                    atZero = expected;
                } else if (expected > atZero) {
                    alphaMattered++;
                }
            }
        }
        // The cases are not trivial: some matchings are large, and α changes many of them.
        assertThat(largest).isGreaterThanOrEqualTo(6);
        assertThat(alphaMattered).isGreaterThan(100);
        System.out.println("largest " + largest + ", alpha mattered " + alphaMattered);
    }

    static String show(CallingContextTree tree) {
        StringBuilder out = new StringBuilder();
        show(tree.root(), out);
        return out.toString();
    }

    private static void show(CctNode node, StringBuilder out) {
        out.append(node.name());
        if (!node.children().isEmpty()) {
            out.append('(');
            String sep = "";
            for (CctNode child : node.children()) {
                out.append(sep);
                show(child, out);
                sep = " ";
            }
            out.append(')');
        }
    }
}
