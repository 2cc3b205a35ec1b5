package dev.fieldprof.bytecode;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class CallGraphTest {

    // 0 -> 1 -> 2 -> 1 (recursion), 0 -> 3; 4 is isolated.
    private final CallGraph graph = new CallGraph(new int[][] {{1, 3}, {2}, {1}, {}, {}});

    private static List<List<Integer>> lists(List<int[]> chains) {
        return chains.stream().map(c -> java.util.Arrays.stream(c).boxed().toList()).toList();
    }

    @Test
    void rootsAreMethodsWithoutApplicationCallers() {
        assertThat(graph.roots()).containsExactly(0, 4);
        assertThat(graph.callers(1)).containsExactly(0, 2);
        assertThat(graph.edgeCount()).isEqualTo(4);
    }

    @Test
    void chainsAreMaximalPathsWithoutRepeatsWithinBounds() {
        assertThat(lists(graph.chains(8, 100)))
                .containsExactly(List.of(0, 1, 2), List.of(0, 3), List.of(4));
        assertThat(lists(graph.chains(2, 100)))
                .containsExactly(List.of(0, 1), List.of(0, 3), List.of(4));
        assertThat(lists(graph.chains(8, 1))).containsExactly(List.of(0, 1, 2));
    }
}
