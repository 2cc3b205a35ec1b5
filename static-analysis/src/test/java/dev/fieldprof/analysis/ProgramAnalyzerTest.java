package dev.fieldprof.analysis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fieldprof.bytecode.jar.InvalidJarException;
import dev.fieldprof.bytecode.model.ProgramModels;
import dev.fieldprof.schemas.MethodInfo;
import dev.fieldprof.schemas.OrderPair;
import dev.fieldprof.schemas.ProgramModel;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProgramAnalyzerTest {

    @TempDir static Path work;
    static Path jar;
    static AnalysisResult result;

    @BeforeAll
    static void analyzeFixture() throws IOException {
        jar = FixtureJars.compileToJar("pairsapp", work, null);
        result =
                ProgramAnalyzer.analyze(
                        AnalysisRequest.of(jar, "pairs:1").withWorld(World.APPLICATION));
    }

    @Test
    void findsExactlyTheHandCheckedPairsOfBothRules() {
        Set<String> expected =
                new TreeSet<>(
                        List.of(
                                // Rule 2: the only call site, outside loops, no unknown caller.
                                "ONLY <pa.App: int init()> <= <pa.App: void <clinit>()>",
                                "ONLY <pa.App: java.lang.String describe()> <= <pa.App:"
                                        + " java.lang.String toString()>",
                                "ONLY <pa.App: void <init>()> <= <pa.App: void"
                                        + " main(java.lang.String[])>",
                                "ONLY <pa.App: void conditional()> <= <pa.App: void run(int)>",
                                "ONLY <pa.App: void helper()> <= <pa.App: void run(int)>",
                                "ONLY <pa.App: void maybe(pa.Worker)> <= <pa.App: void run(int)>",
                                "ONLY <pa.App: void run(int)> <= <pa.App: void"
                                        + " main(java.lang.String[])>",
                                "ONLY <pa.Circle: double area()> <= <pa.App: void run(int)>",
                                "ONLY <pa.Circle: void <init>()> <= <pa.App: void run(int)>",
                                "ONLY <pa.Square: double area()> <= <pa.App: void run(int)>",
                                "ONLY <pa.Square: void <init>()> <= <pa.App: void run(int)>",
                                "ONLY <pa.Worker: void <init>()> <= <pa.App: void <init>()>",
                                "ONLY <pa.Worker: void step()> <= <pa.Worker: void work()>",
                                "ONLY <pa.Worker: void work()> <= <pa.App: void maybe(pa.Worker)>",
                                "ONLY <pa.Flow: void quiet()> <= <pa.Flow: void entry()>",
                                "ONLY <pa.Flow: void target()> <= <pa.Flow: void entry()>",
                                "ONLY <pa.Flow: void loud()> <= <pa.Flow: void noisy()>",
                                "ONLY <pa.Flow: void target2()> <= <pa.Flow: void noisy()>",
                                // quiet() cannot throw, so target() is reached whenever entry()
                                // returns or throws; loud() may throw, so target2() is not.
                                "DOMINATING <pa.Flow: void entry()> <= <pa.Flow: void quiet()>",
                                "DOMINATING <pa.Flow: void entry()> <= <pa.Flow: void target()>",
                                "DOMINATING <pa.Flow: void noisy()> <= <pa.Flow: void loud()>",
                                // Rule 1: one target, reached before anything can return or throw,
                                // on a receiver that cannot be null.
                                "DOMINATING <pa.App: java.lang.String toString()> <= <pa.App:"
                                        + " java.lang.String describe()>",
                                "DOMINATING <pa.App: void <clinit>()> <= <pa.App: int init()>",
                                "DOMINATING <pa.App: void main(java.lang.String[])> <= <pa.App:"
                                        + " void <init>()>",
                                "DOMINATING <pa.App: void run(int)> <= <pa.App: void helper()>",
                                "DOMINATING <pa.Circle: void <init>()> <= <pa.Shape: void"
                                        + " <init>()>",
                                "DOMINATING <pa.Square: double area()> <= <pa.Square: double"
                                        + " side()>",
                                "DOMINATING <pa.Square: void <init>()> <= <pa.Shape: void"
                                        + " <init>()>",
                                "DOMINATING <pa.Worker: void work()> <= <pa.Worker: void step()>"));
        assertThat(pairStrings(result.model())).isEqualTo(expected);
        assertThat(result.model().getAnalysisStats())
                .containsEntry("pairs", 29.0)
                .containsEntry("pairs.dominatingCallSite", 11.0)
                .containsEntry("pairs.onlyCallSite", 18.0)
                .containsEntry("methods", 29.0)
                .containsEntry("library", 0.0);
    }

    @Test
    void namesEveryUnknownCallerWithItsReason() {
        assertThat(result.unknownCallers())
                .isEqualTo(
                        Map.of(
                                "<pa.App: void callback()>",
                                "lambda, method reference or method handle target",
                                "<pa.App: java.lang.String toString()>",
                                "overrides a library or JDK method",
                                "<pa.App: void main(java.lang.String[])>",
                                "main method",
                                "<pa.App: void <clinit>()>",
                                "static initializer (run by the JVM)"));
    }

    @Test
    void ordersMethodsBySignatureSoIdsAreStable() {
        List<String> signatures = new ArrayList<>();
        for (MethodInfo method : result.model().getMethods()) {
            assertThat(method.getId()).isEqualTo(signatures.size());
            signatures.add(method.getSignature());
        }
        assertThat(signatures).isSorted().doesNotHaveDuplicates();
        AnalysisResult again =
                ProgramAnalyzer.analyze(
                        AnalysisRequest.of(jar, "pairs:1").withWorld(World.APPLICATION));
        assertThat(again.model().getMethods()).isEqualTo(result.model().getMethods());
        assertThat(again.model().getPairs()).isEqualTo(result.model().getPairs());
    }

    @Test
    void buildsCallGraphChainsAndCfgsForEveryMethod() {
        ProgramModel model = result.model();
        int run = id(model, "<pa.App: void run(int)>");
        int main = id(model, "<pa.App: void main(java.lang.String[])>");
        assertThat(result.callGraph().callers(run)).containsExactly(main);
        assertThat(signatures(model, result.callGraph().callees(run)))
                .containsExactlyInAnyOrder(
                        "<pa.App: void helper()>",
                        "<pa.App: void inLoop()>",
                        "<pa.App: void conditional()>",
                        "<pa.App: void maybe(pa.Worker)>",
                        "<pa.App: void twice()>",
                        "<pa.Circle: void <init>()>",
                        "<pa.Square: void <init>()>",
                        "<pa.Circle: double area()>",
                        "<pa.Square: double area()>");
        assertThat(
                        signatures(
                                model,
                                result.callGraph().roots().stream().mapToInt(i -> i).toArray()))
                .containsExactlyInAnyOrder(
                        "<pa.App: void <clinit>()>",
                        "<pa.App: void main(java.lang.String[])>",
                        "<pa.App: java.lang.String toString()>",
                        "<pa.App: void callback()>",
                        "<pa.Flow: void <init>()>",
                        "<pa.Flow: void entry()>",
                        "<pa.Flow: void noisy()>");
        assertThat(result.callChains())
                .anySatisfy(
                        chain ->
                                assertThat(signatures(model, chain))
                                        .containsExactly(
                                                "<pa.App: void main(java.lang.String[])>",
                                                "<pa.App: void run(int)>",
                                                "<pa.App: void maybe(pa.Worker)>",
                                                "<pa.Worker: void work()>",
                                                "<pa.Worker: void step()>"));
        assertThat(result.cfgs()).hasSize(model.getMethods().size());
        for (int i = 0; i < model.getMethods().size(); i++) {
            assertThat(result.cfgs().get(i).signature())
                    .isEqualTo(model.getMethods().get(i).getSignature());
            assertThat(result.cfgs().get(i).blocks()).isNotEmpty();
        }
        // run(int) has the for loop: exactly one back edge.
        assertThat(result.cfgs().get(run).backEdges()).hasSize(1);
    }

    @Test
    void writesAndReadsTheModelFile() {
        Path file = work.resolve("model/pairs.fpm");
        ProgramModels.write(result.model(), file);
        assertThat(ProgramModels.read(file)).isEqualTo(result.model());
    }

    @Test
    void skipsCorruptClassesAndReportsMissingDependencies() throws IOException {
        Path broken = work.resolve("broken.jar");
        FixtureJars.jar(
                work.resolve("pairsapp-classes"),
                broken,
                List.of(
                        Map.entry(
                                "pa/Corrupt.class",
                                "\u00ca\u00fe\u00ba\u00be not really"
                                        .getBytes(StandardCharsets.ISO_8859_1))));
        Path dependent = work.resolve("dependent");
        Files.createDirectories(dependent.resolve("dep"));
        // A class extending a type the classpath does not hold.
        Path missingSource = work.resolve("missing-src");
        Files.createDirectories(missingSource.resolve("lib"));
        Files.createDirectories(missingSource.resolve("app"));
        Files.writeString(
                missingSource.resolve("lib/Base.java"), "package lib; public class Base {}");
        Files.writeString(
                missingSource.resolve("app/Uses.java"),
                "package app; public class Uses extends lib.Base { void f() {} }");
        Path classes = work.resolve("missing-classes");
        var compiler = javax.tools.ToolProvider.getSystemJavaCompiler();
        assertThat(
                        compiler.run(
                                null,
                                null,
                                null,
                                "-d",
                                classes.toString(),
                                missingSource.resolve("lib/Base.java").toString(),
                                missingSource.resolve("app/Uses.java").toString()))
                .isEqualTo(0);
        Files.delete(classes.resolve("lib/Base.class"));
        Path usesJar = work.resolve("uses.jar");
        FixtureJars.jar(classes, usesJar, List.of());

        AnalysisResult partial =
                ProgramAnalyzer.analyze(
                        AnalysisRequest.of(broken, "broken:1")
                                .withWorld(World.APPLICATION)
                                .withClasspath(List.of(work.resolve("nowhere.jar"))));
        assertThat(partial.skipped())
                .containsKey("pa.Corrupt")
                .containsEntry(work.resolve("nowhere.jar").toString(), "classpath entry not found");
        assertThat(partial.skipped().get("pa.Corrupt")).startsWith("corrupt class file");
        assertThat(partial.model().getPairs()).isEqualTo(result.model().getPairs());
        assertThat(partial.model().getAnalysisStats()).containsEntry("skipped.corruptClasses", 1.0);

        AnalysisResult missing = ProgramAnalyzer.analyze(AnalysisRequest.of(usesJar, "uses:1"));
        assertThat(missing.missingClasses()).contains("lib.Base");
        // The missing superclass might declare f(): it is treated as overriding a library method.
        assertThat(missing.unknownCallers())
                .containsEntry("<app.Uses: void f()>", "overrides a library or JDK method");
        assertThat(missing.model().getMethods()).hasSize(2);
    }

    @Test
    void rejectsMissingFilesAndNonJars() throws IOException {
        assertThatThrownBy(
                        () ->
                                ProgramAnalyzer.analyze(
                                        AnalysisRequest.of(work.resolve("no.jar"), "a:1")))
                .isInstanceOf(InvalidJarException.class)
                .hasMessageStartingWith("no such file");
        Path text = Files.writeString(work.resolve("notajar.jar"), "plain text");
        assertThatThrownBy(() -> ProgramAnalyzer.analyze(AnalysisRequest.of(text, "a:1")))
                .isInstanceOf(InvalidJarException.class)
                .hasMessageContaining("not a jar");
    }

    static Set<String> pairStrings(ProgramModel model) {
        Set<String> out = new TreeSet<>();
        for (OrderPair pair : model.getPairs()) {
            out.add(
                    (pair.getRule().name().startsWith("DOMINATING") ? "DOMINATING " : "ONLY ")
                            + model.getMethods().get(pair.getLeft()).getSignature()
                            + " <= "
                            + model.getMethods().get(pair.getRight()).getSignature());
        }
        return out;
    }

    static int id(ProgramModel model, String signature) {
        for (MethodInfo method : model.getMethods()) {
            if (method.getSignature().equals(signature)) {
                return method.getId();
            }
        }
        throw new AssertionError("no method " + signature);
    }

    static List<String> signatures(ProgramModel model, int[] ids) {
        List<String> out = new ArrayList<>();
        for (int id : ids) {
            out.add(model.getMethods().get(id).getSignature());
        }
        return out;
    }
}
