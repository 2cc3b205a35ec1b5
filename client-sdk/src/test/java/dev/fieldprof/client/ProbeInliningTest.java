package dev.fieldprof.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.client.probe.PathProbeHandle;
import dev.fieldprof.client.probe.PathProbeHandler;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProbeInliningTest {
    @Test
    void installingAHandlerKeepsTheTracedProbeBodiesOutOfLine() throws Exception {
        PathProbes.install(new CountingHandler());
        try {
            assertThat(ProbeInlining.outcome()).isEqualTo("added");
            assertThat(ProbeInlining.keepTracedBodiesOutOfLine()).isTrue();
            String directives =
                    (String)
                            ManagementFactory.getPlatformMBeanServer()
                                    .invoke(
                                            new ObjectName(
                                                    "com.sun.management:type=DiagnosticCommand"),
                                            "compilerDirectivesPrint",
                                            new Object[] {new String[0]},
                                            new String[] {String[].class.getName()});
            // The four traced bodies by name, and nothing else (the entry's mask check, tracerOf,
            // must inline): once in the C1 and once in the C2 section of the one directive
            // added, however many handlers were installed in this JVM.
            String ours =
                    "inline: -dev/fieldprof/client/PathProbes.traceEnter,"
                            + " -dev/fieldprof/client/PathProbes.traceBranch,"
                            + " -dev/fieldprof/client/PathProbes.traceExit,"
                            + " -dev/fieldprof/client/PathProbes.traceExitExceptionally\n";
            assertThat(directives.split(java.util.regex.Pattern.quote(ours), -1)).hasSize(3);
        } finally {
            PathProbes.uninstall();
        }
    }

    @Test
    void theDirectiveNamesTheFourTracedBodiesOfPathProbesAndNotItsMaskCheck() {
        assertThat(ProbeInlining.OUT_OF_LINE)
                .containsExactly("traceEnter", "traceBranch", "traceExit", "traceExitExceptionally")
                .allSatisfy(
                        name ->
                                assertThat(PathProbes.class.getDeclaredMethods())
                                        .as("PathProbes has %s", name)
                                        .anyMatch(m -> m.getName().equals(name)));
        assertThat(ProbeInlining.DIRECTIVE).doesNotContain("tracerOf");
    }

    @Test
    void aJvmWithDirectivesOfItsOwnKeepsThemAndTracesAsBefore(@TempDir Path dir) throws Exception {
        Path own = dir.resolve("own.json");
        Files.writeString(
                own, "[{ match: \"java/*.*\", c2: { Exclude: false } }]", StandardCharsets.UTF_8);
        String out =
                runChild("-XX:+UnlockDiagnosticVMOptions", "-XX:CompilerDirectivesFile=" + own);
        // The JVM itself prints "1 compiler directives added" for its file first.
        assertThat(out)
                .endsWith("left out: the JVM has compiler directives of its own\n" + "events 3\n");
    }

    @Test
    void aJvmWithoutDirectivesGetsIt() throws Exception {
        assertThat(runChild()).isEqualTo("added\nevents 3\n");
    }

    private static String runChild(String... jvmOptions) throws Exception {
        List<String> command = new java.util.ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(List.of(jvmOptions));
        command.add("-cp");
        command.add(
                System.getProperty(
                        "surefire.test.class.path", System.getProperty("java.class.path")));
        command.add(ProbeInliningMain.class.getName());
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        return out;
    }

    /** Counts events; hands out itself as the handle. */
    static final class CountingHandler extends PathProbeHandle implements PathProbeHandler {
        int events;

        @Override
        public PathProbeHandle enter(int methodId) {
            events++;
            return this;
        }

        @Override
        public void branch(int methodId, int blockId, int edgeIndex, int localEdge) {
            events++;
        }

        @Override
        public void branch(int methodId, int blockId, int edgeIndex) {
            events++;
        }

        @Override
        public void exit(int methodId) {
            events++;
        }

        @Override
        public void exitExceptionally(int methodId) {
            events++;
        }
    }
}
