package dev.fieldprof.analysis.soot;

import dev.fieldprof.analysis.phases.PhaseMeter;
import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import soot.Body;
import soot.FastHierarchy;
import soot.G;
import soot.RefType;
import soot.Scene;
import soot.SootClass;
import soot.SootMethod;
import soot.options.Options;

/**
 * The one class that touches Soot's global state ({@code G}, {@code Options}, {@code Scene}): loads
 * the application classes with the classpath and the running JDK, builds Jimple bodies, has {@link
 * MethodFactsBuilder} turn each into facts against the hierarchy fixed after them, and returns
 * plain {@link ProgramFacts}. Not thread-safe: Soot is a singleton, so calls are serialized on a
 * global lock.
 */
public final class SootProgramLoader {

    private static final Object SOOT_LOCK = new Object();

    private static final List<String> SKIPPED_JB_PHASES =
            List.of(
                    "jb.dtr",
                    "jb.tr",
                    "jb.ule",
                    "jb.ulp",
                    "jb.lns",
                    "jb.dae",
                    "jb.cp-ule",
                    "jb.lp",
                    "jb.ne",
                    "jb.uce",
                    "jb.tt",
                    "jb.cbf",
                    "jb.sils",
                    "jb.ese",
                    "jb.rua",
                    "jb.awa");

    /**
     * What to load and how open the world around the application is.
     *
     * @param classes the jar (or a directory of its readable classes)
     * @param classpath dependencies; the running JDK is added by Soot
     * @param applicationClasses dotted names of the classes whose methods form V
     * @param openTypes types that JVM-generated classes implement (lambda interfaces)
     * @param sealedTypes types with PermittedSubclasses, which users cannot extend
     * @param library whether users outside the jar may subclass its public types
     * @param proxies whether the program creates dynamic proxies (any interface may be proxied)
     */
    public record Request(
            Path classes,
            List<Path> classpath,
            Set<String> applicationClasses,
            Set<String> openTypes,
            Set<String> sealedTypes,
            boolean library,
            boolean proxies) {

        public Request {
            classpath = List.copyOf(classpath);
            applicationClasses = Set.copyOf(applicationClasses);
            openTypes = Set.copyOf(openTypes);
            sealedTypes = Set.copyOf(sealedTypes);
        }
    }

    private final Request request;
    private final Map<String, String> skipped = new TreeMap<>();
    private FastHierarchy hierarchy;

    private SootProgramLoader(Request request) {
        this.request = request;
    }

    /** Loads the program and extracts its facts; Soot's state is reset before and after. */
    public static ProgramFacts load(Request request) {
        synchronized (SOOT_LOCK) {
            HierarchyKeepingScene.install();
            try {
                return new SootProgramLoader(request).run();
            } finally {
                G.reset();
            }
        }
    }

    private ProgramFacts run() {
        PhaseMeter meter = new PhaseMeter();
        G.reset();
        Options options = Options.v();
        options.set_prepend_classpath(true);
        options.set_soot_classpath(classpathString());
        options.set_process_dir(List.of(request.classes().toString()));
        options.set_src_prec(Options.src_prec_only_class);
        options.set_allow_phantom_refs(true);
        options.set_whole_program(false);
        options.set_output_format(Options.output_format_none);
        options.set_ignore_resolution_errors(true);
        options.set_ignore_resolving_levels(true);
        options.set_keep_line_number(false);
        options.set_drop_bodies_after_load(false);
        options.setPhaseOption("jb", "use-original-names:false");
        // Jimple as the analysis needs it: local splitting, aggregation and copy propagation
        // stay; type assignment and the clean-up phases are off, which halves body building
        // and changes nothing the order-pair analysis reads (casts and divisions are judged
        // conservatively).
        for (String phase : SKIPPED_JB_PHASES) {
            options.setPhaseOption(phase, "enabled:false");
        }
        for (String phase : System.getProperty("fieldprof.soot.disable", "").split(",")) {
            if (!phase.isBlank()) {
                options.setPhaseOption(phase.trim(), "enabled:false");
            }
        }
        Scene.v().loadNecessaryClasses();
        meter.stop("soot.load");

        List<SootMethod> methods = new ArrayList<>();
        Map<SootMethod, Body> bodies = new IdentityHashMap<>();
        HierarchyKeepingScene scene = HierarchyKeepingScene.current();
        scene.keepHierarchy(true);
        try {
            buildBodies(methods, bodies);
        } finally {
            scene.keepHierarchy(false);
        }
        meter.stop("soot.bodies");

        // Lambda bodies add synthetic classes while bodies are built: the dispatch below needs a
        // hierarchy built after them.
        scene.releaseFastHierarchy();
        hierarchy = scene.getOrMakeFastHierarchy();
        MethodFactsBuilder builder =
                new MethodFactsBuilder(
                        new CallResolution(hierarchy, new DispatchClosure(request, hierarchy)),
                        new OverriddenMethods(request.applicationClasses()));
        // Sized for every method up front: grown from the default, a map of the Kotlin compiler's
        // 245,837 methods was rehashed 15 times.
        Map<String, MethodFacts> facts = new HashMap<>(2 * methods.size());
        for (SootMethod method : methods) {
            try {
                facts.put(method.getSignature(), builder.build(method, bodies.get(method)));
            } catch (RuntimeException e) {
                skipped.put(
                        method.getSignature(),
                        "analysis failed: " + e.getClass().getSimpleName() + ": " + e.getMessage());
            }
        }
        Set<String> serializationConstructors = serializationConstructors();
        Set<String> missing = new TreeSet<>();
        for (SootClass phantom : Scene.v().getPhantomClasses()) {
            // soot.dummy.* are Soot's own placeholders (e.g. for invokedynamic), not classes.
            if (!phantom.getName().startsWith("soot.dummy.")) {
                missing.add(phantom.getName());
            }
        }
        meter.stop("soot.facts");
        return new ProgramFacts(facts, serializationConstructors, skipped, missing, meter.phases());
    }

    /** Builds the Jimple body of every concrete method of the application classes. */
    private void buildBodies(List<SootMethod> methods, Map<SootMethod, Body> bodies) {
        for (String className : new TreeSet<>(request.applicationClasses())) {
            SootClass sootClass = Scene.v().getSootClassUnsafe(className, false);
            if (sootClass == null || sootClass.isPhantom()) {
                skipped.put(className, "class could not be loaded by Soot");
                continue;
            }
            for (SootMethod method : new ArrayList<>(sootClass.getMethods())) {
                if (!method.isConcrete()) {
                    continue;
                }
                try {
                    bodies.put(method, method.retrieveActiveBody());
                    methods.add(method);
                } catch (RuntimeException | LinkageError e) {
                    skipped.put(
                            method.getSignature(),
                            "no Jimple body: "
                                    + e.getClass().getSimpleName()
                                    + ": "
                                    + e.getMessage());
                }
            }
        }
    }

    private String classpathString() {
        StringBuilder out = new StringBuilder(request.classes().toString());
        for (Path entry : request.classpath()) {
            out.append(File.pathSeparator).append(entry);
        }
        return out.toString();
    }

    /**
     * Deserialization runs the no-argument constructor of the first non-serializable superclass of
     * a serializable class: that constructor has a caller the code does not show.
     */
    private Set<String> serializationConstructors() {
        Set<String> out = new TreeSet<>();
        RefType serializable = RefType.v("java.io.Serializable");
        for (String className : request.applicationClasses()) {
            SootClass type = Scene.v().getSootClassUnsafe(className, false);
            if (type == null || type.isPhantom() || type.isInterface()) {
                continue;
            }
            if (!hierarchy.canStoreType(type.getType(), serializable)) {
                continue;
            }
            SootClass current = type;
            while (current != null
                    && !current.isPhantom()
                    && hierarchy.canStoreType(current.getType(), serializable)) {
                current = current.hasSuperclass() ? current.getSuperclass() : null;
            }
            if (current != null && request.applicationClasses().contains(current.getName())) {
                SootMethod constructor = current.getMethodUnsafe("void <init>()");
                if (constructor != null) {
                    out.add(constructor.getSignature());
                }
            }
        }
        return out;
    }
}
