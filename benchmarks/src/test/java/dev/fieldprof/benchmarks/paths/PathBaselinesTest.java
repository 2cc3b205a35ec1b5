package dev.fieldprof.benchmarks.paths;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.bytecode.cfg.BytecodeCfg;
import dev.fieldprof.bytecode.cfg.EdgeKind;
import dev.fieldprof.paths.PathRecording;
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

    /** entry 0 branches to 1 or 2, both fall into the exit 3: two paths, no loop. */
    static final BytecodeCfg DIAMOND =
            new BytecodeCfg(
                    "<t: void diamond()>",
                    List.of(
                            new BytecodeCfg.Block(0, 0, 0, 1),
                            new BytecodeCfg.Block(1, 1, 1, 1),
                            new BytecodeCfg.Block(2, 2, 2, 1),
                            new BytecodeCfg.Block(3, 3, 3, 1)),
                    List.of(
                            new BytecodeCfg.Edge(0, 0, 2, EdgeKind.BRANCH_TAKEN, null),
                            new BytecodeCfg.Edge(1, 0, 1, EdgeKind.BRANCH_NOT_TAKEN, null),
                            new BytecodeCfg.Edge(2, 1, 3, EdgeKind.FALLTHROUGH, null),
                            new BytecodeCfg.Edge(3, 2, 3, EdgeKind.JUMP, null)),
                    List.of(0),
                    List.of(),
                    List.of(3));

    @Test
    void countsBallLarusPathIdsAtBackEdgesAndPapProductsOnInEdges() {
        PathRecording run = new PathRecording();
        run.enter(0);
        run.branch(0, 1, 1); // into the body
        run.branch(0, 1, 1); // back edge, body again
        run.branch(0, 1, 0); // back edge, leave
        run.exit(0, false);
        PathBaselines.Costs c = PathBaselines.measure(Map.of(0, LOOP), 2, run);
        // DAG paths: {0→1→3, 0→1→2→X} twice (real and dummy entry edge) = 4: 2-bit ids;
        // three paths: two back edges and the exit.
        assertThat(c.blppPaths()).isEqualTo(3);
        assertThat(c.blppBits()).isEqualTo(6);
        // Node 1 has in-edges (0→1: 0, 2→1: 1): r = 0, then 1, then 3. A method with a loop
        // writes gamma(breakpoints + 1) = 1 bit and delta(r + 1 = 4) = 2 + gamma(3) = 5 bits.
        assertThat(c.papBits()).isEqualTo(6);
        assertThat(c.fixedBits()).isEqualTo(6);
        assertThat(c.papLowerBoundBits()).isEqualTo(2);
        assertThat(c.breakpoints()).isZero();
        assertThat(c.invocations()).isEqualTo(1);
        assertThat(c.branchDecisions()).isEqualTo(3);
        // Calls: the outermost frame's gamma(1 + 1) = 3 bits and one id of ceil(log2 2) = 1 bit;
        // the method's exit kind (1) and gamma(0 + 1) = 1.
        assertThat(c.callBits()).isEqualTo(3 + 1 + 1 + 1);
        // Node 1 took edge 1 twice and edge 0 once: 3 * H(1/3) = 2.755 bits.
        assertThat(c.nodeEntropyBits())
                .isCloseTo(2.7549, org.assertj.core.data.Offset.offset(1e-4));
    }

    @Test
    void loopFreeMethodsWriteFixedWidthsFromTheCfg() {
        PathRecording run = new PathRecording();
        for (int i = 0; i < 4; i++) {
            run.enter(0);
            run.branch(0, 0, i % 2);
            if (i == 3) {
                run.enter(0); // a call from block 1 or 2, after the method's one decision
                run.branch(0, 0, 0);
                run.exit(0, true);
            }
            run.exit(0, false);
        }
        PathBaselines.Costs c = PathBaselines.measure(Map.of(0, DIAMOND), 5, run);
        // Two Ball-Larus paths: 1-bit ids, one per invocation (5), plus the exceptional exit's
        // node (2 bits).
        assertThat(c.blppBits()).isEqualTo(5 + 2);
        assertThat(c.fixedBits()).isEqualTo(5 + 2);
        // PAP: node 3 merges two in-edges, so r is 0 or 1: a 1-bit width from the CFG; the
        // exceptional exit left from block 2 with r = 0 (no merge passed): 1 bit and the node.
        assertThat(c.papBits()).isEqualTo(5 + 2);
        // Calls: outermost gamma(5) = 5 and 4 ids of 3 bits; per invocation 1 exit bit and
        // gamma(calls + 1): 4 x (1 + 1) + (1 + 1) for the callee, and for the caller with a call
        // 1 + gamma(2) = 4 and the call's id and position: 3 + ceil(log2 2) = 4 bits.
        assertThat(c.callBits()).isEqualTo(5 + 12 + 3 * 2 + 2 + 4 + 4);
        // Five decisions at node 0: 3 x edge 0, 2 x edge 1.
        assertThat(c.nodeEntropyBits())
                .isCloseTo(
                        3 * Math.log(5.0 / 3) / Math.log(2) + 2 * Math.log(5.0 / 2) / Math.log(2),
                        org.assertj.core.data.Offset.offset(1e-9));
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
        PathBaselines.Costs c = PathBaselines.measure(Map.of(0, LOOP), 1, run);
        // Each of the 70 back edges doubles r and adds 1: after 64, r = 2^64 - 1; the 65th
        // overflows (one breakpoint: 64 + 2 bits) and restarts at 1; 5 more give r = 63:
        // gamma(2) = 3 bits of breakpoint count and delta(64) = 6 + gamma(7) = 11 bits.
        assertThat(c.breakpoints()).isEqualTo(1);
        assertThat(c.papBits()).isEqualTo(64 + 2 + 3 + 11);
        assertThat(c.papLowerBoundBits()).isEqualTo(64 + 2 + 6);
        assertThat(c.blppPaths()).isEqualTo(71);
    }
}
