package dev.fieldprof.benchmarks.accuracy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.schemas.OrderPair;
import dev.fieldprof.schemas.PairRule;
import dev.fieldprof.workloads.RandomApiDriver;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ground-truth recording of the accuracy study counts exactly: a tiny jar whose methods call
 * the client SDK's probe, loaded with its Probes replaced by exact counters, driven by the seeded
 * random driver; fast (one small compilation, no analysis).
 */
class AccuracyRunsTest {

    @TempDir static Path work;
    static Path jar;

    @BeforeAll
    static void compileFixture() throws Exception {
        Path source = work.resolve("src/fixture/Counted.java");
        Files.createDirectories(source.getParent());
        // tick() counts method 1 once; run(n) counts 0 once, 2 n times and the out-of-range 7.
        Files.writeString(
                source,
                "package fixture;\n"
                        + "import dev.fieldprof.client.Probes;\n"
                        + "public final class Counted {\n"
                        + "  private Counted() {}\n"
                        + "  public static void tick() { Probes.enter(1); }\n"
                        + "  static void run(int n) {\n"
                        + "    Probes.enter(0);\n"
                        + "    for (int i = 0; i < n; i++) { Probes.enter(2); }\n"
                        + "    Probes.enter(7);\n"
                        + "  }\n"
                        + "}\n");
        Path classes = work.resolve("classes");
        Files.createDirectories(classes);
        int exit =
                ToolProvider.getSystemJavaCompiler()
                        .run(
                                null,
                                OutputStream.nullOutputStream(),
                                new PrintStream(new ByteArrayOutputStream()),
                                "--release",
                                "17",
                                "-cp",
                                System.getProperty("java.class.path"),
                                "-d",
                                classes.toString(),
                                source.toString());
        assertThat(exit).isZero();
        jar = work.resolve("counted.jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
            out.putNextEntry(new JarEntry("fixture/Counted.class"));
            out.write(Files.readAllBytes(classes.resolve("fixture/Counted.class")));
            out.closeEntry();
        }
    }

    @Test
    void probeCallsOfTheLoadedJarReachExactCountersOfThatLoaderOnly() throws Exception {
        try (CountingProgramLoader first =
                        new CountingProgramLoader(jar, getClass().getClassLoader());
                CountingProgramLoader second =
                        new CountingProgramLoader(jar, getClass().getClassLoader())) {
            assertThat(first.classNames()).containsExactly("fixture.Counted");
            first.reset(5);
            second.reset(5);
            var run =
                    Class.forName("fixture.Counted", true, first)
                            .getDeclaredMethod("run", int.class);
            run.setAccessible(true);
            run.invoke(null, 3);
            run.invoke(null, 4);
            assertThat(first.counts()).containsExactly(2, 0, 7, 0, 0);
            assertThat(first.total()).isEqualTo(9);
            assertThat(first.outOfRange()).isEqualTo(2);
            assertThat(second.counts()).containsExactly(0, 0, 0, 0, 0);
            first.reset(3);
            assertThat(first.counts()).containsExactly(0, 0, 0);
            assertThat(first.outOfRange()).isZero();
        }
    }

    @Test
    void driverStopsWhenTheLoadersExactCountersReachTheEventTarget() throws Exception {
        // The driver's call bounds are tested in the workloads module; this is the study's wiring:
        // the event target is read from the counters of the loader the driven classes live in.
        try (CountingProgramLoader loader =
                new CountingProgramLoader(jar, getClass().getClassLoader())) {
            RandomApiDriver driver = new RandomApiDriver(loader, loader.classNames(), "fixture");
            assertThat(driver.apiSize()).isEqualTo(1); // tick(); run is package-private
            loader.reset(3);
            assertThat(driver.run(42, loader::total, 10, 3, 100))
                    .isEqualTo(new RandomApiDriver.Run(10, false));
            assertThat(loader.counts()).containsExactly(0, 10, 0);
        }
    }

    @Test
    void countsTheViolatedPairs() {
        List<OrderPair> pairs =
                List.of(
                        new OrderPair(0, 1, PairRule.OTHER),
                        new OrderPair(1, 2, PairRule.OTHER),
                        new OrderPair(2, 0, PairRule.OTHER));
        assertThat(AccuracyRuns.violatedPairs(pairs, new long[] {1, 1, 1})).isZero();
        assertThat(AccuracyRuns.violatedPairs(pairs, new long[] {3, 2, 1})).isEqualTo(2);
    }
}
