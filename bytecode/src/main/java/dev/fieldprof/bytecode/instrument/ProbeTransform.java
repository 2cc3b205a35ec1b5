package dev.fieldprof.bytecode.instrument;

import dev.fieldprof.bytecode.MethodSignatures;
import dev.fieldprof.schemas.MethodInfo;
import dev.fieldprof.schemas.ProgramModel;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;

/**
 * The one class-bytes transform of fieldprof: what {@code fieldprof instrument} does to each class
 * of a jar ({@link JarInstrumenter}) and what the device agent does to each class as it loads. Path
 * probes ({@link PathProbeInstrumenter}, if any methods are traced) go in first, on the class's
 * original bytes: those are the bytes the analysis built the model's CFGs from, so the probes
 * number blocks and edges as the model does. Entry probes ({@link EntryProbeInserter}) are then
 * added to that result (an entry probe inserted first could split a method's first block and shift
 * every block id after it). Classes without a method of the model are never touched.
 *
 * <p>Thread-safe: {@link #transform} is synchronized, because the path instrumenter collects the
 * CFGs of what it traced and the device agent transforms on every thread that loads a class.
 */
public final class ProbeTransform {
    private final Map<String, Integer> methodIds = new HashMap<>();
    private final Set<String> modelClasses = new HashSet<>();
    private final PathProbeInstrumenter paths;
    private final Set<String> found = new HashSet<>();
    private int classesInstrumented;
    private int entryProbes;

    /**
     * @param model the program model: every method of its V gets an entry probe
     * @param paths the path instrumenter of the methods to trace, or null for entry probes only
     */
    public ProbeTransform(ProgramModel model, PathProbeInstrumenter paths) {
        for (MethodInfo method : model.getMethods()) {
            String signature = method.getSignature().toString();
            methodIds.put(signature, method.getId());
            modelClasses.add(MethodSignatures.declaringClass(signature).replace('.', '/'));
        }
        this.paths = paths;
    }

    /** Whether the class of this internal name ({@code com/example/Foo}) has a model method. */
    public boolean covers(String internalName) {
        return internalName != null && modelClasses.contains(internalName);
    }

    /**
     * The class with its probes, or null to leave it as it is: not a class of the model, bytes ASM
     * cannot read, or no method of V in it. Exceptions of ASM on a readable class (a method grown
     * too large, say) propagate; the path instrumenter already leaves such a class untraced.
     */
    public synchronized byte[] transform(String internalName, byte[] original) {
        if (!covers(internalName)) {
            return null;
        }
        byte[] input = original;
        boolean changed = false;
        if (paths != null) {
            byte[] traced = paths.instrumentClass(original);
            if (traced != null) {
                input = traced;
                changed = true;
            }
        }
        ClassReader reader;
        try {
            reader = new ClassReader(input);
        } catch (RuntimeException e) {
            // A class the analysis could not read has no methods in V either: leave it.
            return null;
        }
        // Passing the reader lets ASM copy unchanged methods and the constant pool verbatim.
        // COMPUTE_MAXS suffices: the entry probe keeps every stack map frame valid, and it needs
        // no class hierarchy (COMPUTE_FRAMES would load the program's classes).
        ClassWriter writer = new ClassWriter(reader, ClassWriter.COMPUTE_MAXS);
        EntryProbeInserter inserter = new EntryProbeInserter(writer, methodIds);
        reader.accept(inserter, 0);
        List<String> entered = inserter.instrumented();
        if (entered.isEmpty() && !changed) {
            return null;
        }
        found.addAll(entered);
        entryProbes += entered.size();
        classesInstrumented++;
        return writer.toByteArray();
    }

    /** Signatures of the model methods that got an entry probe so far. */
    public synchronized Set<String> methodsFound() {
        return Set.copyOf(found);
    }

    /** Classes changed so far. */
    public synchronized int classesInstrumented() {
        return classesInstrumented;
    }

    /** Entry probes inserted so far (one per model method found). */
    public synchronized int entryProbes() {
        return entryProbes;
    }

    /** The path instrumenter, or null when no method is path-traced. */
    public PathProbeInstrumenter paths() {
        return paths;
    }
}
