package dev.fieldprof.bytecode.instrument;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fieldprof.analysis.AnalysisRequest;
import dev.fieldprof.analysis.AnalysisResult;
import dev.fieldprof.analysis.FixtureJars;
import dev.fieldprof.analysis.ProgramAnalyzer;
import dev.fieldprof.analysis.World;
import dev.fieldprof.bytecode.AppPackages;
import dev.fieldprof.bytecode.jar.InvalidJarException;
import dev.fieldprof.bytecode.jar.JarContents;
import dev.fieldprof.bytecode.model.MethodInventory;
import dev.fieldprof.bytecode.model.ProgramModels;
import dev.fieldprof.schemas.OrderPair;
import dev.fieldprof.schemas.ProgramModel;
import java.io.File;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.tree.ClassNode;

class JarInstrumenterTest {

    @TempDir static Path work;
    static Path appJar;
    static Path probesClasses;
    static ProgramModel model;
    static Path instrumented;
    static InstrumentationResult result;

    @BeforeAll
    static void instrumentFixture() throws IOException {
        appJar = FixtureJars.compileToJar("java17app", work, null);
        probesClasses = FixtureJars.compile("probes", work.resolve("probes-classes"), null);
        MethodInventory inventory =
                MethodInventory.of(JarContents.read(appJar), AppPackages.parse("fx"));
        model =
                ProgramModels.build(
                        "fixture:1.0",
                        Instant.ofEpochMilli(0),
                        inventory.signatures(),
                        List.of(),
                        ProgramModels.privacyConfig(
                                "default", ProgramModels.DEFAULT_EPSILON, 1, null, 3),
                        Map.of());
        instrumented = work.resolve("out/instrumented.jar");
        result = new JarInstrumenter(false).instrument(appJar, model, instrumented);
    }

    @Test
    void countsEveryMethodEntryExactlyUnderFullVerification() throws Exception {
        Path counts = runInstrumentedFixture();
        Map<String, Long> bySignature = new TreeMap<>();
        for (String line : Files.readAllLines(counts)) {
            String[] parts = line.split(" ");
            bySignature.put(
                    model.getMethods().get(Integer.parseInt(parts[0])).getSignature(),
                    Long.parseLong(parts[1]));
        }
        assertThat(bySignature).isEqualTo(expectedCounts());
    }

    @Test
    void analyzerFindsTheSameMethodsAndItsPairsHoldOnTheRun() throws Exception {
        AnalysisResult analysis =
                ProgramAnalyzer.analyze(
                        AnalysisRequest.of(appJar, "fixture:1.0")
                                .withAppPackages(AppPackages.parse("fx"))
                                .withWorld(World.APPLICATION));
        // V from Soot equals V from the ASM inventory the instrumenter used: ids agree.
        assertThat(analysis.model().getMethods()).isEqualTo(model.getMethods());
        assertThat(analysis.model().getPairs()).isNotEmpty();
        Map<Integer, Long> counts = new TreeMap<>();
        for (String line : Files.readAllLines(runInstrumentedFixture())) {
            String[] parts = line.split(" ");
            counts.put(Integer.parseInt(parts[0]), Long.parseLong(parts[1]));
        }
        for (OrderPair pair : analysis.model().getPairs()) {
            assertThat(counts.getOrDefault(pair.getLeft(), 0L))
                    .as(
                            "%s <= %s",
                            model.getMethods().get(pair.getLeft()).getSignature(),
                            model.getMethods().get(pair.getRight()).getSignature())
                    .isLessThanOrEqualTo(counts.getOrDefault(pair.getRight(), 0L));
        }
    }

    private static Path runInstrumentedFixture() throws Exception {
        Path counts = Files.createTempFile(work, "counts", ".txt");
        String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
        Process process =
                new ProcessBuilder(
                                java,
                                "-Xverify:all",
                                "-Dfieldprof.counts=" + counts,
                                "-cp",
                                instrumented + File.pathSeparator + probesClasses,
                                "fx.Main")
                        .redirectErrorStream(true)
                        .start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(output).isEqualTo(0);
        assertThat(output).contains("result 12 25 23 17");
        return counts;
    }

    private static Map<String, Long> expectedCounts() {
        Map<String, Long> expected = new TreeMap<>();
        expected.put("<fx.Main$1: void <clinit>()>", 1L);
        expected.put("<fx.Main$Circle: double r()>", 4L);
        expected.put("<fx.Main$Circle: void <init>(double)>", 1L);
        expected.put("<fx.Main$Inner: int call(int)>", 3L);
        expected.put("<fx.Main$Inner: void <init>(fx.Main)>", 1L);
        expected.put("<fx.Main$Kind: fx.Main$Kind[] $values()>", 1L);
        expected.put("<fx.Main$Kind: fx.Main$Kind[] values()>", 1L);
        expected.put("<fx.Main$Kind: void <clinit>()>", 1L);
        expected.put("<fx.Main$Kind: void <init>(java.lang.String,int)>", 2L);
        expected.put("<fx.Main$Square: double side()>", 8L);
        expected.put("<fx.Main$Square: void <init>(double)>", 3L);
        expected.put("<fx.Main: double area(fx.Main$Shape)>", 6L);
        expected.put("<fx.Main: fx.Main$Kind kind(fx.Main$Shape)>", 3L);
        expected.put("<fx.Main: int lambda$main$0(int)>", 1L);
        expected.put("<fx.Main: int parse(java.lang.String)>", 2L);
        expected.put("<fx.Main: int secret(int)>", 3L);
        expected.put("<fx.Main: int weight(fx.Main$Kind)>", 3L);
        expected.put("<fx.Main: void <init>(int)>", 1L);
        expected.put("<fx.Main: void main(java.lang.String[])>", 1L);
        return expected;
    }

    @Test
    void insertsOneProbePerModelMethodAndFindsThemAll() {
        assertThat(result.modelMethodsNotFound()).isEmpty();
        assertThat(result.probesInserted()).isEqualTo(model.getMethods().size());
        // fx.Main and 5 nested/synthetic classes with code; the sealed interface has none.
        assertThat(result.classesInstrumented()).isEqualTo(6);
        assertThat(result.classesCopied()).isEqualTo(2);
    }

    @Test
    void keepsClassVersionsAndJava17Attributes() throws IOException {
        JarContents before = JarContents.read(appJar);
        JarContents after = JarContents.read(instrumented);
        for (String name : before.classes().keySet()) {
            ClassNode original = node(before.classes().get(name));
            ClassNode rewritten = node(after.classes().get(name));
            assertThat(rewritten.version).as(name).isEqualTo(original.version);
            assertThat(rewritten.access).as(name).isEqualTo(original.access);
            assertThat(rewritten.nestHostClass).as(name).isEqualTo(original.nestHostClass);
            assertThat(rewritten.nestMembers).as(name).isEqualTo(original.nestMembers);
            assertThat(rewritten.permittedSubclasses)
                    .as(name)
                    .isEqualTo(original.permittedSubclasses);
            assertThat(rewritten.recordComponents == null)
                    .as(name)
                    .isEqualTo(original.recordComponents == null);
            assertThat(rewritten.methods).hasSameSizeAs(original.methods);
        }
        assertThat(node(after.classes().get("fx/Main$Shape")).permittedSubclasses)
                .containsExactly("fx/Main$Circle", "fx/Main$Square");
        assertThat(node(after.classes().get("fx/Main$Circle")).recordComponents).hasSize(1);
    }

    @Test
    void leavesNonApplicationClassesByteIdentical() {
        JarContents before = JarContents.read(appJar);
        JarContents after = JarContents.read(instrumented);
        assertThat(after.classes().get("lib/Library"))
                .isEqualTo(before.classes().get("lib/Library"));
        assertThat(after.classes().get("fx/Main$Shape"))
                .isEqualTo(before.classes().get("fx/Main$Shape"));
    }

    @Test
    void writesTheDeviceBudgetIntoTheClientPropertiesOfAUserLevelModel() throws IOException {
        Path budgeted = work.resolve("budgeted.jar");
        new JarInstrumenter(false, DeviceBudget.DEFAULT)
                .instrument(appJar, ProgramModels.userLevel(model), budgeted);
        byte[] bytes =
                JarContents.read(budgeted).entries().stream()
                        .filter(e -> e.name().equals(JarInstrumenter.CLIENT_PROPERTIES))
                        .findFirst()
                        .orElseThrow()
                        .bytes();
        Properties properties = new Properties();
        properties.load(new StringReader(new String(bytes, StandardCharsets.UTF_8)));
        assertThat(properties.getProperty("privacy.mode")).isEqualTo("user-level");
        assertThat(properties.getProperty("privacy.budget")).isEqualTo("2.1972245773362196");
        assertThat(properties.getProperty("privacy.budget.period")).isEqualTo("PT24H");
        // What a device reads from the jar: the client SDK's own parser of these properties.
        properties.setProperty("device.id", "reader");
        properties.setProperty("state.dir", work.resolve("reader-state").toString());
        dev.fieldprof.client.ClientConfig device =
                dev.fieldprof.client.ClientConfig.fromProperties(properties);
        assertThat(device.budget()).isEqualTo(Math.log(9));
        assertThat(device.budgetPeriod()).isEqualTo(java.time.Duration.ofDays(1));
    }

    @Test
    void refusesAModelWhoseEveryReportCostsMoreThanTheBudgetBeforeWritingAnything() {
        Path refused = work.resolve("refused.jar");
        assertThatThrownBy(
                        () ->
                                new JarInstrumenter(false, DeviceBudget.DEFAULT)
                                        .instrument(appJar, model, refused))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "each report of privacy configuration 'default' costs user-level eps 32.96"
                                + " (epsilon-t: eps*k/t with k=15, t=1), more than the device"
                                + " budget eps 2.197 per PT24H: no device could ever report; raise"
                                + " --budget, give --budget none, or use --privacy-mode"
                                + " user-level");
        assertThat(refused).doesNotExist();
    }

    @Test
    void writesClientPropertiesFromFirstPrivacyConfig() throws IOException {
        JarContents after = JarContents.read(instrumented);
        byte[] bytes =
                after.entries().stream()
                        .filter(e -> e.name().equals(JarInstrumenter.CLIENT_PROPERTIES))
                        .findFirst()
                        .orElseThrow()
                        .bytes();
        Properties properties = new Properties();
        properties.load(new StringReader(new String(bytes, StandardCharsets.UTF_8)));
        Map<String, String> expected = new TreeMap<>();
        expected.put("app.version", "fixture:1.0");
        expected.put("method.count", Integer.toString(model.getMethods().size()));
        expected.put("privacy.config.id", "default");
        expected.put("privacy.epsilon", "2.1972245773362196");
        expected.put("privacy.t", "1");
        expected.put("privacy.k", "15");
        expected.put("privacy.mode", "epsilon-t");
        assertThat(new TreeMap<>(properties)).isEqualTo(expected);
    }

    @Test
    void theClientSdksDefaultsAreTheInstrumentersDefaults() {
        dev.fieldprof.client.ClientConfig sdk =
                dev.fieldprof.client.ClientConfig.builder()
                        .appVersion("fixture:1.0")
                        .methodCount(model.getMethods().size())
                        .stateDir(work.resolve("defaults-state"))
                        .build();
        assertThat(sdk.budget()).isEqualTo(DeviceBudget.DEFAULT.epsilon());
        assertThat(sdk.budgetPeriod()).isEqualTo(DeviceBudget.DEFAULT.period());
        assertThat(sdk.privacy().epsilon()).isEqualTo(ProgramModels.DEFAULT_EPSILON);
        assertThat(sdk.privacy().mode()).isEqualTo(dev.fieldprof.schemas.PrivacyMode.USER_LEVEL);
        assertThat(DeviceBudget.DEFAULT.affords(sdk.privacy().userLevelEpsilonPerReport()))
                .isTrue();
    }

    @Test
    void refusesSignedJarUnlessStripping() throws IOException {
        Path signed = work.resolve("signed.jar");
        FixtureJars.jar(
                work.resolve("java17app-classes"),
                signed,
                List.of(
                        Map.entry(
                                "META-INF/MANIFEST.MF",
                                ("Manifest-Version: 1.0\r\n\r\nName: fx/Main.class\r\n"
                                                + "SHA-256-Digest: abc=\r\n\r\n")
                                        .getBytes(StandardCharsets.UTF_8)),
                        Map.entry("META-INF/SIGNER.SF", new byte[] {1}),
                        Map.entry("META-INF/SIGNER.RSA", new byte[] {2})));
        Path out = work.resolve("signed-out.jar");
        assertThatThrownBy(() -> new JarInstrumenter(false).instrument(signed, model, out))
                .isInstanceOf(InvalidJarException.class)
                .hasMessageContaining("refusing to instrument signed jar")
                .hasMessageContaining("--strip-signatures");
        assertThat(out).doesNotExist();

        InstrumentationResult stripped = new JarInstrumenter(true).instrument(signed, model, out);
        assertThat(stripped.strippedSignatureEntries())
                .containsExactly("META-INF/SIGNER.SF", "META-INF/SIGNER.RSA");
        JarContents after = JarContents.read(out);
        assertThat(after.signatureEntries()).isEmpty();
        assertThat(after.manifest().getEntries()).isEmpty();
    }

    @Test
    void rejectsMissingFileAndNonJar() throws IOException {
        assertThatThrownBy(
                        () ->
                                new JarInstrumenter(false)
                                        .instrument(
                                                work.resolve("nope.jar"),
                                                model,
                                                work.resolve("x.jar")))
                .isInstanceOf(InvalidJarException.class)
                .hasMessageStartingWith("no such file: ");
        Path text = Files.writeString(work.resolve("text.jar"), "hello, not a zip");
        assertThatThrownBy(
                        () ->
                                new JarInstrumenter(false)
                                        .instrument(text, model, work.resolve("y.jar")))
                .isInstanceOf(InvalidJarException.class)
                .hasMessageContaining("not a jar");
    }

    private static ClassNode node(byte[] bytes) {
        ClassNode node = new ClassNode();
        new ClassReader(bytes).accept(node, 0);
        return node;
    }
}
