package dev.fieldprof.benchmarks.paths;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.analysis.cfg.BytecodeCfg;
import dev.fieldprof.analysis.cfg.EdgeKind;
import dev.fieldprof.client.paths.PathRecording;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PathBaselinesTest {
    /** entry 0 → loop head 1 (taken: exit 3, fall-through: body 2), body 2 → 1 (back edge). */
    static final BytecodeCfg LOOP =
            new BytecodeCfg(
                    "<t: void loop()>",
                    List.of(
                            new BytecodeCfg.Block(0, 0, 0, 1),
                            new BytecodeCfg.Block(1, 1, 1, 1),
                            new BytecodeCfg.Block(2, 2, 2, 1),
                            new BytecodeCfg.Block(3, 3, 3, 1)),
                    List.of(
                            new BytecodeCfg.Edge(0, 0, 1, EdgeKind.FALLTHROUGH, null),
                            new BytecodeCfg.Edge(1, 1, 3, EdgeKind.BRANCH_TAKEN, null),
                            new BytecodeCfg.Edge(2, 1, 2, EdgeKind.BRANCH_NOT_TAKEN, null),
                            new BytecodeCfg.Edge(3, 2, 1, EdgeKind.JUMP, null)),
                    List.of(1),
                    List.of(3),
                    List.of(3));

    @Test
    void countsBallLarusPathIdsAtBackEdgesAndPapProductsOnInEdges() {
        PathRecording run = new PathRecording();
        run.enter(0);
        run.branch(0, 1, 1); // into the body
        run.branch(0, 1, 1); // back edge, body again
        run.branch(0, 1, 0); // back edge, leave
        run.exit(0, false);
        PathBaselines.Costs c = PathBaselines.measure(Map.of(0, LOOP), run);
        // DAG paths: {0→1→3, 0→1→2→X} twice (real and dummy entry edge) = 4: 2-bit ids;
        // three paths: two back edges and the exit.
        assertThat(c.blppPaths()).isEqualTo(3);
        assertThat(c.blppBits()).isEqualTo(6);
        // Node 1 has in-edges (0→1: 0, 2→1: 1): r = 0, then 1, then 3 — 2 bits at the exit.
        assertThat(c.papBits()).isEqualTo(2);
        assertThat(c.pap64Bits()).isEqualTo(64);
        assertThat(c.breakpoints()).isZero();
        assertThat(c.invocations()).isEqualTo(1);
    }

    @Test
    void writesABreakpointWithTheNodeWhenTheProductOverflows() {
        PathRecording run = new PathRecording();
        run.enter(0);
        for (int i = 0; i < 70; i++) {
            run.branch(0, 1, 1);
        }
        run.branch(0, 1, 0);
        run.exit(0, false);
        PathBaselines.Costs c = PathBaselines.measure(Map.of(0, LOOP), run);
        // Each of the 70 back edges doubles r and adds 1: after 64, r = 2^64 - 1; the 65th
        // overflows (one breakpoint: 64 + 2 bits) and restarts at 1; 5 more give r = 63: 6 bits.
        assertThat(c.breakpoints()).isEqualTo(1);
        assertThat(c.papBits()).isEqualTo(64 + 2 + 6);
        assertThat(c.pap64Bits()).isEqualTo(64 + 2 + 64);
        assertThat(c.blppPaths()).isEqualTo(71);
    }
}
