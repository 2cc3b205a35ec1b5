package dev.fieldprof.paths;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.fieldprof.schemas.CfgBlock;
import dev.fieldprof.schemas.CfgEdge;
import dev.fieldprof.schemas.CfgEdgeKind;
import dev.fieldprof.schemas.MethodCfg;
import dev.fieldprof.schemas.MethodInfo;
import dev.fieldprof.schemas.ProgramModel;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProgramModelBranchesTest {

    private static CfgEdge edge(int from, int to, CfgEdgeKind kind) {
        return new CfgEdge(from, to, kind, null);
    }

    private static MethodCfg cfg(int id, int blocks, List<CfgEdge> edges, List<Integer> branch) {
        List<CfgBlock> b = new ArrayList<>();
        for (int i = 0; i < blocks; i++) {
            b.add(new CfgBlock(i, i, 1));
        }
        return new MethodCfg(id, b, edges, branch, List.of(), List.of());
    }

    private static ProgramModel model(int methods, List<MethodCfg> cfgs) {
        List<MethodInfo> v = new ArrayList<>();
        for (int i = 0; i < methods; i++) {
            v.add(new MethodInfo(i, "<p.A: void m" + i + "()>"));
        }
        return ProgramModel.newBuilder()
                .setAppVersion("app:1")
                .setCreatedAtMillis(Instant.EPOCH)
                .setMethods(v)
                .setPairs(List.of())
                .setPrivacyConfigs(List.of())
                .setCfgs(cfgs)
                .build();
    }

    @Test
    void countsNormalOutEdgesOfBranchBlocksAndIgnoresExceptionEdges() {
        // Method 0: block 0 is a conditional jump (taken, not taken) inside a try block (one
        // exception edge); block 2 a switch with three distinct targets. Method 2: a block whose
        // only second out-edge is an exception edge, which no probe codes.
        MethodCfg m0 =
                cfg(
                        0,
                        6,
                        List.of(
                                edge(0, 1, CfgEdgeKind.BRANCH_TAKEN),
                                edge(0, 2, CfgEdgeKind.BRANCH_NOT_TAKEN),
                                edge(0, 5, CfgEdgeKind.EXCEPTION),
                                edge(2, 3, CfgEdgeKind.SWITCH_CASE),
                                edge(2, 4, CfgEdgeKind.SWITCH_CASE),
                                edge(2, 5, CfgEdgeKind.SWITCH_DEFAULT)),
                        List.of(0, 2));
        MethodCfg m2 =
                cfg(
                        2,
                        3,
                        List.of(
                                edge(0, 1, CfgEdgeKind.FALLTHROUGH),
                                edge(0, 2, CfgEdgeKind.EXCEPTION)),
                        List.of(0));
        ArrayBranchTable table = ProgramModelBranches.table(model(3, List.of(m0, m2)));

        assertEquals("fieldprof-branches 1\nmethods 3\n0 0:2 2:3\n", BranchTableText.toText(table));
        assertEquals(table.methodCount(), 3);
        assertEquals(
                EdgeModel.branchFingerprint(table),
                EdgeModel.branchFingerprint(BranchTableText.parse(BranchTableText.toText(table))));
    }

    @Test
    void tellsModelsWithoutCfgs() {
        assertFalse(ProgramModelBranches.hasCfgs(model(2, List.of())));
        assertTrue(
                ProgramModelBranches.hasCfgs(model(1, List.of(cfg(0, 1, List.of(), List.of())))));
        assertEquals(
                "fieldprof-branches 1\nmethods 2\n",
                BranchTableText.toText(ProgramModelBranches.table(model(2, List.of()))));
    }

    @Test
    void rejectsCfgOfUnknownOrRepeatedMethod() {
        MethodCfg seven = cfg(7, 1, List.of(), List.of());
        IllegalArgumentException e =
                assertThrows(
                        IllegalArgumentException.class,
                        () -> ProgramModelBranches.table(model(2, List.of(seven))));
        assertEquals("CFG of method id 7: outside [0, 2) or repeated", e.getMessage());
        MethodCfg zero = cfg(0, 1, List.of(), List.of());
        assertThrows(
                IllegalArgumentException.class,
                () -> ProgramModelBranches.table(model(2, List.of(zero, zero))));
    }
}
