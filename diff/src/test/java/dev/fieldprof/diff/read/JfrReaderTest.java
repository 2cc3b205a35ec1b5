package dev.fieldprof.diff.read;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.diff.cct.CallingContextTree;
import dev.fieldprof.diff.cct.CctNode;
import dev.fieldprof.diff.normalize.InferredApplication;
import dev.fieldprof.diff.normalize.PreprocessingOptions;
import dev.fieldprof.diff.normalize.Preprocessor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reads a real recording, made by a child JVM running {@link JfrWorkload} under JFR. */
class JfrReaderTest {
    @TempDir static Path dir;
    static Path recording;

    @BeforeAll
    static void record() throws Exception {
        recording = dir.resolve("workload.jfr");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child =
                new ProcessBuilder(
                                java,
                                "-XX:StartFlightRecording=filename="
                                        + recording
                                        + ",settings=profile,dumponexit=true",
                                "-cp",
                                System.getProperty("java.class.path"),
                                JfrWorkload.class.getName())
                        .redirectErrorStream(true)
                        .redirectOutput(dir.resolve("child.log").toFile())
                        .start();
        assertThat(child.waitFor(60, TimeUnit.SECONDS)).as("child JVM finished").isTrue();
        assertThat(child.exitValue()).as(Files.readString(dir.resolve("child.log"))).isZero();
        assertThat(recording).exists();
    }

    @Test
    void countsExecutionSamplesOnTheWorkloadsPaths() throws IOException {
        ProfileReader reader = ProfileReaders.standard().forFile(recording);
        assertThat(reader.format()).isEqualTo("jfr");
        CallingContextTree tree = reader.read(recording);

        CctNode main = tree.find(List.of(JfrWorkload.class.getName() + ".main"));
        assertThat(main).as("main is a root frame").isNotNull();
        long inHash = sum(tree, JfrWorkload.class.getName() + ".hashRounds");
        // The profile settings sample Java code every 10 ms (20 ms by default): 1.5 s of CPU
        // gives well over 20 samples even on a busy machine.
        assertThat(inHash).isGreaterThan(20);
        assertThat(main.inclusive()).isGreaterThanOrEqualTo(inHash);
    }

    @Test
    void lambdaFramesLoseTheirHiddenClassNames() throws IOException {
        CallingContextTree raw = new JfrReader(JfrReader.Cost.EXECUTION_SAMPLES).read(recording);
        List<String> rawNames = names(raw);
        assertThat(rawNames).anyMatch(n -> n.contains("$$Lambda"));
        CallingContextTree normalized =
                new Preprocessor(PreprocessingOptions.namesOnly()).apply(raw);
        assertThat(names(normalized))
                .filteredOn(n -> n.contains("$$Lambda"))
                .isNotEmpty()
                .allMatch(n -> !n.contains("0x") && !n.matches(".*Lambda\\$\\d+.*"));
        assertThat(normalized.totalCost()).isEqualTo(raw.totalCost());
    }

    @Test
    void infersTheApplicationFromTheMainThreadsMainClass() throws IOException {
        assertThat(JfrReader.mainClass(recording)).contains(JfrWorkload.class.getName());
        ProfileReader reader = ProfileReaders.standard().forFile(recording);
        assertThat(reader.inferApplication(recording, reader.read(recording)))
                .contains(
                        new InferredApplication(
                                List.of("dev.fieldprof.diff"),
                                "the main class dev.fieldprof.diff.read.JfrWorkload"));
    }

    @Test
    void weighsAllocationSamplesInBytes() throws IOException {
        CallingContextTree tree = new JfrReader(JfrReader.Cost.ALLOCATION_WEIGHT).read(recording);
        assertThat(sum(tree, JfrWorkload.class.getName() + ".allocate")).isGreaterThan(1_000);
    }

    private static long sum(CallingContextTree tree, String frame) {
        long[] total = {0};
        tree.forEachPreorder(
                node -> {
                    if (node.name().equals(frame) && !hasAncestor(node, frame)) {
                        total[0] += node.inclusive();
                    }
                });
        return total[0];
    }

    private static boolean hasAncestor(CctNode node, String frame) {
        for (CctNode n = node.parent(); n != null; n = n.parent()) {
            if (n.name().equals(frame)) {
                return true;
            }
        }
        return false;
    }

    private static List<String> names(CallingContextTree tree) {
        List<String> names = new ArrayList<>();
        tree.forEachPreorder(n -> names.add(n.name()));
        return names;
    }
}
