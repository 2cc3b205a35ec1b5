package dev.fieldprof.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.analysis.AnalysisRequest;
import dev.fieldprof.analysis.ProgramAnalyzer;
import dev.fieldprof.analysis.plan.PlanOptions;
import dev.fieldprof.analysis.plan.ProbePlanner;
import dev.fieldprof.analysis.plan.Strategy;
import dev.fieldprof.bytecode.AppPackages;
import dev.fieldprof.bytecode.MethodSignatures;
import dev.fieldprof.bytecode.instrument.PathProbeInstrumenter;
import dev.fieldprof.bytecode.jar.JarContents;
import dev.fieldprof.bytecode.model.ProgramModels;
import dev.fieldprof.paths.ProbePlanText;
import dev.fieldprof.schemas.ProgramModel;
import java.nio.file.Path;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import net.jpountz.lz4.LZ4Factory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.FieldVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * With a planned model the agent puts path probes only into the methods of this device's variant
 * (the remedy for the untraced methods' overhead), while every method of V still gets its entry
 * probe: on lz4-java, planned by the real planner into 6 variants.
 */
class VariantPathProbesTest {
    private static final String SITE_FIELD = "$fieldprof$paths$";

    @TempDir static Path work;
    static Path jar;
    static ProgramModel planned;
    static Path modelFile;

    /** Method ids the path instrumenter can trace at all (it skips jsr/ret and the like). */
    static Set<Integer> traceable;

    private final Properties saved = (Properties) System.getProperties().clone();

    @BeforeAll
    static void analyzeAndPlan() throws Exception {
        jar = Path.of(LZ4Factory.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        ProgramModel model =
                // User-level reports (the default of fieldprof analyze) fit the agent's default
                // budget; the probes do not depend on the privacy configuration.
                ProgramModels.userLevel(
                        ProgramAnalyzer.analyze(
                                        AnalysisRequest.of(jar, "lz4:1")
                                                .withAppPackages(
                                                        AppPackages.parse("net.jpountz.lz4")))
                                .model());
        planned =
                ProbePlanner.plan(model, PlanOptions.of(Strategy.BALANCED_PROBES, 6, 60, 7))
                        .applyTo(model);
        modelFile = work.resolve("lz4-planned.model");
        ProgramModels.write(planned, modelFile);
        PathProbeInstrumenter all =
                new PathProbeInstrumenter(AgentSetup.tracedMethods(model, null, 0));
        for (byte[] bytes : JarContents.read(jar).classes().values()) {
            all.instrumentClass(bytes);
        }
        traceable = new TreeSet<>(all.cfgs().keySet());
    }

    @AfterEach
    void restoreProperties() {
        System.setProperties(saved);
    }

    @Test
    void onlyTheDevicesVariantGetsPathProbesAndEveryMethodItsEntryProbe() throws Exception {
        ProbePlanText plan = ProbePlanText.of(planned);
        // Without path tracing (transport none) the agent inserts entry probes only.
        Probed entryOnly = instrumentAs("entry-only", false);
        assertThat(entryOnly.pathSites).isEmpty();
        assertThat(entryOnly.entryProbes).isPositive();
        Set<Set<Integer>> seen = new java.util.HashSet<>();
        for (String device : new String[] {"device-a", "device-b", "device-c"}) {
            int variant = plan.variantOf(device);
            Probed probed = instrumentAs(device, true);
            Set<Integer> expected = new TreeSet<>();
            boolean[] traced = plan.traced(variant);
            for (int id : traceable) {
                if (traced[id]) {
                    expected.add(id);
                }
            }
            assertThat(probed.pathSites).as(device + ", variant " + variant).isEqualTo(expected);
            assertThat(probed.pathSites.size()).isLessThan(traceable.size());
            assertThat(probed.entryProbes).isEqualTo(entryOnly.entryProbes);
            seen.add(probed.pathSites);
        }
        // The three devices fall into at least two variants with different methods.
        assertThat(seen).hasSizeGreaterThan(1);
    }

    /** Path sites and entry probes in the classes the agent transforms for this device. */
    record Probed(Set<Integer> pathSites, int entryProbes) {}

    private static Probed instrumentAs(String deviceId, boolean kafka) throws Exception {
        System.setProperty("fieldprof.state.dir", work.resolve("state").toString());
        System.setProperty("fieldprof.device.id", deviceId);
        // Path reports travel only over Kafka: with another transport nothing is traced.
        System.setProperty("fieldprof.transport", kafka ? "kafka" : "none");
        System.setProperty("fieldprof.transport.kafka.bootstrap.servers", "127.0.0.1:9");
        ModelClassTransformer agent =
                AgentSetup.transformer(AgentOptions.parse("model=" + modelFile + ",paths"));
        Set<Integer> sites = new TreeSet<>();
        int[] entries = {0};
        ClassLoader loader = VariantPathProbesTest.class.getClassLoader();
        for (JarContents.Entry entry : JarContents.read(jar).entries()) {
            String name = MethodSignatures.internalNameOfEntry(entry.name());
            if (name == null) {
                continue;
            }
            byte[] out = agent.transform(loader, name, null, null, entry.bytes());
            if (out != null) {
                new ClassReader(out).accept(new ProbeScan(sites, entries), 0);
            }
        }
        return new Probed(sites, entries[0]);
    }

    /** Collects path-site fields and counts calls of {@code Probes.enter}. */
    private static final class ProbeScan extends ClassVisitor {
        private final Set<Integer> sites;
        private final int[] entries;

        ProbeScan(Set<Integer> sites, int[] entries) {
            super(Opcodes.ASM9);
            this.sites = sites;
            this.entries = entries;
        }

        @Override
        public FieldVisitor visitField(
                int access, String name, String descriptor, String signature, Object value) {
            if (name.startsWith(SITE_FIELD)) {
                sites.add(Integer.parseInt(name.substring(SITE_FIELD.length())));
            }
            return null;
        }

        @Override
        public MethodVisitor visitMethod(
                int access, String name, String descriptor, String signature, String[] ex) {
            return new MethodVisitor(Opcodes.ASM9) {
                @Override
                public void visitMethodInsn(
                        int opcode, String owner, String method, String desc, boolean itf) {
                    if (owner.equals("dev/fieldprof/client/Probes") && method.equals("enter")) {
                        entries[0]++;
                    }
                }
            };
        }
    }
}
