package dev.fieldprof.agent;

import dev.fieldprof.bytecode.instrument.ProbeTransform;
import dev.fieldprof.client.LoadTimeInstrumentation;
import dev.fieldprof.client.Probes;
import java.lang.instrument.ClassFileTransformer;
import java.security.ProtectionDomain;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * Instruments each class of the program model as it loads with the {@link ProbeTransform} that
 * {@code fieldprof instrument} uses, and leaves every other class untouched. Never fails the host:
 * a class whose instrumentation throws, or whose class loader cannot see the SDK that its probes
 * would call, is counted ({@link LoadTimeInstrumentation#classLeftAsItWas}) and loads as it was.
 */
final class ModelClassTransformer implements ClassFileTransformer {
    private final ProbeTransform transform;

    /** Class loaders by whether they resolve the SDK's probes to this agent's classes. */
    private final Map<ClassLoader, Boolean> seesProbes = new WeakHashMap<>();

    ModelClassTransformer(ProbeTransform transform) {
        this.transform = transform;
    }

    @Override
    public byte[] transform(
            ClassLoader loader,
            String className,
            Class<?> classBeingRedefined,
            ProtectionDomain protectionDomain,
            byte[] classfileBuffer) {
        // The boot loader cannot see the agent's jar; redefinitions are someone else's.
        if (loader == null || classBeingRedefined != null || !transform.covers(className)) {
            return null;
        }
        try {
            if (!seesProbes(loader)) {
                LoadTimeInstrumentation.classLeftAsItWas();
                return null;
            }
            byte[] instrumented = transform.transform(className, classfileBuffer);
            if (instrumented != null) {
                LoadTimeInstrumentation.classInstrumented();
            }
            return instrumented;
        } catch (Throwable e) {
            LoadTimeInstrumentation.classLeftAsItWas();
            return null;
        }
    }

    /**
     * Whether classes of {@code loader} link {@code dev.fieldprof.client.Probes} to the agent's own
     * (a loader that does not delegate to the application class path would fail them with a
     * NoClassDefFoundError in the host's code).
     */
    private boolean seesProbes(ClassLoader loader) {
        synchronized (seesProbes) {
            Boolean known = seesProbes.get(loader);
            if (known != null) {
                return known;
            }
        }
        boolean sees;
        try {
            sees = Class.forName(Probes.class.getName(), false, loader) == Probes.class;
        } catch (ClassNotFoundException | LinkageError e) {
            sees = false;
        }
        synchronized (seesProbes) {
            seesProbes.put(loader, sees);
        }
        return sees;
    }
}
