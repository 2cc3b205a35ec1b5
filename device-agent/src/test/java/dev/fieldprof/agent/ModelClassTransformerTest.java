package dev.fieldprof.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.analysis.AnalysisRequest;
import dev.fieldprof.analysis.ProgramAnalyzer;
import dev.fieldprof.bytecode.AppPackages;
import dev.fieldprof.bytecode.MethodSignatures;
import dev.fieldprof.bytecode.instrument.InstrumentationResult;
import dev.fieldprof.bytecode.instrument.JarInstrumenter;
import dev.fieldprof.bytecode.instrument.PathProbeInstrumenter;
import dev.fieldprof.bytecode.jar.JarContents;
import dev.fieldprof.bytecode.model.ProgramModels;
import dev.fieldprof.schemas.ProgramModel;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import net.jpountz.lz4.LZ4Factory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent's class-load transform against {@code fieldprof instrument}'s jar, on a real Maven
 * Central jar (lz4-java, which kafka-clients brings): every class the model does not cover loads
 * byte-identical, and every class it covers gets exactly the bytes the jar instrumenter writes.
 */
class ModelClassTransformerTest {
    @TempDir static Path work;
    static Path jar;
    static ProgramModel model;
    static Path modelFile;
    private final Properties saved = (Properties) System.getProperties().clone();

    @BeforeAll
    static void analyze() throws Exception {
        jar = Path.of(LZ4Factory.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        // The lz4 package is the program; xxhash and util stay outside the model.
        model =
                // User-level reports (the default of fieldprof analyze) fit the agent's default
                // budget; the probes do not depend on the privacy configuration.
                ProgramModels.userLevel(
                        ProgramAnalyzer.analyze(
                                        AnalysisRequest.of(jar, "lz4:1")
                                                .withAppPackages(
                                                        AppPackages.parse("net.jpountz.lz4")))
                                .model());
        modelFile = work.resolve("lz4.model");
        ProgramModels.write(model, modelFile);
    }

    @AfterEach
    void restoreProperties() {
        System.setProperties(saved);
    }

    @Test
    void entryProbesAreTheJarInstrumentersBytesAndOtherClassesAreLeftAlone() throws Exception {
        System.setProperty("fieldprof.state.dir", work.resolve("state-entry").toString());
        System.setProperty("fieldprof.transport", "none");
        ModelClassTransformer agent =
                AgentSetup.transformer(AgentOptions.parse("model=" + modelFile));
        Path out = work.resolve("entry.jar");
        InstrumentationResult result = new JarInstrumenter(false).instrument(jar, model, out);
        Comparison c = compare(agent, out);
        assertThat(c.mismatches).isZero();
        assertThat(c.instrumented).isEqualTo(result.classesInstrumented()).isPositive();
        assertThat(c.untouchedOutsideModel).isPositive();
    }

    @Test
    void pathAndEntryProbesAreTheJarInstrumentersBytes() throws Exception {
        System.setProperty("fieldprof.state.dir", work.resolve("state-paths").toString());
        System.setProperty("fieldprof.transport", "kafka");
        System.setProperty("fieldprof.transport.kafka.bootstrap.servers", "127.0.0.1:9");
        ModelClassTransformer agent =
                AgentSetup.transformer(AgentOptions.parse("model=" + modelFile + ",paths"));
        PathProbeInstrumenter paths =
                new PathProbeInstrumenter(AgentSetup.tracedMethods(model, null, 0));
        Path out = work.resolve("paths.jar");
        InstrumentationResult result =
                new JarInstrumenter(false).instrument(jar, model, paths, Map.of(), out);
        Comparison c = compare(agent, out);
        assertThat(paths.cfgs()).isNotEmpty();
        assertThat(c.mismatches).isZero();
        assertThat(c.instrumented).isEqualTo(result.classesInstrumented()).isPositive();
    }

    /** Classes compared between the agent's transform and the instrumented jar. */
    static final class Comparison {
        int instrumented;
        int untouchedOutsideModel;
        int mismatches;
    }

    static Comparison compare(ModelClassTransformer agent, Path instrumentedJar) {
        Map<String, byte[]> written = new HashMap<>();
        for (JarContents.Entry entry : JarContents.read(instrumentedJar).entries()) {
            written.put(entry.name(), entry.bytes());
        }
        Comparison c = new Comparison();
        ClassLoader loader = ModelClassTransformerTest.class.getClassLoader();
        for (JarContents.Entry entry : JarContents.read(jar).entries()) {
            String internalName = MethodSignatures.internalNameOfEntry(entry.name());
            if (internalName == null) {
                continue;
            }
            byte[] original = entry.bytes();
            byte[] loaded = agent.transform(loader, internalName, null, null, original.clone());
            byte[] expected = written.get(entry.name());
            if (loaded == null) {
                // The JVM then defines the class from its own bytes, unchanged.
                if (!Arrays.equals(expected, original)) {
                    c.mismatches++;
                }
                if (!internalName.startsWith("net/jpountz/lz4/")) {
                    c.untouchedOutsideModel++;
                }
            } else {
                c.instrumented++;
                if (!Arrays.equals(loaded, expected)) {
                    c.mismatches++;
                }
            }
        }
        return c;
    }
}
