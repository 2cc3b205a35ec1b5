package dev.fieldprof.bytecode.instrument;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.analysis.FixtureJars;
import dev.fieldprof.bytecode.AppPackages;
import dev.fieldprof.bytecode.jar.JarContents;
import dev.fieldprof.bytecode.model.MethodInventory;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Path probes in every method of real libraries from Maven Central (on this module's test classpath
 * through Soot): nothing is skipped and every class of the instrumented jar passes the JVM's
 * bytecode verifier (linking is forced through reflection, without running initializers).
 */
class PathProbeRealJarsTest {
    @TempDir static Path work;

    @ParameterizedTest
    @CsvSource({
        "org.apache.commons.lang3.StringUtils, org.apache.commons.lang3",
        "com.google.gson.Gson, com.google.gson",
        "com.google.common.collect.ImmutableList, com.google.common"
    })
    void everyInstrumentedClassVerifies(String probeClass, String packages) throws Exception {
        Path jar = jarOf(probeClass);
        Map<String, Integer> ids =
                MethodInventory.of(JarContents.read(jar), AppPackages.parse(packages)).ids();
        Path out = work.resolve(packages + ".jar");
        PathProbeInstrumenter.Result result =
                new PathProbeInstrumenter(ids).instrumentJar(jar, out, ids.size());
        assertThat(result.methodsSkipped()).isEmpty();
        assertThat(result.methodsInstrumented()).isEqualTo(ids.size());

        Path probes = FixtureJars.compile("pathprobes", work.resolve("probes-" + packages), null);
        List<URL> path = new ArrayList<>(List.of(out.toUri().toURL(), probes.toUri().toURL()));
        // guava's futures extend a class of its failureaccess dependency.
        path.add(
                jarOf("com.google.common.util.concurrent.internal.InternalFutureFailureAccess")
                        .toUri()
                        .toURL());
        List<String> failures = new ArrayList<>();
        int linked = 0;
        try (URLClassLoader loader =
                new URLClassLoader(
                        path.toArray(URL[]::new), ClassLoader.getPlatformClassLoader())) {
            for (JarContents.Entry entry : JarContents.read(out).entries()) {
                String name = entry.name();
                if (!name.endsWith(".class")
                        || name.startsWith("META-INF/")
                        || name.endsWith("module-info.class")) {
                    continue;
                }
                String className = name.substring(0, name.length() - 6).replace('/', '.');
                try {
                    // HotSpot links (and so verifies) a class before listing its methods.
                    Class.forName(className, false, loader).getDeclaredMethods();
                    linked++;
                } catch (LinkageError e) {
                    failures.add(className + ": " + e);
                }
            }
        }
        assertThat(failures).isEmpty();
        System.out.printf(
                "%s: %d methods, %d probes, %d classes verified%n",
                packages, ids.size(), result.probesInserted(), linked);
    }

    private static Path jarOf(String className) throws Exception {
        return Path.of(
                Class.forName(className, false, PathProbeRealJarsTest.class.getClassLoader())
                        .getProtectionDomain()
                        .getCodeSource()
                        .getLocation()
                        .toURI());
    }
}
