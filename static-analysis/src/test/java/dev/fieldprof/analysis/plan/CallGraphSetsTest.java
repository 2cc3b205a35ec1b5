package dev.fieldprof.analysis.plan;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Roots, call-chain events and root clusters of a small call graph. */
class CallGraphSetsTest {

    // 0 -> 1 -> 2 -> 1 (recursion), 0 -> 3; 4 isolated; 5 <-> 6 call only each other; 3 has
    // unknown callers.
    static final ModelCallGraph GRAPH =
            new ModelCallGraph(
                    new int[][] {{1, 3}, {2}, {1}, {}, {}, {6}, {5}},
                    new boolean[] {false, false, false, true, false, false, false});

    static List<List<Integer>> lists(ProbeSets sets) {
        List<List<Integer>> result = new ArrayList<>();
        for (int i = 0; i < sets.size(); i++) {
            result.add(java.util.Arrays.stream(sets.members(i)).boxed().toList());
        }
        return result;
    }

    @Test
    void rootsAreUncalledMethodsMethodsWithUnknownCallersAndOneMethodOfEachUnreachedCycle() {
        assertThat(GRAPH.roots()).containsExactly(0, 3, 4, 5);
    }

    @Test
    void eventsAreBoundedChainsTakenFromTheRootsInTurn() {
        assertThat(lists(CallChainEvents.of(GRAPH, 8, 100)))
                .containsExactly(
                        List.of(0, 1, 2), List.of(3), List.of(4), List.of(5, 6), List.of(0, 3));
        assertThat(lists(CallChainEvents.of(GRAPH, 2, 100)))
                .containsExactly(
                        List.of(0, 1), List.of(3), List.of(4), List.of(5, 6), List.of(0, 3));
        assertThat(lists(CallChainEvents.of(GRAPH, 8, 3)))
                .containsExactly(List.of(0, 1, 2), List.of(3), List.of(4));
    }

    @Test
    void clustersAreARootAndWhatItReachesBreadthFirstUpToTheBound() {
        assertThat(lists(RootClusters.of(GRAPH, 64)))
                .containsExactly(List.of(0, 1, 2, 3), List.of(3), List.of(4), List.of(5, 6));
        assertThat(lists(RootClusters.of(GRAPH, 3)))
                .containsExactly(List.of(0, 1, 3), List.of(3), List.of(4), List.of(5, 6));
    }
}
