package dev.fieldprof.bytecode.instrument;

import dev.fieldprof.bytecode.MethodSignatures;
import dev.fieldprof.bytecode.cfg.BranchDescription;
import dev.fieldprof.bytecode.cfg.BytecodeCfg;
import dev.fieldprof.bytecode.cfg.CfgBuilder;
import dev.fieldprof.bytecode.jar.JarContents;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.FrameNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LineNumberNode;
import org.objectweb.asm.tree.LookupSwitchInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TableSwitchInsnNode;
import org.objectweb.asm.tree.TryCatchBlockNode;
import org.objectweb.asm.tree.TypeInsnNode;
import org.objectweb.asm.tree.VarInsnNode;

/**
 * Inserts path probes (after AdapTracer, docs/references.md; docs/architecture.md, "Paths") into
 * the selected methods, each a call on the method's probe site {@code s} (a {@code PathProbeSite}
 * in a static final field of its class, set first thing in the static initializer by {@code
 * PathProbes.site(m)}): {@code h = s.enter()} at entry, {@code s.branch(h, block, edge, localEdge)}
 * on every out-edge of every branch node of the method's {@link CfgBuilder} CFG (edge numbers in
 * CFG out-edge order; the local edge numbers the method's out-edges over its branch nodes, {@link
 * BranchDescription#firstLocalEdges}, so the device codes it without a lookup), {@code s.exit(h)}
 * before each return and a catch-all handler that calls {@code s.exitExceptionally(h)} and
 * rethrows. {@code h} is the calling thread's probe handle (an {@code Object} to the host; null
 * when the method is not traced), kept in a local variable the rewrite adds after the method's own,
 * so the thread is looked up once per invocation. A method its device's probe-plan variant does not
 * trace gets a site that does nothing, which the JIT compiles away. It also returns the {@link
 * BranchDescription} device and server build their coder's branch table from.
 *
 * <p>Frames stay valid without {@code COMPUTE_FRAMES} (which would need the app's class hierarchy):
 * a taken edge is redirected to a stub appended after the code that reuses the target's own stack
 * map frame, calls the probe and jumps to the target; the fall-through probe runs straight after
 * the jump; the catch-all handler's frame holds only the handle local (the others are TOP) and the
 * Throwable. Every stack map frame of the method gets the handle local, an {@code Object} in the
 * slot after its last local (padded with TOP): it is stored before any other code runs (in
 * constructors before {@code super()/this()}, which is legal for a fresh local) and never written
 * again, so it holds at every frame. In constructors the catch-all starts after the {@code
 * super()/this()} call, where {@code this} is initialized. Methods with {@code jsr/ret}, and
 * methods with no local slot left for the handle, are left alone.
 */
public final class PathProbeInstrumenter {
    public static final String PROBES_OWNER = "dev/fieldprof/client/PathProbes";

    /** The probe site type each traced method's static final field holds. */
    static final String SITE_TYPE = "dev/fieldprof/client/PathProbeSite";

    private static final String SITE_DESC = "L" + SITE_TYPE + ";";

    /** How the host's bytecode holds the probe handle: the site's signatures name no other type. */
    private static final String HANDLE_TYPE = "java/lang/Object";

    private static final String HANDLE_DESC = "L" + HANDLE_TYPE + ";";

    /** Most local variable slots of a method (u2 max_locals). */
    private static final int MAX_LOCALS = 0xFFFF;

    /** Name of the static final field holding method {@code id}'s probe site. */
    static String siteField(int id) {
        return "$fieldprof$paths$" + id;
    }

    /** Largest out-degree traced; equals client-sdk's {@code BranchTable.MAX_DEGREE}. */
    public static final int MAX_DEGREE = 1 << 12;

    private final Map<String, Integer> methodIds;
    private final Map<Integer, BytecodeCfg> cfgs = new TreeMap<>();
    private final List<String> skipped = new ArrayList<>();
    private int probes;

    /**
     * @param methodIds Soot signature → method id of the methods to trace
     */
    public PathProbeInstrumenter(Map<String, Integer> methodIds) {
        this.methodIds = Map.copyOf(methodIds);
    }

    /** What a jar run did. */
    public record Result(
            int classesInstrumented,
            int methodsInstrumented,
            int probesInserted,
            List<String> methodsSkipped,
            BranchDescription branches) {}

    /**
     * Writes an instrumented copy of {@code inputJar} to {@code outputJar} with the branch
     * description as {@link BranchDescription#RESOURCE}; every other entry is copied as it is.
     *
     * @param methodCount number of method ids (|V| of the program model)
     */
    public Result instrumentJar(Path inputJar, Path outputJar, int methodCount) {
        return instrumentJar(inputJar, outputJar, methodCount, Map.of());
    }

    /**
     * As above, also writing {@code resources} (jar entry name → bytes) into the jar, replacing
     * entries of the same name; the probe plan travels this way ({@code
     * META-INF/fieldprof/plan.txt}).
     */
    public Result instrumentJar(
            Path inputJar, Path outputJar, int methodCount, Map<String, byte[]> resources) {
        JarContents jar = JarContents.read(inputJar);
        int classes = 0;
        try {
            Files.createDirectories(outputJar.toAbsolutePath().getParent());
            try (OutputStream file = Files.newOutputStream(outputJar);
                    ZipOutputStream out = new ZipOutputStream(file)) {
                Set<String> written = new HashSet<>();
                for (JarContents.Entry entry : jar.entries()) {
                    String name = entry.name();
                    if (name.equals(BranchDescription.RESOURCE)
                            || resources.containsKey(name)
                            || !written.add(name)) {
                        continue;
                    }
                    byte[] bytes = entry.bytes();
                    if (MethodSignatures.internalNameOfEntry(name) != null) {
                        byte[] rewritten = instrumentClass(bytes);
                        if (rewritten != null) {
                            bytes = rewritten;
                            classes++;
                        }
                    }
                    ZipEntry outEntry = new ZipEntry(name);
                    if (entry.time() >= 0) {
                        outEntry.setTime(entry.time());
                    }
                    out.putNextEntry(outEntry);
                    out.write(bytes);
                    out.closeEntry();
                }
                out.putNextEntry(new ZipEntry(BranchDescription.RESOURCE));
                out.write(branches(methodCount).toText().getBytes(StandardCharsets.UTF_8));
                out.closeEntry();
                for (Map.Entry<String, byte[]> resource :
                        new java.util.TreeMap<>(resources).entrySet()) {
                    out.putNextEntry(new ZipEntry(resource.getKey()));
                    out.write(resource.getValue());
                    out.closeEntry();
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + outputJar + ": " + e.getMessage(), e);
        }
        return new Result(classes, cfgs.size(), probes, skipped(), branches(methodCount));
    }

    /** Branch description of every method instrumented so far ({@code methodCount} ids). */
    public BranchDescription branches(int methodCount) {
        return BranchDescription.of(methodCount, cfgs, MAX_DEGREE);
    }

    /** CFGs of the methods instrumented so far, by method id. */
    public Map<Integer, BytecodeCfg> cfgs() {
        return Map.copyOf(cfgs);
    }

    /** Selected methods left uninstrumented, with the reason. */
    public List<String> skipped() {
        return List.copyOf(skipped);
    }

    /** Probe calls inserted so far. */
    public int probesInserted() {
        return probes;
    }

    /** The class with probes in its selected methods, or null if it has none of them. */
    public byte[] instrumentClass(byte[] original) {
        ClassReader reader;
        try {
            reader = new ClassReader(original);
        } catch (RuntimeException e) {
            return null;
        }
        // The CFG is built exactly as CfgBuilder.forClass builds it (frames skipped); the
        // rewrite works on a second reading with expanded frames, matched by real instructions.
        ClassNode plain = new ClassNode();
        reader.accept(plain, ClassReader.SKIP_FRAMES);
        ClassNode node = new ClassNode();
        reader.accept(node, ClassReader.EXPAND_FRAMES);
        boolean frames = (node.version & 0xFFFF) >= Opcodes.V1_6;
        Map<Integer, BytecodeCfg> done = new LinkedHashMap<>();
        int inserted = 0;
        for (int i = 0; i < node.methods.size(); i++) {
            MethodNode method = node.methods.get(i);
            String signature = MethodSignatures.sootSignature(node.name, method.name, method.desc);
            Integer id = methodIds.get(signature);
            if (id == null || method.instructions.size() == 0) {
                continue;
            }
            if (hasSubroutines(method)) {
                skipped.add(signature + ": jsr/ret subroutines");
                continue;
            }
            BytecodeCfg cfg = CfgBuilder.build(signature, plain.methods.get(i));
            MethodRewrite rewrite = new MethodRewrite(node.name, method, cfg, id, frames);
            String problem = rewrite.check();
            if (problem != null) {
                skipped.add(signature + ": " + problem);
                continue;
            }
            inserted += rewrite.apply();
            done.put(id, cfg);
        }
        if (done.isEmpty()) {
            return null;
        }
        addSites(node, done.keySet());
        try {
            ClassWriter writer = new ClassWriter(ClassWriter.COMPUTE_MAXS);
            node.accept(writer);
            byte[] out = writer.toByteArray();
            cfgs.putAll(done);
            probes += inserted;
            return out;
        } catch (RuntimeException e) {
            // For example MethodTooLargeException: the class stays as it was, untraced.
            skipped.add(node.name + ": " + e);
            return null;
        }
    }

    /**
     * A static final field per traced method holding its probe site, set first thing in the class's
     * static initializer by {@code PathProbes.site(id)}: once set, the JIT treats it as a constant,
     * so the probes of a method the device does not trace compile to nothing.
     */
    private static void addSites(ClassNode node, java.util.Set<Integer> ids) {
        boolean isInterface = (node.access & Opcodes.ACC_INTERFACE) != 0;
        int access =
                (isInterface ? Opcodes.ACC_PUBLIC : Opcodes.ACC_PRIVATE)
                        | Opcodes.ACC_STATIC
                        | Opcodes.ACC_FINAL
                        | Opcodes.ACC_SYNTHETIC;
        InsnList init = new InsnList();
        for (int id : ids) {
            node.fields.add(
                    new org.objectweb.asm.tree.FieldNode(
                            access, siteField(id), SITE_DESC, null, null));
            init.add(MethodRewrite.pushInt(id));
            init.add(
                    new MethodInsnNode(
                            Opcodes.INVOKESTATIC, PROBES_OWNER, "site", "(I)" + SITE_DESC, false));
            init.add(
                    new org.objectweb.asm.tree.FieldInsnNode(
                            Opcodes.PUTSTATIC, node.name, siteField(id), SITE_DESC));
        }
        MethodNode clinit = null;
        for (MethodNode m : node.methods) {
            if (m.name.equals("<clinit>")) {
                clinit = m;
            }
        }
        if (clinit == null) {
            clinit = new MethodNode(Opcodes.ACC_STATIC, "<clinit>", "()V", null, null);
            clinit.instructions.add(new InsnNode(Opcodes.RETURN));
            node.methods.add(clinit);
        }
        // Before anything else, the initializer's own probes included: straight-line code with
        // an empty stack, so no stack map frame changes.
        clinit.instructions.insert(init);
    }

    private static boolean hasSubroutines(MethodNode method) {
        for (AbstractInsnNode insn : method.instructions) {
            if (insn.getOpcode() == Opcodes.JSR || insn.getOpcode() == Opcodes.RET) {
                return true;
            }
        }
        return false;
    }

    /** The rewrite of one method. */
    private static final class MethodRewrite {
        private final String owner;
        private final MethodNode method;
        private final BytecodeCfg cfg;
        private final int id;
        private final boolean frames;
        private final List<AbstractInsnNode> real = new ArrayList<>();
        private final Map<AbstractInsnNode, Integer> realIndex = new IdentityHashMap<>();
        private final int[] blockOfReal;
        // Slot of the probe handle: the first after every local of the original method.
        private final int handle;
        // Per block, the method-local number of its first out-edge (BranchDescription).
        private final int[] firstLocalEdge;

        MethodRewrite(String owner, MethodNode method, BytecodeCfg cfg, int id, boolean frames) {
            this.owner = owner;
            this.method = method;
            this.cfg = cfg;
            this.id = id;
            this.frames = frames;
            this.handle = method.maxLocals;
            this.firstLocalEdge = BranchDescription.firstLocalEdges(cfg, MAX_DEGREE);
            for (AbstractInsnNode insn : method.instructions) {
                if (insn.getOpcode() >= 0) {
                    realIndex.put(insn, real.size());
                    real.add(insn);
                }
            }
            blockOfReal = new int[real.size()];
            int k = 0;
            for (BytecodeCfg.Block block : cfg.blocks()) {
                for (int r = 0; r < block.opcodeCount(); r++) {
                    blockOfReal[k++] = block.id();
                }
            }
        }

        /** Why the method cannot be rewritten, or null. */
        String check() {
            int total = cfg.blocks().stream().mapToInt(BytecodeCfg.Block::opcodeCount).sum();
            if (total != real.size()) {
                return "CFG and code disagree on instructions";
            }
            for (int block : cfg.branchBlocks()) {
                List<BytecodeCfg.Edge> edges = BranchDescription.normalOutEdges(cfg, block);
                if (edges.size() > MAX_DEGREE) {
                    continue;
                }
                AbstractInsnNode last = lastReal(block);
                if (last instanceof JumpInsnNode jump) {
                    if (edges.size() != 2 || blockOf(jump.label) != edges.get(0).to()) {
                        return "branch block " + block + " does not match its jump";
                    }
                    if (frames && frameAt(jump.label) == null) {
                        return "no stack map frame at a jump target";
                    }
                } else if (last instanceof TableSwitchInsnNode
                        || last instanceof LookupSwitchInsnNode) {
                    for (LabelNode label : switchLabels(last)) {
                        if (edgeIndex(edges, blockOf(label)) < 0) {
                            return "switch target outside the CFG's out-edges";
                        }
                        if (frames && frameAt(label) == null) {
                            return "no stack map frame at a switch target";
                        }
                    }
                } else {
                    return "branch block " + block + " ends in opcode " + last.getOpcode();
                }
            }
            if (handle + 1 > MAX_LOCALS) {
                return "no local variable slot left for the probe handle";
            }
            if (method.name.equals("<init>") && superCall() == null) {
                return "no super() or this() call found";
            }
            return null;
        }

        /** Inserts the probes; returns how many probe calls. */
        int apply() {
            InsnList code = method.instructions;
            InsnList stubs = new InsnList();
            int count = 0;
            for (int block : cfg.branchBlocks()) {
                List<BytecodeCfg.Edge> edges = BranchDescription.normalOutEdges(cfg, block);
                if (edges.size() > MAX_DEGREE) {
                    continue;
                }
                AbstractInsnNode last = lastReal(block);
                if (last instanceof JumpInsnNode jump) {
                    jump.label = stub(stubs, jump.label, block, 0);
                    code.insert(jump, branchCall(block, 1));
                    count += 2;
                } else {
                    Map<Integer, LabelNode> stubByEdge = new HashMap<>();
                    List<LabelNode> labels = switchLabels(last);
                    List<LabelNode> replaced = new ArrayList<>();
                    for (LabelNode label : labels) {
                        int edge = edgeIndex(edges, blockOf(label));
                        LabelNode target = stubByEdge.get(edge);
                        if (target == null) {
                            target = stub(stubs, label, block, edge);
                            stubByEdge.put(edge, target);
                            count++;
                        }
                        replaced.add(target);
                    }
                    setSwitchLabels(last, replaced);
                }
            }
            for (AbstractInsnNode insn : real) {
                int op = insn.getOpcode();
                if (op >= Opcodes.IRETURN && op <= Opcodes.RETURN) {
                    InsnList call = new InsnList();
                    call.add(site());
                    call.add(new VarInsnNode(Opcodes.ALOAD, handle));
                    call.add(probe("exit", "(" + HANDLE_DESC + ")V"));
                    code.insertBefore(insn, call);
                    count++;
                }
            }
            // Catch-all: from entry (constructors: after super()) to the end of the original code.
            LabelNode start = new LabelNode();
            AbstractInsnNode superCall = method.name.equals("<init>") ? superCall() : null;
            if (superCall != null) {
                code.insert(superCall, start);
            } else {
                code.insert(start);
            }
            InsnList enter = new InsnList();
            enter.add(site());
            enter.add(probe("enter", "()" + HANDLE_DESC));
            enter.add(new VarInsnNode(Opcodes.ASTORE, handle));
            code.insert(enter);
            count++;
            LabelNode end = new LabelNode();
            code.add(end);
            code.add(stubs);
            LabelNode handler = new LabelNode();
            code.add(handler);
            if (frames) {
                code.add(
                        new FrameNode(
                                Opcodes.F_NEW,
                                0,
                                new Object[0],
                                1,
                                new Object[] {"java/lang/Throwable"}));
            }
            code.add(site());
            code.add(new VarInsnNode(Opcodes.ALOAD, handle));
            code.add(probe("exitExceptionally", "(" + HANDLE_DESC + ")V"));
            code.add(new InsnNode(Opcodes.ATHROW));
            count++;
            if (frames) {
                for (AbstractInsnNode insn : code) {
                    if (insn instanceof FrameNode frame) {
                        addHandle(frame);
                    }
                }
            }
            // Last in the table, so every handler of the method itself is tried first.
            method.tryCatchBlocks.add(new TryCatchBlockNode(start, end, handler, null));
            return count;
        }

        /**
         * Declares the handle local in {@code frame} (expanded, so it lists every local): TOP up to
         * the handle's slot, where a long or double entry stands for two slots, then the handle.
         */
        private void addHandle(FrameNode frame) {
            List<Object> locals = frame.local == null ? new ArrayList<>() : frame.local;
            int slots = 0;
            for (Object type : locals) {
                slots += type == Opcodes.LONG || type == Opcodes.DOUBLE ? 2 : 1;
            }
            for (; slots < handle; slots++) {
                locals.add(Opcodes.TOP);
            }
            locals.add(HANDLE_TYPE);
            frame.local = locals;
        }

        /** Appends a stub for edge {@code edge} of {@code block} jumping on to {@code target}. */
        private LabelNode stub(InsnList stubs, LabelNode target, int block, int edge) {
            LabelNode label = new LabelNode();
            stubs.add(label);
            if (frames) {
                FrameNode f = frameAt(target);
                stubs.add(
                        new FrameNode(
                                Opcodes.F_NEW,
                                f.local.size(),
                                f.local.toArray(),
                                f.stack.size(),
                                f.stack.toArray()));
            }
            stubs.add(branchCall(block, edge));
            stubs.add(new JumpInsnNode(Opcodes.GOTO, target));
            return label;
        }

        private InsnList branchCall(int block, int edge) {
            InsnList call = new InsnList();
            call.add(site());
            call.add(new VarInsnNode(Opcodes.ALOAD, handle));
            call.add(pushInt(block));
            call.add(pushInt(edge));
            call.add(pushInt(firstLocalEdge[block] + edge));
            call.add(probe("branch", "(" + HANDLE_DESC + "III)V"));
            return call;
        }

        /** The first invokespecial {@code <init>} not paired with a NEW: super() or this(). */
        private AbstractInsnNode superCall() {
            int pending = 0;
            for (AbstractInsnNode insn : real) {
                if (insn.getOpcode() == Opcodes.NEW && insn instanceof TypeInsnNode) {
                    pending++;
                } else if (insn.getOpcode() == Opcodes.INVOKESPECIAL
                        && ((MethodInsnNode) insn).name.equals("<init>")) {
                    if (pending == 0) {
                        return insn;
                    }
                    pending--;
                }
            }
            return null;
        }

        private AbstractInsnNode lastReal(int block) {
            int k = 0;
            for (BytecodeCfg.Block b : cfg.blocks()) {
                k += b.opcodeCount();
                if (b.id() == block) {
                    return real.get(k - 1);
                }
            }
            throw new IllegalArgumentException("no block " + block);
        }

        /** The block of the first real instruction at or after {@code node}. */
        private int blockOf(AbstractInsnNode node) {
            for (AbstractInsnNode n = node; n != null; n = n.getNext()) {
                Integer k = realIndex.get(n);
                if (k != null) {
                    return blockOfReal[k];
                }
            }
            return -1;
        }

        /** The stack map frame that holds at {@code label}, or null. */
        private static FrameNode frameAt(LabelNode label) {
            for (AbstractInsnNode n = label; n != null; n = n.getNext()) {
                if (n instanceof FrameNode frame) {
                    return frame;
                }
                if (!(n instanceof LabelNode) && !(n instanceof LineNumberNode)) {
                    return null;
                }
            }
            return null;
        }

        private static int edgeIndex(List<BytecodeCfg.Edge> edges, int targetBlock) {
            for (int i = 0; i < edges.size(); i++) {
                if (edges.get(i).to() == targetBlock) {
                    return i;
                }
            }
            return -1;
        }

        private static List<LabelNode> switchLabels(AbstractInsnNode insn) {
            List<LabelNode> all = new ArrayList<>();
            if (insn instanceof TableSwitchInsnNode table) {
                all.addAll(table.labels);
                all.add(table.dflt);
            } else {
                LookupSwitchInsnNode lookup = (LookupSwitchInsnNode) insn;
                all.addAll(lookup.labels);
                all.add(lookup.dflt);
            }
            return all;
        }

        private static void setSwitchLabels(AbstractInsnNode insn, List<LabelNode> labels) {
            int n = labels.size() - 1;
            if (insn instanceof TableSwitchInsnNode table) {
                for (int i = 0; i < n; i++) {
                    table.labels.set(i, labels.get(i));
                }
                table.dflt = labels.get(n);
            } else {
                LookupSwitchInsnNode lookup = (LookupSwitchInsnNode) insn;
                for (int i = 0; i < n; i++) {
                    lookup.labels.set(i, labels.get(i));
                }
                lookup.dflt = labels.get(n);
            }
        }

        /** Pushes this method's probe site (its class's static final field). */
        private AbstractInsnNode site() {
            return new org.objectweb.asm.tree.FieldInsnNode(
                    Opcodes.GETSTATIC, owner, siteField(id), SITE_DESC);
        }

        private static MethodInsnNode probe(String name, String descriptor) {
            return new MethodInsnNode(Opcodes.INVOKEVIRTUAL, SITE_TYPE, name, descriptor, false);
        }

        private static AbstractInsnNode pushInt(int value) {
            if (value >= -1 && value <= 5) {
                return new InsnNode(Opcodes.ICONST_0 + value);
            }
            if (value >= Byte.MIN_VALUE && value <= Byte.MAX_VALUE) {
                return new org.objectweb.asm.tree.IntInsnNode(Opcodes.BIPUSH, value);
            }
            if (value >= Short.MIN_VALUE && value <= Short.MAX_VALUE) {
                return new org.objectweb.asm.tree.IntInsnNode(Opcodes.SIPUSH, value);
            }
            return new org.objectweb.asm.tree.LdcInsnNode(value);
        }
    }
}
