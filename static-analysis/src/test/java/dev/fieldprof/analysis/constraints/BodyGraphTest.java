package dev.fieldprof.analysis.constraints;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class BodyGraphTest {

    // 0 -> 1 -> 3, 0 -> 2 -> 3 (a diamond); 3 returns.
    private static final int[][] DIAMOND = {{1, 2}, {3}, {3}, {}};

    @Test
    void aStatementOnEveryPathDominatesTheExits() {
        BodyGraph graph = new BodyGraph(DIAMOND, new boolean[] {false, false, false, true});
        assertThat(graph.dominatesExits(0)).isTrue();
        assertThat(graph.dominatesExits(1)).isFalse();
        assertThat(graph.dominatesExits(2)).isFalse();
        assertThat(graph.dominatesExits(3)).isTrue();
    }

    @Test
    void anImplicitExceptionExitBeforeTheCallBreaksDominance() {
        boolean[] exits = {false, true, false, true};
        boolean[] explicit = {false, false, false, true};
        BodyGraph graph = new BodyGraph(DIAMOND, exits, explicit);
        assertThat(graph.dominatesExits(3)).isFalse();
        assertThat(graph.dominatesExplicitExits(3)).isTrue();
        assertThat(graph.dominatesExits(0)).isTrue();
    }

    @Test
    void marksExactlyTheStatementsOnCycles() {
        // 0 -> 1 -> 2 -> 1 (loop), 2 -> 3, 3 -> 3 (self-loop), 3 -> 4.
        int[][] successors = {{1}, {2}, {1, 3}, {3, 4}, {}};
        BodyGraph graph =
                new BodyGraph(successors, new boolean[] {false, false, false, false, true});
        assertThat(graph.onCycle()).containsExactly(false, true, true, true, false);
    }

    @Test
    void handlesLongChainsWithoutRecursion() {
        int n = 200_000;
        int[][] successors = new int[n][];
        boolean[] exits = new boolean[n];
        for (int i = 0; i < n - 1; i++) {
            successors[i] = new int[] {i + 1};
        }
        successors[n - 1] = new int[] {0};
        exits[n - 1] = true;
        BodyGraph graph = new BodyGraph(successors, exits);
        boolean[] onCycle = graph.onCycle();
        assertThat(onCycle[0]).isTrue();
        assertThat(onCycle[n - 1]).isTrue();
        assertThat(graph.dominatesExits(n / 2)).isTrue();
    }
}
