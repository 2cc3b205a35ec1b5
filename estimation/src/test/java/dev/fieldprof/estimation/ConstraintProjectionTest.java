package dev.fieldprof.estimation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ConstraintProjectionTest {

    private static ProjectionResult project(int n, int[][] pairs, double... estimate) {
        int[] left = Arrays.stream(pairs).mapToInt(p -> p[0]).toArray();
        int[] right = Arrays.stream(pairs).mapToInt(p -> p[1]).toArray();
        return new ConstraintProjection(new ConstraintGraph(n, left, right)).project(estimate);
    }

    @Test
    void projectsOntoTheSimplexWithoutPairs() {
        ProjectionResult r = project(3, new int[0][], 0.6, 0.6, -0.2);
        assertThat(r.solution()).containsExactly(new double[] {0.5, 0.5, 0}, within(1e-15));
        assertThat(r.lambda()).isCloseTo(0.1, within(1e-15));
        assertThat(r.boundMultipliers()[2]).isCloseTo(0.3, within(1e-15));
        assertThat(r.kktResidual()).isLessThan(1e-15);
        assertThat(r.rounds()).isZero();
    }

    @Test
    void leavesAConsistentEstimateAlone() {
        ProjectionResult r = project(3, new int[][] {{0, 1}, {1, 2}}, 0.2, 0.3, 0.5);
        assertThat(r.solution()).containsExactly(new double[] {0.2, 0.3, 0.5}, within(1e-15));
        assertThat(r.pairMultipliers()).containsExactly(new double[] {0, 0}, within(1e-15));
        assertThat(r.objective()).isCloseTo(0, within(1e-30));
    }

    @Test
    void poolsAViolatedChain() {
        // 0 <= 1 <= 2 with ĝ = (0.5, 0.3, 0.2): all three pool to 1/3.
        ProjectionResult r = project(3, new int[][] {{0, 1}, {1, 2}}, 0.5, 0.3, 0.2);
        assertThat(r.solution())
                .containsExactly(new double[] {1.0 / 3, 1.0 / 3, 1.0 / 3}, within(1e-15));
        // π(0→1) = 0.5 − 1/3, π(1→2) = 0.5 + 0.3 − 2/3.
        assertThat(r.pairMultipliers())
                .containsExactly(new double[] {1.0 / 6, 2.0 / 15}, within(1e-15));
        assertThat(r.kktResidual()).isLessThan(1e-15);
    }

    @Test
    void treatsPairsBothWaysAsEquality() {
        ProjectionResult r =
                project(3, new int[][] {{0, 1}, {1, 0}, {0, 1}, {1, 1}}, 0.6, 0.2, 0.2);
        assertThat(r.solution()).containsExactly(new double[] {0.4, 0.4, 0.2}, within(1e-15));
        assertThat(r.kktResidual()).isLessThan(1e-15);
        assertThat(r.maxViolation()).isZero();
    }

    @Test
    void splitsADiamondAtItsBestUpperSet() {
        // 0 <= 1, 0 <= 2, 1 <= 3, 2 <= 3 with 0 too high: 0 pools with the lower of 1 and 2.
        ProjectionResult r =
                project(4, new int[][] {{0, 1}, {0, 2}, {1, 3}, {2, 3}}, 0.3, 0.1, 0.2, 0.4);
        assertThat(r.solution()).containsExactly(new double[] {0.2, 0.2, 0.2, 0.4}, within(1e-15));
        assertThat(r.kktResidual()).isLessThan(1e-15);
        assertThat(r.rounds()).isGreaterThanOrEqualTo(1);
    }

    @Test
    void splitsEachPieceAtItsOwnScale() {
        // Two diamonds: 0..3 at the scale of 0.1 with 0 too high, and 4..7 already in order at the
        // scale of 1e-16. The small one's cuts are judged against its own values, not against the
        // large one's, so its isotonic fit is its estimate exactly.
        int[][] pairs = {
            {0, 1}, {0, 2}, {1, 3}, {2, 3},
            {4, 5}, {4, 6}, {5, 7}, {6, 7}
        };
        ProjectionResult r = project(8, pairs, 0.4, 0.1, 0.2, 0.3, 1e-16, 2e-16, 3e-16, 4e-16);
        double pooled = (0.4 + 0.1 + 0.2) / 3;
        assertThat(Arrays.copyOfRange(r.isotonic(), 0, 4))
                .containsExactly(new double[] {pooled, pooled, pooled, 0.3}, within(1e-15));
        assertThat(Arrays.copyOfRange(r.isotonic(), 4, 8))
                .containsExactly(new double[] {1e-16, 2e-16, 3e-16, 4e-16}, within(1e-30));
        assertThat(r.kktResidual()).isLessThan(1e-15);
    }

    @Test
    void rejectsPairNamingAnUnknownMethod() {
        assertThatThrownBy(() -> new ConstraintGraph(3, new int[] {0}, new int[] {3}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("outside [0, 3)");
        assertThatThrownBy(() -> new ConstraintGraph(3, new int[] {-1}, new int[] {0}))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void rejectsEstimateOfWrongLength() {
        ConstraintProjection qp =
                new ConstraintProjection(new ConstraintGraph(3, new int[0], new int[0]));
        assertThatThrownBy(() -> qp.project(new double[2]))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("2 values");
    }

    @Test
    void matchesBruteForceOnTinyInstances() {
        long seed = 20261122L;
        SplittableRandom random = new SplittableRandom(seed);
        for (int trial = 0; trial < 400; trial++) {
            int n = 1 + random.nextInt(5);
            int m = random.nextInt(7);
            int[] left = new int[m];
            int[] right = new int[m];
            for (int p = 0; p < m; p++) {
                left[p] = random.nextInt(n);
                right[p] = random.nextInt(n);
            }
            double[] estimate = new double[n];
            for (int v = 0; v < n; v++) {
                estimate[v] = random.nextDouble(-0.3, 0.9);
            }
            ConstraintGraph graph = new ConstraintGraph(n, left, right);
            ProjectionResult r = new ConstraintProjection(graph).project(estimate);
            double[] expected = BruteForceProjection.solve(graph, estimate);
            String context = "seed " + seed + " trial " + trial + " " + graph;
            assertThat(r.solution()).as(context).containsExactly(expected, within(1e-12));
            assertThat(r.kktResidual()).as(context).isLessThan(1e-12);
        }
    }

    @Test
    void matchesOjAlgoOnSmallInstances() {
        long seed = 7L;
        SplittableRandom random = new SplittableRandom(seed);
        int[] sizes = {20, 60, 120, 200, 300};
        for (int size : sizes) {
            ConstraintGraph graph = RandomInstances.graph(size, size, random);
            double[] estimate = RandomInstances.noisyEstimate(graph, 1.0 / size, random);
            ProjectionResult r = new ConstraintProjection(graph).project(estimate);
            OjAlgoProjection.Solution reference =
                    OjAlgoProjection.solve(graph, estimate, OjAlgoProjection.Algorithm.ACTIVE_SET);
            String context =
                    "seed " + seed + " size " + size + " " + graph + " ojAlgo " + reference.state();
            assertThat(r.solution()).as(context).containsExactly(reference.x(), within(1e-9));
            assertThat(r.kktResidual()).as(context).isLessThan(1e-12);
            assertThat(r.maxViolation()).as(context).isLessThan(1e-15);
            assertThat(Arrays.stream(r.solution()).sum()).as(context).isCloseTo(1, within(1e-12));
        }
    }

    @Test
    void solvesTenThousandLongChainWithoutRecursion() {
        int n = 10_000;
        int[] left = new int[n - 1];
        int[] right = new int[n - 1];
        double[] estimate = new double[n];
        for (int v = 0; v < n; v++) {
            estimate[v] = (n - v) * 2.0 / ((double) n * (n + 1)); // decreasing: all pool
            if (v < n - 1) {
                left[v] = v;
                right[v] = v + 1;
            }
        }
        ProjectionResult r =
                new ConstraintProjection(new ConstraintGraph(n, left, right)).project(estimate);
        for (double x : r.solution()) {
            assertThat(x).isCloseTo(1.0 / n, within(1e-15));
        }
        assertThat(r.kktResidual()).isLessThan(1e-12);
    }

    @Test
    void solvesLargeCyclicGeneralGraphWithCertificate() {
        long seed = 99L;
        SplittableRandom random = new SplittableRandom(seed);
        ConstraintGraph graph = RandomInstances.graph(10_000, 10_000, random);
        // A 10,000-long cycle on top: one component, routed through its spanning trees.
        int[] left = new int[graph.pairs() + 3000];
        int[] right = new int[left.length];
        for (int p = 0; p < graph.pairs(); p++) {
            left[p] = graph.leftOf(p);
            right[p] = graph.rightOf(p);
        }
        for (int i = 0; i < 3000; i++) {
            left[graph.pairs() + i] = 5000 + i;
            right[graph.pairs() + i] = 5000 + (i + 1) % 3000;
        }
        ConstraintGraph cyclic = new ConstraintGraph(10_000, left, right);
        double[] estimate = RandomInstances.noisyEstimate(cyclic, 1e-4, random);
        ProjectionResult r = new ConstraintProjection(cyclic).project(estimate);
        assertThat(r.kktResidual()).as("seed " + seed + " " + cyclic).isLessThan(1e-12);
        assertThat(r.maxViolation()).as("seed " + seed).isLessThan(1e-15);
        assertThat(r.solution()[5000]).isEqualTo(r.solution()[7999]);
    }
}
