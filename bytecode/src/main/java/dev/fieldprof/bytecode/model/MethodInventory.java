package dev.fieldprof.bytecode.model;

import dev.fieldprof.bytecode.AppPackages;
import dev.fieldprof.bytecode.MethodSignatures;
import dev.fieldprof.bytecode.jar.JarContents;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * Lists a jar's application methods that have bytecode (not abstract, not native) in Soot signature
 * notation, read with ASM only; the same set V that the Soot analysis keeps.
 */
public final class MethodInventory {

    /** A class that could not be read, and why. */
    public record SkippedClass(String className, String reason) {}

    private final List<String> signatures;
    private final List<SkippedClass> skipped;

    private MethodInventory(List<String> signatures, List<SkippedClass> skipped) {
        this.signatures = signatures;
        this.skipped = skipped;
    }

    /** Reads every application class of the jar; corrupt classes are skipped with a reason. */
    public static MethodInventory of(JarContents jar, AppPackages appPackages) {
        TreeSet<String> signatures = new TreeSet<>();
        List<SkippedClass> skipped = new ArrayList<>();
        for (Map.Entry<String, byte[]> entry : jar.classes().entrySet()) {
            if (!appPackages.includes(entry.getKey())) {
                continue;
            }
            try {
                ClassNode node = new ClassNode();
                new ClassReader(entry.getValue())
                        .accept(node, ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
                for (MethodNode method : node.methods) {
                    if ((method.access & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE)) == 0) {
                        signatures.add(
                                MethodSignatures.sootSignature(
                                        node.name, method.name, method.desc));
                    }
                }
            } catch (RuntimeException e) {
                skipped.add(
                        new SkippedClass(
                                entry.getKey().replace('/', '.'),
                                "corrupt class file: " + e.getClass().getSimpleName()));
            }
        }
        return new MethodInventory(List.copyOf(signatures), List.copyOf(skipped));
    }

    /** Signatures in String natural order: the index of a signature is its method id. */
    public List<String> signatures() {
        return signatures;
    }

    public List<SkippedClass> skipped() {
        return skipped;
    }

    /** Signature to method id. */
    public Map<String, Integer> ids() {
        Map<String, Integer> ids = new TreeMap<>();
        for (int i = 0; i < signatures.size(); i++) {
            ids.put(signatures.get(i), i);
        }
        return Collections.unmodifiableMap(ids);
    }
}
