package dev.fieldprof.cli.analysis;

import dev.fieldprof.client.ClientConfig;
import dev.fieldprof.client.DeviceRuntime;
import dev.fieldprof.client.PathProbes;
import dev.fieldprof.client.Probes;
import dev.fieldprof.client.probe.PathProbeHandle;
import dev.fieldprof.client.probe.PathProbeHandler;
import java.nio.file.Path;
import java.util.Enumeration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * Child-JVM driver of {@link InstrumentPathsCommandTest} (run with {@code -Xverify:all} and the
 * instrumented jar first on the class path): links every class of the jar, runs its main class with
 * both probe kinds counted, and prints the counts as {@code key=value} lines.
 */
public final class PathsFixtureMain {
    private PathsFixtureMain() {}

    /** Counts path probe events by kind (one handle for all threads: it only counts). */
    static final class Counting extends PathProbeHandle implements PathProbeHandler {
        final AtomicLong enter = new AtomicLong();
        final AtomicLong branch = new AtomicLong();
        final AtomicLong exit = new AtomicLong();
        final AtomicLong exitExceptionally = new AtomicLong();

        @Override
        public PathProbeHandle enter(int methodId) {
            enter.incrementAndGet();
            return this;
        }

        @Override
        public void branch(int methodId, int blockId, int edgeIndex, int localEdge) {
            branch.incrementAndGet();
        }

        @Override
        public void branch(int methodId, int blockId, int edgeIndex) {
            branch.incrementAndGet();
        }

        @Override
        public void exit(int methodId) {
            exit.incrementAndGet();
        }

        @Override
        public void exitExceptionally(int methodId) {
            exitExceptionally.incrementAndGet();
        }
    }

    /** Arguments: the instrumented jar, its main class. */
    public static void main(String[] args) throws Exception {
        ClassLoader loader = PathsFixtureMain.class.getClassLoader();
        int linked = 0;
        try (JarFile jar = new JarFile(Path.of(args[0]).toFile())) {
            for (Enumeration<JarEntry> e = jar.entries(); e.hasMoreElements(); ) {
                String name = e.nextElement().getName();
                if (name.endsWith(".class") && !name.startsWith("META-INF/")) {
                    // HotSpot links (and so verifies) a class before listing its methods.
                    Class.forName(
                                    name.substring(0, name.length() - 6).replace('/', '.'),
                                    false,
                                    loader)
                            .getDeclaredMethods();
                    linked++;
                }
            }
        }
        ClientConfig config = ClientConfig.fromClasspathAndSystemProperties(loader).orElseThrow();
        Counting paths = new Counting();
        try (DeviceRuntime runtime = DeviceRuntime.start(config)) {
            Probes.install(runtime);
            PathProbes.install(paths);
            Class.forName(args[1], true, loader)
                    .getMethod("main", String[].class)
                    .invoke(null, (Object) new String[0]);
            PathProbes.uninstall();
            System.out.println("linked=" + linked);
        }
        // The runtime reports no counts; the fixture reads the open epoch it persisted at close.
        long entries =
                dev.fieldprof.client.state.EpochState.readFrom(DeviceRuntime.epochStateFile(config))
                        .total();
        System.out.println("entries=" + entries);
        System.out.println("path.enter=" + paths.enter);
        System.out.println("path.branch=" + paths.branch);
        System.out.println("path.exit=" + paths.exit);
        System.out.println("path.exitExceptionally=" + paths.exitExceptionally);
    }
}
