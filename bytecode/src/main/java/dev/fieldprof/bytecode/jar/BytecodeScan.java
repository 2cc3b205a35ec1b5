package dev.fieldprof.bytecode.jar;

import dev.fieldprof.bytecode.AppPackages;
import dev.fieldprof.bytecode.MethodSignatures;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ConstantDynamic;
import org.objectweb.asm.Handle;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.InvokeDynamicInsnNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * One ASM pass over every class of a jar that finds what the JVM or library code may call without a
 * call site in the application: lambda and method-reference implementation methods, method handle
 * constants, reflection and proxy use, service providers, and calls from the jar's non-application
 * classes. It also finds corrupt class files, which the analysis then skips.
 */
public final class BytecodeScan {

    private final Map<String, String> corruptClasses = new TreeMap<>();
    private final Set<String> applicationClasses = new HashSet<>();
    private final Set<String> handleTargets = new HashSet<>();
    private final Set<String> lambdaInterfaces = new HashSet<>();
    private final Set<String> sealedTypes = new HashSet<>();
    private final Set<String> stringConstants = new HashSet<>();
    private final Set<String> classConstants = new HashSet<>();
    private final Set<String> referencedFromOutside = new HashSet<>();
    private final Map<String, Set<String>> referencesByMethod = new HashMap<>();
    private final Map<String, String> referenceKeys = new HashMap<>();
    private final Set<String> serviceProviders = new HashSet<>();
    private boolean usesProxies;
    private boolean usesReflectiveMethodCalls;
    private boolean usesReflectiveConstruction;

    private BytecodeScan() {}

    /** Scans every class of the jar; application classes are those {@code appPackages} selects. */
    public static BytecodeScan of(JarContents jar, AppPackages appPackages) {
        BytecodeScan scan = new BytecodeScan();
        for (Map.Entry<String, byte[]> entry : jar.classes().entrySet()) {
            scan.scanClass(entry.getKey(), entry.getValue(), appPackages.includes(entry.getKey()));
        }
        for (JarContents.Entry entry : jar.entries()) {
            if (entry.name().startsWith("META-INF/services/") && !entry.directory()) {
                for (String line : new String(entry.bytes(), StandardCharsets.UTF_8).split("\\R")) {
                    String provider = line.replaceAll("#.*", "").trim();
                    if (!provider.isEmpty()) {
                        scan.serviceProviders.add(provider);
                    }
                }
            }
        }
        return scan;
    }

    private void scanClass(String internalName, byte[] bytes, boolean application) {
        ClassNode node = new ClassNode();
        try {
            new ClassReader(bytes).accept(node, ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
            if (!node.name.equals(internalName)) {
                throw new IllegalStateException(
                        "declares class " + node.name + " but is stored as " + internalName);
            }
        } catch (RuntimeException e) {
            corruptClasses.put(
                    internalName.replace('/', '.'),
                    "corrupt class file ("
                            + e.getClass().getSimpleName()
                            + (e.getMessage() == null ? "" : ": " + e.getMessage())
                            + ")");
            return;
        }
        String dotted = node.name.replace('/', '.');
        if (application) {
            applicationClasses.add(dotted);
        }
        if (node.permittedSubclasses != null && !node.permittedSubclasses.isEmpty()) {
            sealedTypes.add(dotted);
        }
        for (MethodNode method : node.methods) {
            Set<String> references = new HashSet<>();
            for (AbstractInsnNode insn : method.instructions) {
                if (insn instanceof MethodInsnNode call) {
                    references.add(call.name + call.desc);
                    noteApiUse(call.owner, call.name);
                } else if (insn instanceof InvokeDynamicInsnNode indy) {
                    noteIndy(indy);
                } else if (insn instanceof LdcInsnNode ldc) {
                    noteConstant(ldc.cst, application);
                }
            }
            if (application) {
                String signature =
                        MethodSignatures.sootSignature(node.name, method.name, method.desc);
                referencesByMethod.put(signature, references);
                referenceKeys.put(signature, method.name + method.desc);
            } else {
                referencedFromOutside.addAll(references);
            }
        }
    }

    private void noteApiUse(String owner, String name) {
        switch (owner) {
            case "java/lang/reflect/Proxy" -> usesProxies |= name.equals("newProxyInstance");
            case "java/lang/reflect/Method" -> usesReflectiveMethodCalls |= name.equals("invoke");
            case "java/lang/invoke/MethodHandles$Lookup" -> {
                if (name.startsWith("find") || name.startsWith("unreflect")) {
                    usesReflectiveMethodCalls = true;
                    usesReflectiveConstruction |=
                            name.equals("findConstructor") || name.equals("unreflectConstructor");
                }
            }
            case "java/lang/reflect/Constructor" ->
                    usesReflectiveConstruction |= name.equals("newInstance");
            case "java/lang/Class" -> usesReflectiveConstruction |= name.equals("newInstance");
            case "java/util/ServiceLoader" -> usesReflectiveConstruction = true;
            default -> {}
        }
    }

    private void noteIndy(InvokeDynamicInsnNode indy) {
        if (indy.bsm.getOwner().equals("java/lang/invoke/LambdaMetafactory")) {
            // The functional interface is what the call site returns; its implementation is a
            // class the JVM spins at run time.
            Type produced = Type.getReturnType(indy.desc);
            if (produced.getSort() == Type.OBJECT) {
                lambdaInterfaces.add(produced.getClassName());
            }
        }
        for (Object argument : indy.bsmArgs) {
            noteConstant(argument, false);
        }
    }

    private void noteConstant(Object constant, boolean application) {
        if (constant instanceof Handle handle) {
            if (handle.getTag() <= org.objectweb.asm.Opcodes.H_PUTSTATIC) {
                // A field handle (records' ObjectMethods bootstrap takes getters as
                // H_GETFIELD): it reads or writes a field and calls no method.
                return;
            }
            handleTargets.add(
                    MethodSignatures.sootSignature(
                            handle.getOwner(), handle.getName(), handle.getDesc()));
        } else if (constant instanceof ConstantDynamic dynamic) {
            for (int i = 0; i < dynamic.getBootstrapMethodArgumentCount(); i++) {
                noteConstant(dynamic.getBootstrapMethodArgument(i), false);
            }
        } else if (constant instanceof String text && application) {
            stringConstants.add(text);
        } else if (constant instanceof Type type && type.getSort() == Type.OBJECT) {
            classConstants.add(type.getClassName());
        }
    }

    /** Classes whose file could not be parsed, with the reason (dotted name → reason). */
    public Map<String, String> corruptClasses() {
        return corruptClasses;
    }

    /** Readable application classes (dotted names). */
    public Set<String> applicationClasses() {
        return applicationClasses;
    }

    /** Methods named by a method handle constant or a lambda/method reference (Soot signatures). */
    public Set<String> handleTargets() {
        return handleTargets;
    }

    /** Interfaces that lambdas implement at run time with JVM-generated classes. */
    public Set<String> lambdaInterfaces() {
        return lambdaInterfaces;
    }

    /** Types with a PermittedSubclasses attribute: no class outside the list can extend them. */
    public Set<String> sealedTypes() {
        return sealedTypes;
    }

    public Set<String> stringConstants() {
        return stringConstants;
    }

    public Set<String> classConstants() {
        return classConstants;
    }

    /** Method references ({@code name + descriptor}) made by the jar's non-application classes. */
    public Set<String> referencedFromOutside() {
        return referencedFromOutside;
    }

    /** Method references ({@code name + descriptor}) in one application method's bytecode. */
    public Set<String> referencesOf(String sootSignature) {
        return referencesByMethod.getOrDefault(sootSignature, Set.of());
    }

    /** The {@code name + descriptor} key of an application method, as references use it. */
    public String referenceKey(String sootSignature) {
        return referenceKeys.get(sootSignature);
    }

    /** Classes named in META-INF/services files. */
    public Set<String> serviceProviders() {
        return serviceProviders;
    }

    public boolean usesProxies() {
        return usesProxies;
    }

    public boolean usesReflectiveMethodCalls() {
        return usesReflectiveMethodCalls;
    }

    public boolean usesReflectiveConstruction() {
        return usesReflectiveConstruction;
    }
}
