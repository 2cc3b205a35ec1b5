package dev.fieldprof.diff.estimates;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class MethodAlignmentTest {
    // V1: main -> parse -> {read, tokenize}; main -> render -> {layout, paint}; paint -> paint.
    static final List<String> V1 =
            List.of(
                    "<A: main>",
                    "<A: parse>",
                    "<A: read>",
                    "<A: tokenize>",
                    "<B: render>",
                    "<B: layout>",
                    "<B: paint>");
    static final int[][] CALLS1 = {{1, 4}, {2, 3}, {}, {}, {5, 6}, {}, {6}};

    // V2: tokenize renamed to lex, class B moved to package p (render, layout, paint), and a new
    // method cache under render.
    static final List<String> V2 =
            List.of(
                    "<A: lex>",
                    "<A: main>",
                    "<A: parse>",
                    "<A: read>",
                    "<p.B: cache>",
                    "<p.B: layout>",
                    "<p.B: paint>",
                    "<p.B: render>");
    static final int[][] CALLS2 = {{}, {2, 7}, {3, 0}, {}, {}, {}, {6}, {5, 6, 4}};

    @Test
    void pairsEqualSignaturesOnlyWithoutCallGraphs() {
        MethodAlignment.Result r = MethodAlignment.align(V1, V2, null, 2);
        assertThat(r.pairs())
                .containsExactly(
                        new MethodAlignment.Pair(0, 1, MethodAlignment.Source.SIGNATURE),
                        new MethodAlignment.Pair(1, 2, MethodAlignment.Source.SIGNATURE),
                        new MethodAlignment.Pair(2, 3, MethodAlignment.Source.SIGNATURE));
        assertThat(r.gone()).containsExactly(3, 4, 5, 6);
        assertThat(r.added()).containsExactly(0, 4, 5, 6, 7);
    }

    @Test
    void pairsRenamedAndMovedMethodsByTheCallGraphs() {
        CallGraph[] graphs = {new CallGraph(V1, CALLS1), new CallGraph(V2, CALLS2)};
        MethodAlignment.Result r = MethodAlignment.align(V1, V2, graphs, 2);
        var graph = MethodAlignment.Source.CALL_GRAPH;
        assertThat(r.pairs())
                .containsExactly(
                        new MethodAlignment.Pair(0, 1, MethodAlignment.Source.SIGNATURE),
                        new MethodAlignment.Pair(1, 2, MethodAlignment.Source.SIGNATURE),
                        new MethodAlignment.Pair(2, 3, MethodAlignment.Source.SIGNATURE),
                        new MethodAlignment.Pair(3, 0, graph),
                        new MethodAlignment.Pair(4, 7, graph),
                        new MethodAlignment.Pair(5, 5, graph),
                        new MethodAlignment.Pair(6, 6, graph));
        assertThat(r.gone()).isEmpty();
        assertThat(r.added()).containsExactly(4);
    }

    @Test
    void unfoldsEachMethodOnceAndCutsRecursion() {
        var tree = new CallGraph(V1, CALLS1).unfold();
        // root + 7 methods, paint's self call dropped.
        assertThat(tree.size()).isEqualTo(8);
        assertThat(tree.find(List.of("<A: main>", "<B: render>", "<B: paint>"))).isNotNull();
    }
}
