package dev.fieldprof.bytecode.instrument;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.analysis.FixtureJars;
import dev.fieldprof.bytecode.AppPackages;
import dev.fieldprof.bytecode.cfg.BranchDescription;
import dev.fieldprof.bytecode.jar.JarContents;
import dev.fieldprof.bytecode.model.MethodInventory;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PathProbeInstrumenterTest {
    @TempDir static Path work;
    static Map<String, Integer> ids;
    static PathProbeInstrumenter.Result result;
    static Path instrumented;
    static Path probes;

    @BeforeAll
    static void instrument() throws IOException {
        Path app = FixtureJars.compileToJar("pathapp", work, null);
        probes = FixtureJars.compile("pathprobes", work.resolve("pathprobes-classes"), null);
        ids = MethodInventory.of(JarContents.read(app), AppPackages.parse("pa")).ids();
        instrumented = work.resolve("out/paths.jar");
        result = new PathProbeInstrumenter(ids).instrumentJar(app, instrumented, ids.size());
    }

    private static int id(String name) {
        if (name.startsWith("<pa.")) {
            return ids.get(name);
        }
        return ids.entrySet().stream()
                .filter(e -> e.getKey().contains(" " + name + "("))
                .findFirst()
                .orElseThrow()
                .getValue();
    }

    @Test
    void instrumentsEveryMethodAndWritesTheBranchDescription() throws IOException {
        assertThat(result.methodsSkipped()).isEmpty();
        assertThat(result.methodsInstrumented()).isEqualTo(ids.size());
        String text =
                JarContents.read(instrumented).entries().stream()
                        .filter(e -> e.name().equals(BranchDescription.RESOURCE))
                        .map(e -> new String(e.bytes(), StandardCharsets.UTF_8))
                        .findFirst()
                        .orElseThrow();
        assertThat(BranchDescription.parse(text)).isEqualTo(result.branches());
        // kind(int): one lookupswitch with four distinct targets (1 and 2 share one).
        assertThat(result.branches().outDegrees(id("kind"))).containsExactly(4);
        assertThat(result.branches().outDegrees(id("fib"))).containsExactly(2);
        assertThat(result.branches().outDegrees(id("loop"))).containsExactly(2, 2);
    }

    @Test
    void runsUnderFullVerificationAndTracesEveryEventOnLegalEdges() throws Exception {
        List<String[]> events = run();
        BranchDescription branches = result.branches();
        // Replay on a stack per thread: every exit closes the top frame, every branch is a legal
        // edge of a branch node of the top frame's method. A probe given another handle than its
        // thread's own would have logged one token more (WRONG-HANDLE).
        Map<String, Deque<Integer>> stacks = new TreeMap<>();
        Map<String, Integer> counts = new TreeMap<>();
        List<Integer> kindEdges = new ArrayList<>();
        for (String[] e : events) {
            assertThat(e).hasSize(e[0].equals("B") ? 6 : 3);
            String thread = e[e.length - 1];
            Deque<Integer> stack = stacks.computeIfAbsent(thread, t -> new ArrayDeque<>());
            int m = Integer.parseInt(e[1]);
            counts.merge(e[0] + " " + m, 1, Integer::sum);
            if (thread.startsWith("worker-")) {
                counts.merge("worker " + e[0] + " " + m, 1, Integer::sum);
            }
            switch (e[0]) {
                case "E" -> stack.push(m);
                case "X", "T" -> assertThat(stack.pop()).isEqualTo(m);
                case "B" -> {
                    assertThat(stack.peek()).isEqualTo(m);
                    int block = Integer.parseInt(e[2]);
                    int edge = Integer.parseInt(e[3]);
                    int i = Arrays.binarySearch(branches.branchBlocks(m), block);
                    assertThat(i).as("branch node %d of %d", block, m).isGreaterThanOrEqualTo(0);
                    assertThat(edge).isBetween(0, branches.outDegrees(m)[i] - 1);
                    // The local edge: the out-edges of the branch nodes before it, plus edge.
                    int before = Arrays.stream(branches.outDegrees(m)).limit(i).sum();
                    assertThat(Integer.parseInt(e[4])).isEqualTo(before + edge);
                    if (m == id("kind")) {
                        kindEdges.add(edge);
                    }
                }
                default -> throw new AssertionError(Arrays.toString(e));
            }
        }
        assertThat(stacks.keySet())
                .containsExactly("main", "worker-0", "worker-1", "worker-2", "worker-3");
        stacks.values().forEach(stack -> assertThat(stack).isEmpty());
        assertThat(counts.get("E " + id("fib"))).isEqualTo(15);
        assertThat(counts.get("B " + id("fib"))).isEqualTo(15);
        assertThat(counts.get("B " + id("loop"))).isEqualTo(11);
        assertThat(counts.get("E " + id("thrower"))).isEqualTo(3);
        assertThat(counts.get("X " + id("thrower"))).isEqualTo(1);
        assertThat(counts.get("T " + id("thrower"))).isEqualTo(2);
        assertThat(counts.get("T " + id("deep"))).isEqualTo(1);
        assertThat(counts.get("X " + id("catcher"))).isEqualTo(2);
        assertThat(counts.get("T " + id("catcher"))).isNull();
        assertThat(counts.get("E " + id("<init>"))).isNotNull();
        assertThat(counts.get("X " + id("main"))).isEqualTo(1);
        // kind(0), kind(1), kind(2), kind(10), kind(7): edges in CFG order, keys 1 and 2 shared.
        assertThat(kindEdges).containsExactly(0, 1, 1, 2, 3);
        // The probe handle's local: a branch before super() on a long, wide locals, threads.
        int init = id("<pa.Locals: void <init>(long)>");
        assertThat(counts.get("E " + init)).isEqualTo(2);
        assertThat(counts.get("B " + init)).isEqualTo(2);
        assertThat(counts.get("X " + init)).isEqualTo(2);
        int wide = id("<pa.Locals: long wide(int)>");
        int mixed = id("<pa.Locals: double mixed(long,double,int)>");
        assertThat(counts.get("E " + wide)).isEqualTo(201);
        assertThat(counts.get("X " + wide)).isEqualTo(201);
        assertThat(counts.get("worker E " + wide)).isEqualTo(200);
        assertThat(counts.get("worker E " + mixed)).isEqualTo(200);
        // wide(7): 7 loop tests taken in, 1 out, 7 parity branches, the k > 3 test; wide(0..3)
        // 50 times each on the workers: 1 + n + n + 1 branch events.
        assertThat(counts.get("B " + wide)).isEqualTo(16 + 50 * (2 + 4 + 6 + 8));
        assertThat(counts.get("worker E " + id("<init>"))).isNull();
    }

    private static List<String[]> run() throws Exception {
        Path log = Files.createTempFile(work, "paths", ".txt");
        String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
        Process process =
                new ProcessBuilder(
                                java,
                                "-Xverify:all",
                                "-Dfieldprof.paths=" + log,
                                "-cp",
                                instrumented + File.pathSeparator + probes,
                                "pa.Main")
                        .redirectErrorStream(true)
                        .start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(output).isEqualTo(0);
        assertThat(output).contains("result 7 5 zero,small,small,ten,other, 3 0 100 2");
        assertThat(output).contains("handles 3.0 -1.0 5.5 11194 2236500");
        List<String[]> events = new ArrayList<>();
        for (String line : Files.readAllLines(log)) {
            events.add(line.split(" "));
        }
        return events;
    }
}
