package dev.fieldprof.cli.demo;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * Loads the classes of an instrumented program jar itself (child first) and everything else, above
 * all the client SDK's {@code Probes}, from the CLI's own class loader, so the instrumented code
 * reports to the runtime the demo bound to the calling thread. Public for the tests that run other
 * instrumented programs the same way (EstimatesReleaseDiffTest).
 */
public final class InstrumentedProgramLoader extends URLClassLoader {
    static {
        registerAsParallelCapable();
    }

    private final Set<String> ownClasses;

    public InstrumentedProgramLoader(Path instrumentedJar, ClassLoader parent) {
        super(new URL[] {toUrl(instrumentedJar)}, parent);
        this.ownClasses = classNamesIn(instrumentedJar);
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        if (!ownClasses.contains(name)) {
            return super.loadClass(name, resolve);
        }
        synchronized (getClassLoadingLock(name)) {
            Class<?> loaded = findLoadedClass(name);
            if (loaded == null) {
                loaded = findClass(name);
            }
            if (resolve) {
                resolveClass(loaded);
            }
            return loaded;
        }
    }

    private static Set<String> classNamesIn(Path jar) {
        Set<String> names = new HashSet<>();
        try (JarFile file = new JarFile(jar.toFile())) {
            for (JarEntry entry : java.util.Collections.list(file.entries())) {
                String name = entry.getName();
                if (name.endsWith(".class") && !name.startsWith("META-INF/")) {
                    names.add(
                            name.substring(0, name.length() - ".class".length()).replace('/', '.'));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + jar, e);
        }
        return names;
    }

    private static URL toUrl(Path jar) {
        try {
            return jar.toUri().toURL();
        } catch (MalformedURLException e) {
            throw new IllegalArgumentException("not a file path: " + jar, e);
        }
    }
}
