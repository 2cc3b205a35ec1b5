package dev.fieldprof.bytecode.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fieldprof.bytecode.CallGraph;
import dev.fieldprof.bytecode.cfg.BytecodeCfg;
import dev.fieldprof.bytecode.cfg.EdgeKind;
import dev.fieldprof.schemas.AnalysisWorld;
import dev.fieldprof.schemas.CallEdges;
import dev.fieldprof.schemas.CfgBlock;
import dev.fieldprof.schemas.CfgEdge;
import dev.fieldprof.schemas.CfgEdgeKind;
import dev.fieldprof.schemas.MethodCfg;
import dev.fieldprof.schemas.ProgramModel;
import dev.fieldprof.schemas.RecordCodec;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ModelStructureTest {
    private static final String A = "<p.A: void a()>";
    private static final String B = "<p.A: int b(int)>";

    private static ProgramModel bare() {
        return ProgramModels.build(
                "app:1",
                Instant.ofEpochMilli(0),
                List.of(B, A),
                List.of(),
                ProgramModels.privacyConfig("default", Math.log(9), 1, 10, 2),
                Map.of());
    }

    /** b(int): block 0 branches to 1 (taken) or 2 (not taken); both return. */
    private static BytecodeCfg branching() {
        return new BytecodeCfg(
                B,
                List.of(
                        new BytecodeCfg.Block(0, 0, 3, 2),
                        new BytecodeCfg.Block(1, 4, 6, 2),
                        new BytecodeCfg.Block(2, 7, 9, 2)),
                List.of(
                        new BytecodeCfg.Edge(0, 0, 1, EdgeKind.BRANCH_TAKEN, null),
                        new BytecodeCfg.Edge(1, 0, 2, EdgeKind.BRANCH_NOT_TAKEN, null)),
                List.of(0),
                List.of(),
                List.of(1, 2));
    }

    private static BytecodeCfg straight() {
        return new BytecodeCfg(
                A,
                List.of(new BytecodeCfg.Block(0, 0, 2, 2)),
                List.of(),
                List.of(),
                List.of(),
                List.of(0));
    }

    @Test
    void carriesCallGraphChainsAndCfgsUnderTheModelsMethodIds() {
        ProgramModel model =
                ModelStructure.attach(
                        bare(),
                        true,
                        new CallGraph(new int[][] {{}, {0}}),
                        List.of(new int[] {1, 0}),
                        List.of(branching(), straight()),
                        Map.of(A, "public method of a library"),
                        Map.of("p.Broken", "corrupt class file"));

        assertThat(model.getWorld()).isEqualTo(AnalysisWorld.LIBRARY);
        assertThat(model.getCallGraph()).containsExactly(new CallEdges(1, List.of(0)));
        assertThat(model.getCallChains()).containsExactly(List.of(1, 0));
        assertThat(model.getCfgs().get(0))
                .isEqualTo(
                        new MethodCfg(
                                0,
                                List.of(
                                        new CfgBlock(0, 3, 2),
                                        new CfgBlock(4, 6, 2),
                                        new CfgBlock(7, 9, 2)),
                                List.of(
                                        new CfgEdge(0, 1, CfgEdgeKind.BRANCH_TAKEN, null),
                                        new CfgEdge(0, 2, CfgEdgeKind.BRANCH_NOT_TAKEN, null)),
                                List.of(0),
                                List.of(),
                                List.of(1, 2)));
        assertThat(model.getUnknownCallers()).containsEntry(A, "public method of a library");
        assertThat(model.getSkipped()).containsEntry("p.Broken", "corrupt class file");

        RecordCodec<ProgramModel> codec = RecordCodec.of(ProgramModel.class);
        assertThat(codec.decode(codec.encode(model))).isEqualTo(model);
    }

    @Test
    void refusesCfgsThatDoNotMatchTheMethods() {
        assertThatThrownBy(
                        () ->
                                ModelStructure.attach(
                                        bare(),
                                        false,
                                        new CallGraph(new int[][] {{}, {}}),
                                        List.of(),
                                        List.of(straight()),
                                        Map.of(),
                                        Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("one CFG per method expected: 1 CFGs for 2 methods");
    }
}
