package dev.fieldprof.benchmarks.paths;

import dev.fieldprof.bytecode.MethodSignatures;
import dev.fieldprof.bytecode.cfg.BranchDescription;
import dev.fieldprof.bytecode.cfg.BytecodeCfg;
import dev.fieldprof.bytecode.cfg.EdgeKind;
import dev.fieldprof.bytecode.jar.JarContents;
import dev.fieldprof.paths.PathEventSink;
import dev.fieldprof.paths.PathRecording;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ConstantDynamic;
import org.objectweb.asm.Handle;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * How many of a run's method exits the bytecode alone foretells: the exit came in a segment (the
 * straight-line code from the method's entry or from a branch edge) that made no call, and that
 * segment's code, from its start to its return, holds no instruction that can run other code (an
 * invoke, {@code new} or a static field access, which may initialize a class, or an {@code ldc} of
 * a handle or dynamic constant). Such an exit can only be a return or an exception, so a format
 * that coded exceptional exits apart could leave it uncoded; today's version 3 codes every exit
 * (one binary decision). A measurement for deciding on such a format, not part of any.
 *
 * <pre>
 * java -cp benchmarks/target/classes:$(cat benchmarks/target/cp.txt) \
 *     dev.fieldprof.benchmarks.paths.ImpliedExits [program...]
 * </pre>
 */
public final class ImpliedExits {
    private ImpliedExits() {}

    /** A run's exits: all, exceptional, and normal ones the bytecode foretold. */
    record Counts(long enters, long exits, long exceptional, long implied) {}

    public static void main(String[] args) throws Exception {
        List<String> wanted = List.of(args);
        Path work = Files.createTempDirectory("fieldprof-implied-exits");
        try {
            System.out.println(
                    "Method exits of each program's measured run (seed 0) that the bytecode"
                            + " foretells: no call since the segment began and none possible"
                            + " before its return");
            System.out.printf(
                    "%-14s %10s %10s %12s %12s %8s%n",
                    "program", "enters", "exits", "exceptional", "foretold", "share");
            for (LibraryProgram p : LibraryProgram.all(1.0)) {
                if (!wanted.isEmpty() && !wanted.contains(p.name())) {
                    continue;
                }
                InstrumentedProgram ip = InstrumentedProgram.of(p, work);
                PathRecording run = PathBenchmarks.record(ip.instrumentedJar(), p, 0);
                Counts c = count(run, quietSegments(ip), ip.cfgs());
                System.out.printf(
                        Locale.ROOT,
                        "%-14s %10d %10d %12d %12d %7.1f%%%n",
                        p.name(),
                        c.enters(),
                        c.exits(),
                        c.exceptional(),
                        c.implied(),
                        100.0 * c.implied() / c.exits());
            }
        } finally {
            PathTimingChild.delete(work);
        }
    }

    /**
     * Per method id, the start blocks of its segments that end in a return with no instruction
     * before it that can run other code.
     */
    static Map<Integer, BitSet> quietSegments(InstrumentedProgram ip) {
        Map<String, MethodNode> bySignature = new HashMap<>();
        for (byte[] bytes : JarContents.read(ip.originalJar()).classes().values()) {
            ClassNode node = new ClassNode();
            new ClassReader(bytes).accept(node, ClassReader.SKIP_FRAMES);
            for (MethodNode m : node.methods) {
                bySignature.put(MethodSignatures.sootSignature(node.name, m.name, m.desc), m);
            }
        }
        Map<Integer, BitSet> quiet = new HashMap<>();
        ip.cfgs()
                .forEach(
                        (id, cfg) -> {
                            MethodNode m = bySignature.get(cfg.signature());
                            if (m != null) {
                                quiet.put(id, quietStarts(cfg, m.instructions.toArray()));
                            }
                        });
        return quiet;
    }

    /** The start blocks of {@code cfg} whose segment is quiet (see {@link #quietSegments}). */
    static BitSet quietStarts(BytecodeCfg cfg, AbstractInsnNode[] insns) {
        int n = cfg.blocks().size();
        List<List<Integer>> succ = new ArrayList<>();
        for (int b = 0; b < n; b++) {
            succ.add(new ArrayList<>());
        }
        for (BytecodeCfg.Edge e : cfg.edges()) {
            if (e.kind() != EdgeKind.EXCEPTION) {
                succ.get(e.from()).add(e.to());
            }
        }
        BitSet exits = new BitSet();
        cfg.exitBlocks().forEach(exits::set);
        BitSet quiet = new BitSet();
        for (int start = 0; start < n; start++) {
            BitSet seen = new BitSet();
            int b = start;
            boolean calls = false;
            while (!seen.get(b) && !calls) {
                seen.set(b);
                BytecodeCfg.Block block = cfg.blocks().get(b);
                for (int i = block.firstInstruction(); i <= block.lastInstruction(); i++) {
                    calls |= mayRunOtherCode(insns[i]);
                }
                if (exits.get(b) || succ.get(b).size() != 1) {
                    break;
                }
                b = succ.get(b).get(0);
            }
            if (!calls && exits.get(b) && returns(cfg, insns, b)) {
                quiet.set(start);
            }
        }
        return quiet;
    }

    private static boolean returns(BytecodeCfg cfg, AbstractInsnNode[] insns, int block) {
        BytecodeCfg.Block b = cfg.blocks().get(block);
        for (int i = b.lastInstruction(); i >= b.firstInstruction(); i--) {
            int op = insns[i].getOpcode();
            if (op >= 0) {
                return op >= Opcodes.IRETURN && op <= Opcodes.RETURN;
            }
        }
        return false;
    }

    private static boolean mayRunOtherCode(AbstractInsnNode insn) {
        int op = insn.getOpcode();
        if (op >= Opcodes.INVOKEVIRTUAL && op <= Opcodes.NEW) {
            return true; // the invokes, invokedynamic and new
        }
        if (op == Opcodes.GETSTATIC || op == Opcodes.PUTSTATIC) {
            return true; // may initialize a class
        }
        return insn instanceof LdcInsnNode ldc
                && (ldc.cst instanceof Handle || ldc.cst instanceof ConstantDynamic);
    }

    /** Replays {@code run}, counting the exits that came at the start of a quiet segment. */
    static Counts count(
            PathRecording run, Map<Integer, BitSet> quiet, Map<Integer, BytecodeCfg> cfgs) {
        Replay replay = new Replay(quiet, cfgs);
        run.replay(replay);
        return new Counts(replay.enters, replay.exits, replay.exceptional, replay.implied);
    }

    private static final class Replay implements PathEventSink {
        private final Map<Integer, BitSet> quiet;
        private final Map<Integer, BytecodeCfg> cfgs;
        // Per open frame: its method, the start block of its segment, the calls made in it.
        private final Deque<int[]> frames = new ArrayDeque<>();
        long enters;
        long exits;
        long exceptional;
        long implied;

        Replay(Map<Integer, BitSet> quiet, Map<Integer, BytecodeCfg> cfgs) {
            this.quiet = quiet;
            this.cfgs = cfgs;
        }

        @Override
        public void enter(int methodId) {
            enters++;
            if (!frames.isEmpty()) {
                frames.peek()[2]++;
            }
            frames.push(new int[] {methodId, 0, 0});
        }

        @Override
        public void branch(int methodId, int blockId, int edgeIndex) {
            int[] f = frames.peek();
            BytecodeCfg cfg = cfgs.get(methodId);
            List<BytecodeCfg.Edge> out =
                    cfg == null ? List.of() : BranchDescription.normalOutEdges(cfg, blockId);
            f[1] = edgeIndex < out.size() ? out.get(edgeIndex).to() : -1;
            f[2] = 0;
        }

        @Override
        public void exit(int methodId, boolean isExceptional) {
            int[] f = frames.pop();
            exits++;
            if (isExceptional) {
                exceptional++;
            } else if (f[2] == 0 && f[1] >= 0) {
                BitSet q = quiet.get(f[0]);
                if (q != null && q.get(f[1])) {
                    implied++;
                }
            }
        }
    }
}
