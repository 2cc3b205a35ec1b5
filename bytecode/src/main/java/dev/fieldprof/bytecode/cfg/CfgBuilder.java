package dev.fieldprof.bytecode.cfg;

import dev.fieldprof.bytecode.MethodSignatures;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LookupSwitchInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TableSwitchInsnNode;
import org.objectweb.asm.tree.TryCatchBlockNode;

/**
 * Builds {@link BytecodeCfg}s with ASM: basic blocks split at jump, switch and handler targets, at
 * try-range boundaries (so each block is wholly inside or outside a handler's range) and after
 * every jump, switch, return and throw.
 */
public final class CfgBuilder {

    private CfgBuilder() {}

    /** CFGs of the methods of one class file whose signatures {@code wanted} contains. */
    public static Map<String, BytecodeCfg> forClass(byte[] classBytes, Set<String> wanted) {
        ClassNode node = new ClassNode();
        new ClassReader(classBytes).accept(node, ClassReader.SKIP_FRAMES);
        Map<String, BytecodeCfg> out = new TreeMap<>();
        for (MethodNode method : node.methods) {
            String signature = MethodSignatures.sootSignature(node.name, method.name, method.desc);
            if (wanted.contains(signature) && method.instructions.size() > 0) {
                out.put(signature, build(signature, method));
            }
        }
        return out;
    }

    /** The CFG of one method with code. */
    public static BytecodeCfg build(String signature, MethodNode method) {
        AbstractInsnNode[] insns = method.instructions.toArray();
        int n = insns.length;
        boolean[] leader = new boolean[n + 1];
        for (TryCatchBlockNode tryCatch : method.tryCatchBlocks) {
            leader[method.instructions.indexOf(tryCatch.start)] = true;
            leader[method.instructions.indexOf(tryCatch.end)] = true;
            leader[method.instructions.indexOf(tryCatch.handler)] = true;
        }
        for (int i = 0; i < n; i++) {
            AbstractInsnNode insn = insns[i];
            for (LabelNode target : targets(insn)) {
                leader[method.instructions.indexOf(target)] = true;
            }
            if (endsBlock(insn)) {
                leader[i + 1] = true;
            }
        }

        // Blocks: ranges that hold at least one real instruction; a leader starts a new block
        // only once the current one has a real instruction, so runs of labels merge.
        List<int[]> ranges = new ArrayList<>();
        int[] blockOf = new int[n];
        int start = 0;
        int real = 0;
        for (int i = 0; i < n; i++) {
            if (leader[i] && real > 0) {
                ranges.add(new int[] {start, i - 1, real});
                start = i;
                real = 0;
            }
            if (insns[i].getOpcode() >= 0) {
                real++;
            }
            blockOf[i] = ranges.size();
        }
        if (real > 0) {
            ranges.add(new int[] {start, n - 1, real});
        } else if (!ranges.isEmpty()) {
            // Trailing labels only: they belong to the last block.
            int[] last = ranges.get(ranges.size() - 1);
            last[1] = n - 1;
            for (int i = start; i < n; i++) {
                blockOf[i] = ranges.size() - 1;
            }
        }
        List<BytecodeCfg.Block> blocks = new ArrayList<>();
        for (int b = 0; b < ranges.size(); b++) {
            int[] r = ranges.get(b);
            blocks.add(new BytecodeCfg.Block(b, r[0], r[1], r[2]));
        }

        List<BytecodeCfg.Edge> edges = new ArrayList<>();
        List<Integer> branchBlocks = new ArrayList<>();
        List<Integer> exitBlocks = new ArrayList<>();
        List<List<Integer>> successors = new ArrayList<>();
        for (int b = 0; b < blocks.size(); b++) {
            successors.add(new ArrayList<>());
        }
        for (BytecodeCfg.Block block : blocks) {
            AbstractInsnNode last = lastReal(insns, block);
            Map<Integer, String[]> normal = new LinkedHashMap<>();
            int next = block.id() + 1 < blocks.size() ? block.id() + 1 : -1;
            int opcode = last.getOpcode();
            if (last instanceof JumpInsnNode jump) {
                int target = blockOf[method.instructions.indexOf(jump.label)];
                if (opcode == Opcodes.GOTO) {
                    normal.put(target, new String[] {EdgeKind.JUMP.name(), null});
                } else if (opcode == Opcodes.JSR) {
                    normal.put(target, new String[] {EdgeKind.JUMP.name(), null});
                } else {
                    normal.put(target, new String[] {EdgeKind.BRANCH_TAKEN.name(), null});
                    if (next >= 0) {
                        normal.putIfAbsent(
                                next, new String[] {EdgeKind.BRANCH_NOT_TAKEN.name(), null});
                    }
                }
            } else if (last instanceof TableSwitchInsnNode table) {
                for (int k = 0; k < table.labels.size(); k++) {
                    addCase(
                            normal,
                            blockOf[method.instructions.indexOf(table.labels.get(k))],
                            table.min + k);
                }
                addDefault(normal, blockOf[method.instructions.indexOf(table.dflt)]);
            } else if (last instanceof LookupSwitchInsnNode lookup) {
                for (int k = 0; k < lookup.labels.size(); k++) {
                    addCase(
                            normal,
                            blockOf[method.instructions.indexOf(lookup.labels.get(k))],
                            lookup.keys.get(k));
                }
                addDefault(normal, blockOf[method.instructions.indexOf(lookup.dflt)]);
            } else if (isExit(opcode)) {
                exitBlocks.add(block.id());
            } else if (next >= 0) {
                normal.put(next, new String[] {EdgeKind.FALLTHROUGH.name(), null});
            }
            for (Map.Entry<Integer, String[]> edge : normal.entrySet()) {
                edges.add(
                        new BytecodeCfg.Edge(
                                edges.size(),
                                block.id(),
                                edge.getKey(),
                                EdgeKind.valueOf(edge.getValue()[0]),
                                edge.getValue()[1]));
                successors.get(block.id()).add(edge.getKey());
            }
            if (normal.size() >= 2) {
                branchBlocks.add(block.id());
            }
            Map<Integer, String> handlers = new LinkedHashMap<>();
            for (TryCatchBlockNode tryCatch : method.tryCatchBlocks) {
                int from = method.instructions.indexOf(tryCatch.start);
                int to = method.instructions.indexOf(tryCatch.end);
                int firstReal = firstReal(insns, block);
                if (firstReal >= from && firstReal < to) {
                    int handler = blockOf[method.instructions.indexOf(tryCatch.handler)];
                    String type = tryCatch.type == null ? "any" : tryCatch.type.replace('/', '.');
                    handlers.merge(handler, type, (a, b) -> a + "|" + b);
                }
            }
            for (Map.Entry<Integer, String> handler : handlers.entrySet()) {
                edges.add(
                        new BytecodeCfg.Edge(
                                edges.size(),
                                block.id(),
                                handler.getKey(),
                                EdgeKind.EXCEPTION,
                                handler.getValue()));
                successors.get(block.id()).add(handler.getKey());
            }
        }
        return new BytecodeCfg(
                signature,
                blocks,
                edges,
                branchBlocks,
                backEdges(blocks.size(), edges),
                exitBlocks);
    }

    private static void addCase(Map<Integer, String[]> normal, int target, int key) {
        String[] existing = normal.get(target);
        if (existing == null) {
            normal.put(target, new String[] {EdgeKind.SWITCH_CASE.name(), Integer.toString(key)});
        } else {
            existing[1] = existing[1] == null ? Integer.toString(key) : existing[1] + "," + key;
        }
    }

    private static void addDefault(Map<Integer, String[]> normal, int target) {
        String[] existing = normal.get(target);
        if (existing == null) {
            normal.put(target, new String[] {EdgeKind.SWITCH_DEFAULT.name(), null});
        } else {
            existing[0] = EdgeKind.SWITCH_DEFAULT.name();
        }
    }

    /** Edges to a block on the current DFS path from the entry; iterative DFS. */
    private static List<Integer> backEdges(int blockCount, List<BytecodeCfg.Edge> edges) {
        List<List<BytecodeCfg.Edge>> out = new ArrayList<>();
        for (int b = 0; b < blockCount; b++) {
            out.add(new ArrayList<>());
        }
        for (BytecodeCfg.Edge edge : edges) {
            out.get(edge.from()).add(edge);
        }
        List<Integer> back = new ArrayList<>();
        if (blockCount == 0) {
            return back;
        }
        int[] state = new int[blockCount]; // 0 new, 1 on path, 2 done
        int[] cursor = new int[blockCount];
        int[] stack = new int[blockCount];
        int top = 0;
        stack[top++] = 0;
        state[0] = 1;
        while (top > 0) {
            int v = stack[top - 1];
            if (cursor[v] < out.get(v).size()) {
                BytecodeCfg.Edge edge = out.get(v).get(cursor[v]++);
                int w = edge.to();
                if (state[w] == 1) {
                    back.add(edge.id());
                } else if (state[w] == 0) {
                    state[w] = 1;
                    stack[top++] = w;
                }
            } else {
                state[v] = 2;
                top--;
            }
        }
        back.sort(null);
        return back;
    }

    private static List<LabelNode> targets(AbstractInsnNode insn) {
        if (insn instanceof JumpInsnNode jump) {
            return List.of(jump.label);
        }
        if (insn instanceof TableSwitchInsnNode table) {
            List<LabelNode> all = new ArrayList<>(table.labels);
            all.add(table.dflt);
            return all;
        }
        if (insn instanceof LookupSwitchInsnNode lookup) {
            List<LabelNode> all = new ArrayList<>(lookup.labels);
            all.add(lookup.dflt);
            return all;
        }
        return List.of();
    }

    private static boolean endsBlock(AbstractInsnNode insn) {
        int opcode = insn.getOpcode();
        return insn instanceof JumpInsnNode
                || insn instanceof TableSwitchInsnNode
                || insn instanceof LookupSwitchInsnNode
                || isExit(opcode);
    }

    private static boolean isExit(int opcode) {
        return (opcode >= Opcodes.IRETURN && opcode <= Opcodes.RETURN)
                || opcode == Opcodes.ATHROW
                || opcode == Opcodes.RET;
    }

    private static int firstReal(AbstractInsnNode[] insns, BytecodeCfg.Block block) {
        for (int i = block.firstInstruction(); i <= block.lastInstruction(); i++) {
            if (insns[i].getOpcode() >= 0) {
                return i;
            }
        }
        throw new IllegalStateException("block without instructions");
    }

    private static AbstractInsnNode lastReal(AbstractInsnNode[] insns, BytecodeCfg.Block block) {
        for (int i = block.lastInstruction(); i >= block.firstInstruction(); i--) {
            if (insns[i].getOpcode() >= 0) {
                return insns[i];
            }
        }
        throw new IllegalStateException("block without instructions");
    }
}
