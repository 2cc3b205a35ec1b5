package dev.fieldprof.bytecode.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fieldprof.schemas.CallEdges;
import dev.fieldprof.schemas.CfgBlock;
import dev.fieldprof.schemas.CfgEdge;
import dev.fieldprof.schemas.CfgEdgeKind;
import dev.fieldprof.schemas.MethodCfg;
import dev.fieldprof.schemas.MethodInfo;
import dev.fieldprof.schemas.OrderPair;
import dev.fieldprof.schemas.PairRule;
import dev.fieldprof.schemas.ProgramModel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A malformed model file is one line naming the problem, never a stack trace or an OOM. */
class ProgramModelsReadTest {
    @TempDir Path dir;

    private static ProgramModel valid() {
        return ProgramModels.build(
                "app:1",
                Instant.ofEpochMilli(0),
                List.of("<a.B: void c()>", "<a.B: void d()>"),
                List.of(new OrderPair(0, 1, PairRule.OTHER)),
                ProgramModels.privacyConfig("default", 1.0, 1, 2, 1),
                Map.of());
    }

    private Path written(ProgramModel model) {
        Path file = dir.resolve("app.model");
        ProgramModels.write(model, file);
        return file;
    }

    private void refused(ProgramModel model, String problem) {
        Path file = written(model);
        assertThatThrownBy(() -> ProgramModels.read(file))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("malformed program model " + file + ": " + problem);
    }

    private static MethodCfg cfg(int method, int from, int to, int branchBlock) {
        return cfg(method, from, to, branchBlock, 0);
    }

    private static MethodCfg cfg(int method, int from, int to, int branchBlock, int backEdge) {
        return MethodCfg.newBuilder()
                .setMethodId(method)
                .setBlocks(List.of(new CfgBlock(0, 1, 1), new CfgBlock(2, 3, 1)))
                .setEdges(List.of(new CfgEdge(from, to, CfgEdgeKind.FALLTHROUGH, null)))
                .setBranchBlocks(List.of(branchBlock))
                .setBackEdges(List.of(backEdge))
                .setExitBlocks(List.of(1))
                .build();
    }

    @Test
    void readsAConsistentModel() {
        ProgramModel model =
                ProgramModel.newBuilder(valid()).setCfgs(List.of(cfg(1, 0, 1, 0))).build();
        assertThat(ProgramModels.read(written(model))).isEqualTo(model);
    }

    @Test
    void refusesMethodIdsThatAreNotTheirIndex() {
        ProgramModel model = valid();
        model.setMethods(
                List.of(
                        new MethodInfo(0, "<a.B: void c()>"),
                        new MethodInfo(2_000_000_000, "<a.B: void d()>")));
        refused(model, "method at index 1 has id 2000000000, expected 1");
        model.setMethods(
                List.of(
                        new MethodInfo(0, "<a.B: void c()>"),
                        new MethodInfo(0, "<a.B: void d()>")));
        refused(model, "method at index 1 has id 0, expected 1");
    }

    @Test
    void refusesADuplicateMethod() {
        ProgramModel model = valid();
        model.setMethods(
                List.of(
                        new MethodInfo(0, "<a.B: void c()>"),
                        new MethodInfo(1, "<a.B: void c()>")));
        refused(model, "method 1 repeats the signature of an earlier method");
    }

    @Test
    void refusesPairsCallsAndChainsNamingMethodsOutsideV() {
        ProgramModel model = valid();
        model.setPairs(List.of(new OrderPair(0, 70_000, PairRule.OTHER)));
        refused(model, "pair 0 names method 70000, outside V (|V| = 2)");
        model.setPairs(List.of(new OrderPair(-1, 1, PairRule.OTHER)));
        refused(model, "pair 0 names method -1, outside V (|V| = 2)");
        model = valid();
        model.setCallGraph(List.of(new CallEdges(0, List.of(1, 9))));
        refused(model, "call graph entry of method 0 names method 9, outside V (|V| = 2)");
        model.setCallGraph(List.of(new CallEdges(0, List.of(1)), new CallEdges(0, List.of(1))));
        refused(model, "call graph lists the callees of method 0 twice");
        model = valid();
        model.setCallChains(List.of(List.of(0, 1), List.of(1, 2)));
        refused(model, "call chain 1 names method 2, outside V (|V| = 2)");
    }

    @Test
    void refusesCfgsNamingMethodsOrBlocksOutOfRange() {
        ProgramModel model = valid();
        model.setCfgs(List.of(cfg(5, 0, 1, 0)));
        refused(model, "CFG names method 5, outside V (|V| = 2)");
        model.setCfgs(List.of(cfg(1, 0, 1, 0), cfg(1, 0, 1, 0)));
        refused(model, "method 1 has two CFGs");
        model.setCfgs(List.of(cfg(1, 0, 1_000_000, 0)));
        refused(model, "CFG of method 1: edge 0 names block 1000000, outside its 2 blocks");
        model.setCfgs(List.of(cfg(1, 0, 1, 2)));
        refused(model, "CFG of method 1: branch block list names block 2, outside its 2 blocks");
        model.setCfgs(List.of(cfg(1, 0, 1, 0, 1)));
        refused(model, "CFG of method 1: back edge list names edge 1, outside its 1 edges");
    }

    @Test
    void refusesATruncatedFileInOneLine() throws Exception {
        Path file = written(valid());
        byte[] whole = Files.readAllBytes(file);
        Files.write(file, Arrays.copyOf(whole, whole.length - 3));
        assertThatThrownBy(() -> ProgramModels.read(file))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("not a fieldprof program model: " + file + " (")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }

    @Test
    void refusesALengthFieldAskingForBillionsOfMethodsWithoutRunningOutOfMemory() throws Exception {
        Path file = written(valid());
        byte[] whole = Files.readAllBytes(file);
        // Header (2 marker bytes, 8 fingerprint bytes), "app:1" (length 5 as zigzag 0x0a, 5
        // bytes), createdAt 0 (0x00): the methods array's item count follows, at offset 17.
        assertThat(whole[10]).isEqualTo((byte) 0x0a);
        assertThat(whole[16]).isEqualTo((byte) 0x00);
        byte[] crafted = Arrays.copyOf(whole, 17 + 5 + 4);
        // 2^30 items: zigzag 2^31 as a varint.
        byte[] count = {(byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, 0x08};
        System.arraycopy(count, 0, crafted, 17, 5);
        Files.write(file, crafted);
        assertThatThrownBy(() -> ProgramModels.read(file))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("not a fieldprof program model: " + file + " (")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }
}
