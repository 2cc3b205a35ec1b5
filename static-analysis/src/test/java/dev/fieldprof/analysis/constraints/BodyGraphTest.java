package dev.fieldprof.analysis.constraints;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
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

    @Test
    void dominanceOfTheExitsIsExactlyWhatATraversalThatStopsAtTheNodeFinds() {
        // Random graphs with loops, unreachable nodes, exits with successors and no reachable
        // exit at all: every node's answer equals the definition's traversal.
        Random random = new Random(20261127L);
        int compared = 0;
        int dominating = 0;
        for (int round = 0; round < 3000; round++) {
            int n = 1 + random.nextInt(24);
            int[][] successors = new int[n][];
            boolean[] exits = new boolean[n];
            boolean[] explicit = new boolean[n];
            for (int v = 0; v < n; v++) {
                successors[v] = new int[random.nextInt(4)];
                for (int k = 0; k < successors[v].length; k++) {
                    successors[v][k] = random.nextInt(n);
                }
                exits[v] = random.nextInt(5) == 0;
                explicit[v] = exits[v] && random.nextBoolean();
            }
            BodyGraph graph = new BodyGraph(successors, exits, explicit);
            for (int v = 0; v < n; v++) {
                boolean expected = traversalFindsNoExit(successors, exits, v);
                assertThat(graph.dominatesExits(v))
                        .as("round %d node %d", round, v)
                        .isEqualTo(expected);
                assertThat(graph.dominatesExplicitExits(v))
                        .as("round %d node %d (explicit)", round, v)
                        .isEqualTo(traversalFindsNoExit(successors, explicit, v));
                compared++;
                dominating += expected ? 1 : 0;
            }
        }
        assertThat(compared).isEqualTo(37_428);
        assertThat(dominating).isBetween(1, compared - 1);
    }

    /** The definition: a traversal from the entry that stops at {@code node} reaches no exit. */
    private static boolean traversalFindsNoExit(int[][] successors, boolean[] exits, int node) {
        boolean[] seen = new boolean[successors.length];
        java.util.ArrayDeque<Integer> work = new java.util.ArrayDeque<>();
        work.push(0);
        seen[0] = true;
        while (!work.isEmpty()) {
            int current = work.pop();
            if (current == node) {
                continue;
            }
            if (exits[current]) {
                return false;
            }
            for (int next : successors[current]) {
                if (!seen[next]) {
                    seen[next] = true;
                    work.push(next);
                }
            }
        }
        return true;
    }
}
