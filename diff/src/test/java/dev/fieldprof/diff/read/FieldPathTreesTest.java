package dev.fieldprof.diff.read;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.client.PathProbes;
import dev.fieldprof.client.tracing.EdgeModelStore;
import dev.fieldprof.client.tracing.PathTracer;
import dev.fieldprof.diff.cct.CallingContextTree;
import dev.fieldprof.paths.ArrayBranchTable;
import dev.fieldprof.paths.BranchTableText;
import dev.fieldprof.schemas.PathReport;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Field path reports made by the real device tracer ({@link PathTracer} behind {@link PathProbes})
 * and coded by its PathEncoder, read back into a calling-context tree with exact invocation counts.
 */
class FieldPathTreesTest {
    static final ArrayBranchTable TABLE =
            BranchTableText.parse("fieldprof-branches 1\nmethods 3\n0 0:2 5:3\n1 2:2\n");
    static final List<String> SIGNATURES =
            List.of(
                    "<app.Main: void main()>",
                    "<app.Walk: void recurse(int)>",
                    "<app.Io: void fail()>");

    final List<PathReport> sent = new ArrayList<>();

    @AfterEach
    void off() {
        PathProbes.uninstall();
    }

    /** main loops 400 times: recurse(i % 4) (1 to 4 nested entries), every 25th a throwing call. */
    static void workload(int iterations) {
        Object h = PathProbes.enter(0);
        for (int i = 0; i < iterations; i++) {
            PathProbes.branch(h, 0, 0, i % 9 == 8 ? 1 : 0);
            recurse(i % 4);
            if (i % 25 == 24) {
                Object h2 = PathProbes.enter(2);
                Object h1 = PathProbes.enter(1);
                PathProbes.exitExceptionally(h1, 1);
                PathProbes.exitExceptionally(h2, 2);
            }
        }
        PathProbes.branch(h, 0, 0, 1);
        PathProbes.exit(h, 0);
    }

    static void recurse(int depth) {
        Object h = PathProbes.enter(1);
        PathProbes.branch(h, 1, 2, depth == 0 ? 1 : 0);
        if (depth > 0) {
            recurse(depth - 1);
        }
        PathProbes.exit(h, 1);
    }

    private CallingContextTree read(int maxReportBytes) {
        EdgeModelStore store = new EdgeModelStore("app:1", TABLE);
        PathTracer tracer =
                new PathTracer("device-1", "app:1", 0, store, sent::add, maxReportBytes, false);
        PathProbes.install(tracer);
        workload(400);
        tracer.endEpoch();
        FieldPathTrees trees =
                new FieldPathTrees(
                        SIGNATURES,
                        (version, writer) ->
                                version == store.current().version() ? store.current() : null);
        sent.forEach(trees::add);
        assertThat(trees.reports()).isEqualTo(sent.size());
        assertThat(trees.skipped()).isZero();
        return trees.tree();
    }

    private static void assertInvocations(CallingContextTree tree) {
        String main = SIGNATURES.get(0);
        String walk = SIGNATURES.get(1);
        String fail = SIGNATURES.get(2);
        assertThat(tree.find(List.of(main)).inclusive()).isEqualTo(1 + 400 + 300 + 200 + 100 + 32);
        assertThat(tree.find(List.of(main)).exclusive()).isEqualTo(1);
        assertThat(tree.find(List.of(main, walk)).exclusive()).isEqualTo(400);
        assertThat(tree.find(List.of(main, walk, walk)).exclusive()).isEqualTo(300);
        assertThat(tree.find(List.of(main, walk, walk, walk)).exclusive()).isEqualTo(200);
        assertThat(tree.find(List.of(main, walk, walk, walk, walk)).exclusive()).isEqualTo(100);
        assertThat(tree.find(List.of(main, fail)).exclusive()).isEqualTo(16);
        assertThat(tree.find(List.of(main, fail, walk)).exclusive()).isEqualTo(16);
        assertThat(tree.size()).isEqualTo(1 + 7);
    }

    @Test
    void countsInvocationsPerCallingContextFromOneReport() {
        CallingContextTree tree = read(1 << 20);
        assertThat(sent).hasSize(1);
        assertInvocations(tree);
    }

    @Test
    void continuesOpenFramesAcrossReportsCutBySize() {
        CallingContextTree tree = read(16);
        assertThat(sent.size()).isGreaterThan(5);
        assertInvocations(tree);
    }

    @Test
    void skipsReportsOfUnknownModels() {
        EdgeModelStore store = new EdgeModelStore("app:1", TABLE);
        PathTracer tracer =
                new PathTracer("device-1", "app:1", 0, store, sent::add, 1 << 20, false);
        PathProbes.install(tracer);
        workload(10);
        tracer.endEpoch();
        FieldPathTrees trees = new FieldPathTrees(SIGNATURES, (version, writer) -> null);
        assertThat(trees.add(sent.get(0))).isFalse();
        assertThat(trees.skipped()).isEqualTo(1);
        assertThat(trees.tree().totalCost()).isZero();
    }
}
