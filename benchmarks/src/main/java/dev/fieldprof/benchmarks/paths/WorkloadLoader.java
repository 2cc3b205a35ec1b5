package dev.fieldprof.benchmarks.paths;

import dev.fieldprof.bytecode.jar.JarContents;
import dev.fieldprof.client.PathProbes;
import dev.fieldprof.client.probe.PathProbeHandler;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Loads a library jar's classes and the workload drivers itself (so the drivers link to the jar's,
 * possibly instrumented, classes); everything else from the parent. With {@code ownPathProbes} it
 * also defines its own copy of {@link PathProbes}, so that the probes of this loader's classes have
 * their own installed handler and mask and their own JIT profile: several configurations (tracing
 * off, a variant's mask, all methods) can then alternate in one JVM, each staying as a device
 * running only that configuration would compile it.
 */
public final class WorkloadLoader extends URLClassLoader {
    private static final List<String> DRIVER_CLASSES =
            List.of(
                    Texts.class.getName(),
                    Lang3Workload.class.getName(),
                    GsonWorkload.class.getName(),
                    GuavaWorkload.class.getName());

    /** PathProbes, PathProbeSite and their nested classes, copied into a loader with own probes. */
    private static final String PROBES_PREFIX = PathProbes.class.getName();

    private static final String SITE_PREFIX = dev.fieldprof.client.PathProbeSite.class.getName();

    private final Set<String> own = new HashSet<>();
    private final boolean ownPathProbes;

    /** A loader of {@code jar} whose probes (if any) call the parent's {@link PathProbes}. */
    public WorkloadLoader(Path jar) throws IOException {
        this(jar, false);
    }

    public WorkloadLoader(Path jar, boolean ownPathProbes) throws IOException {
        super(new URL[] {jar.toUri().toURL()}, WorkloadLoader.class.getClassLoader());
        this.ownPathProbes = ownPathProbes;
        for (JarContents.Entry entry : JarContents.read(jar).entries()) {
            String name = entry.name();
            if (name.endsWith(".class") && !name.startsWith("META-INF/")) {
                own.add(name.substring(0, name.length() - 6).replace('/', '.'));
            }
        }
    }

    /**
     * Installs {@code handler} with {@code traced} (null: every method) into this loader's own
     * {@link PathProbes}; a null handler turns tracing off.
     */
    public void installProbes(PathProbeHandler handler, boolean[] traced) throws Exception {
        Method install =
                probesClass().getMethod("install", PathProbeHandler.class, boolean[].class);
        install.invoke(null, handler, traced);
    }

    /** Probe calls that failed inside the handler of this loader's own {@link PathProbes}. */
    public long probeFailures() throws Exception {
        return (Long) probesClass().getMethod("failures").invoke(null);
    }

    private Class<?> probesClass() throws ClassNotFoundException {
        if (!ownPathProbes) {
            throw new IllegalStateException("this loader uses the parent's PathProbes");
        }
        return loadClass(PathProbes.class.getName());
    }

    private boolean copied(String name) {
        return DRIVER_CLASSES.contains(name)
                || (ownPathProbes
                        && (name.equals(PROBES_PREFIX)
                                || name.startsWith(PROBES_PREFIX + "$")
                                || name.equals(SITE_PREFIX)
                                || name.startsWith(SITE_PREFIX + "$")));
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        boolean copy = copied(name);
        if (!copy && !own.contains(name)) {
            return super.loadClass(name, resolve);
        }
        synchronized (getClassLoadingLock(name)) {
            Class<?> c = findLoadedClass(name);
            if (c == null) {
                c = copy ? defineFromParent(name) : findClass(name);
            }
            if (resolve) {
                resolveClass(c);
            }
            return c;
        }
    }

    private Class<?> defineFromParent(String name) throws ClassNotFoundException {
        String resource = name.replace('.', '/') + ".class";
        try (InputStream in = getParent().getResourceAsStream(resource)) {
            if (in == null) {
                throw new ClassNotFoundException(name);
            }
            byte[] bytes = in.readAllBytes();
            return defineClass(name, bytes, 0, bytes.length);
        } catch (IOException e) {
            throw new ClassNotFoundException(name, e);
        }
    }
}
