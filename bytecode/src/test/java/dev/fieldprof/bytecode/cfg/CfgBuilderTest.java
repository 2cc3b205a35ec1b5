package dev.fieldprof.bytecode.cfg;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.Label;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.MethodNode;

class CfgBuilderTest {

    private static List<String> edges(BytecodeCfg cfg) {
        return cfg.edges().stream()
                .map(
                        e ->
                                e.id()
                                        + ":"
                                        + e.from()
                                        + "->"
                                        + e.to()
                                        + " "
                                        + e.kind()
                                        + (e.label() == null ? "" : " " + e.label()))
                .toList();
    }

    @Test
    void splitsLoopIntoBlocksWithOneBackEdge() {
        MethodNode method = new MethodNode(Opcodes.ACC_STATIC, "loop", "(I)I", null, null);
        Label head = new Label();
        Label done = new Label();
        method.visitCode();
        method.visitInsn(Opcodes.ICONST_0);
        method.visitVarInsn(Opcodes.ISTORE, 1);
        method.visitLabel(head);
        method.visitVarInsn(Opcodes.ILOAD, 1);
        method.visitVarInsn(Opcodes.ILOAD, 0);
        method.visitJumpInsn(Opcodes.IF_ICMPGE, done);
        method.visitIincInsn(1, 1);
        method.visitJumpInsn(Opcodes.GOTO, head);
        method.visitLabel(done);
        method.visitVarInsn(Opcodes.ILOAD, 1);
        method.visitInsn(Opcodes.IRETURN);
        method.visitEnd();

        BytecodeCfg cfg = CfgBuilder.build("<X: int loop(int)>", method);
        assertThat(cfg.blocks())
                .extracting(BytecodeCfg.Block::opcodeCount)
                .containsExactly(2, 3, 2, 2);
        assertThat(edges(cfg))
                .containsExactly(
                        "0:0->1 FALLTHROUGH",
                        "1:1->3 BRANCH_TAKEN",
                        "2:1->2 BRANCH_NOT_TAKEN",
                        "3:2->1 JUMP");
        assertThat(cfg.branchBlocks()).containsExactly(1);
        assertThat(cfg.backEdges()).containsExactly(3);
        assertThat(cfg.exitBlocks()).containsExactly(3);
    }

    @Test
    void mergesSwitchKeysThatShareATarget() {
        MethodNode method = new MethodNode(Opcodes.ACC_STATIC, "sw", "(I)I", null, null);
        Label one = new Label();
        Label two = new Label();
        Label other = new Label();
        method.visitCode();
        method.visitVarInsn(Opcodes.ILOAD, 0);
        method.visitTableSwitchInsn(0, 2, other, one, two, one);
        method.visitLabel(one);
        method.visitInsn(Opcodes.ICONST_1);
        method.visitInsn(Opcodes.IRETURN);
        method.visitLabel(two);
        method.visitInsn(Opcodes.ICONST_2);
        method.visitInsn(Opcodes.IRETURN);
        method.visitLabel(other);
        method.visitInsn(Opcodes.ICONST_M1);
        method.visitInsn(Opcodes.IRETURN);
        method.visitEnd();

        BytecodeCfg cfg = CfgBuilder.build("<X: int sw(int)>", method);
        assertThat(edges(cfg))
                .containsExactly(
                        "0:0->1 SWITCH_CASE 0,2", "1:0->2 SWITCH_CASE 1", "2:0->3 SWITCH_DEFAULT");
        assertThat(cfg.branchBlocks()).containsExactly(0);
        assertThat(cfg.backEdges()).isEmpty();
        assertThat(cfg.exitBlocks()).containsExactly(1, 2, 3);
    }

    @Test
    void addsExceptionEdgesFromEveryBlockInsideATryRange() {
        MethodNode method = new MethodNode(Opcodes.ACC_STATIC, "tc", "()I", null, null);
        LabelNode start = new LabelNode();
        LabelNode end = new LabelNode();
        LabelNode handler = new LabelNode();
        method.visitCode();
        method.visitTryCatchBlock(
                start.getLabel(), end.getLabel(), handler.getLabel(), "java/lang/RuntimeException");
        method.visitLabel(start.getLabel());
        method.visitMethodInsn(Opcodes.INVOKESTATIC, "Y", "work", "()V", false);
        method.visitLabel(end.getLabel());
        method.visitInsn(Opcodes.ICONST_0);
        method.visitInsn(Opcodes.IRETURN);
        method.visitLabel(handler.getLabel());
        method.visitInsn(Opcodes.POP);
        method.visitInsn(Opcodes.ICONST_1);
        method.visitInsn(Opcodes.IRETURN);
        method.visitEnd();

        BytecodeCfg cfg = CfgBuilder.build("<X: int tc()>", method);
        assertThat(cfg.blocks())
                .extracting(BytecodeCfg.Block::opcodeCount)
                .containsExactly(1, 2, 3);
        assertThat(edges(cfg))
                .containsExactly(
                        "0:0->1 FALLTHROUGH", "1:0->2 EXCEPTION java.lang.RuntimeException");
        assertThat(cfg.branchBlocks()).isEmpty();
        assertThat(cfg.exitBlocks()).containsExactly(1, 2);
    }
}
