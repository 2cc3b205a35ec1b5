package dev.fieldprof.benchmarks.accuracy;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.commons.ClassRemapper;
import org.objectweb.asm.commons.SimpleRemapper;

/**
 * Loads an instrumented jar's own classes child first and gives them an {@link ExactProbes} copy as
 * their {@code dev.fieldprof.client.Probes}; everything else comes from the parent. Each loader has
 * its own counts, read with {@link #reset}, {@link #counts} and {@link #outOfRange}.
 */
public final class CountingProgramLoader extends URLClassLoader {
    static final String PROBES = "dev.fieldprof.client.Probes";

    // Read once, before any driven program can disturb this JVM's resources.
    private static final byte[] PROBE_BYTES = renamedProbes();

    private final List<String> ownClasses;
    private final java.util.Set<String> own;
    private final Map<String, Method> probeMethods = new java.util.HashMap<>();

    public CountingProgramLoader(Path instrumentedJar, ClassLoader parent) {
        super(new URL[] {toUrl(instrumentedJar)}, parent);
        this.ownClasses = classNamesIn(instrumentedJar);
        this.own = new java.util.HashSet<>(ownClasses);
    }

    /** The jar's class names, sorted, for drivers that pick their API from it. */
    public List<String> classNames() {
        return ownClasses;
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        if (!name.equals(PROBES) && !own.contains(name)) {
            return super.loadClass(name, resolve);
        }
        synchronized (getClassLoadingLock(name)) {
            Class<?> loaded = findLoadedClass(name);
            if (loaded == null) {
                loaded = name.equals(PROBES) ? defineProbes() : findClass(name);
            }
            if (resolve) {
                resolveClass(loaded);
            }
            return loaded;
        }
    }

    private Class<?> defineProbes() {
        return defineClass(PROBES, PROBE_BYTES, 0, PROBE_BYTES.length);
    }

    private static byte[] renamedProbes() {
        String from = ExactProbes.class.getName().replace('.', '/');
        try (InputStream in =
                ExactProbes.class.getResourceAsStream(
                        ExactProbes.class.getSimpleName() + ".class")) {
            ClassReader reader = new ClassReader(in);
            ClassWriter writer = new ClassWriter(0);
            reader.accept(
                    new ClassRemapper(
                            writer, new SimpleRemapper(Map.of(from, PROBES.replace('.', '/')))),
                    0);
            return writer.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read ExactProbes.class", e);
        }
    }

    /** Starts a run: all counts zero, {@code methods} ids. */
    public void reset(int methods) {
        call("reset", new Class<?>[] {int.class}, methods);
    }

    /** The exact per-method entry counts since {@link #reset}. */
    public long[] counts() {
        return (long[]) call("snapshot", new Class<?>[0]);
    }

    /** In-range entries since {@link #reset}. */
    public long total() {
        return (Long) call("total", new Class<?>[0]);
    }

    /** Entries with an id outside [0, |V|) since {@link #reset}. */
    public long outOfRange() {
        return (Long) call("outOfRange", new Class<?>[0]);
    }

    private Object call(String method, Class<?>[] types, Object... args) {
        try {
            Method m = probeMethods.get(method);
            if (m == null) {
                m = loadClass(PROBES).getMethod(method, types);
                probeMethods.put(method, m);
            }
            return m.invoke(null, args);
        } catch (ReflectiveOperationException e) {
            Throwable cause = e instanceof InvocationTargetException ? e.getCause() : e;
            throw new IllegalStateException("probe counts unavailable: " + cause, cause);
        }
    }

    private static List<String> classNamesIn(Path jar) {
        List<String> names = new ArrayList<>();
        try (JarFile file = new JarFile(jar.toFile())) {
            for (JarEntry entry : Collections.list(file.entries())) {
                String name = entry.getName();
                if (name.endsWith(".class")
                        && !name.startsWith("META-INF/")
                        && !name.endsWith("module-info.class")
                        && !name.endsWith("package-info.class")) {
                    names.add(
                            name.substring(0, name.length() - ".class".length()).replace('/', '.'));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + jar, e);
        }
        Collections.sort(names);
        return List.copyOf(names);
    }

    private static URL toUrl(Path jar) {
        try {
            return jar.toUri().toURL();
        } catch (MalformedURLException e) {
            throw new IllegalArgumentException("not a file path: " + jar, e);
        }
    }
}
