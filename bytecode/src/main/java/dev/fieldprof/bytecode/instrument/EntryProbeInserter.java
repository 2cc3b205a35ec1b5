package dev.fieldprof.bytecode.instrument;

import dev.fieldprof.bytecode.MethodSignatures;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Adds {@code push id; invokestatic dev/fieldprof/client/Probes.enter(I)V} at the entry of every
 * method of V, leaving everything else of the class as it was. The probe leaves the operand stack
 * empty and touches no local, so every existing stack map frame stays valid (also in constructors,
 * where it runs before {@code super()} without using {@code this}).
 */
final class EntryProbeInserter extends ClassVisitor {

    static final String PROBES_OWNER = "dev/fieldprof/client/Probes";
    static final String PROBES_METHOD = "enter";
    static final String PROBES_DESCRIPTOR = "(I)V";

    private final Map<String, Integer> methodIds;
    private String owner;
    private final List<String> instrumented = new ArrayList<>();

    EntryProbeInserter(ClassVisitor next, Map<String, Integer> methodIds) {
        super(Opcodes.ASM9, next);
        this.methodIds = methodIds;
    }

    @Override
    public void visit(
            int version,
            int access,
            String name,
            String signature,
            String superName,
            String[] interfaces) {
        owner = name;
        super.visit(version, access, name, signature, superName, interfaces);
    }

    @Override
    public MethodVisitor visitMethod(
            int access, String name, String descriptor, String signature, String[] exceptions) {
        MethodVisitor next = super.visitMethod(access, name, descriptor, signature, exceptions);
        if ((access & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE)) != 0) {
            return next;
        }
        String sootSignature = MethodSignatures.sootSignature(owner, name, descriptor);
        Integer id = methodIds.get(sootSignature);
        if (id == null) {
            return next;
        }
        instrumented.add(sootSignature);
        return new MethodVisitor(Opcodes.ASM9, next) {
            @Override
            public void visitCode() {
                super.visitCode();
                pushInt(this, id);
                super.visitMethodInsn(
                        Opcodes.INVOKESTATIC,
                        PROBES_OWNER,
                        PROBES_METHOD,
                        PROBES_DESCRIPTOR,
                        false);
            }
        };
    }

    /** Signatures of the methods that received a probe. */
    List<String> instrumented() {
        return instrumented;
    }

    static void pushInt(MethodVisitor mv, int value) {
        if (value >= -1 && value <= 5) {
            mv.visitInsn(Opcodes.ICONST_0 + value);
        } else if (value >= Byte.MIN_VALUE && value <= Byte.MAX_VALUE) {
            mv.visitIntInsn(Opcodes.BIPUSH, value);
        } else if (value >= Short.MIN_VALUE && value <= Short.MAX_VALUE) {
            mv.visitIntInsn(Opcodes.SIPUSH, value);
        } else {
            mv.visitLdcInsn(value);
        }
    }
}
