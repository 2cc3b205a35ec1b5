package dev.fieldprof.client;

import dev.fieldprof.paths.BranchTable;
import dev.fieldprof.paths.ProbePlanText;
import java.io.IOException;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the device agent ({@code -javaagent:fieldprof-device.jar=model=...}) tells the device
 * runtime about the program it instruments as classes load: the settings, branch table and probe
 * plan that an instrumented jar carries as resources ({@value ClientConfig#RESOURCE}, {@code
 * branches.txt}, {@code plan.txt}), here taken from the program model. Once described, lazy
 * configuration ({@link Probes}) reads these instead of the class path's resources. Also counts
 * what the agent did, for {@link DeviceMetrics}. Thread-safe.
 */
public final class LoadTimeInstrumentation {
    private record Program(
            Properties clientProperties,
            Properties commandLine,
            BranchTable branches,
            ProbePlanText plan) {}

    private static volatile Program program;
    private static final AtomicLong CLASSES_INSTRUMENTED = new AtomicLong();
    private static final AtomicLong CLASSES_LEFT = new AtomicLong();

    private LoadTimeInstrumentation() {}

    /**
     * Describes the program, before any of its instrumented classes runs.
     *
     * @param clientProperties the settings an instrumented jar's {@value ClientConfig#RESOURCE}
     *     would hold (keys without the {@code fieldprof.} prefix); copied
     * @param branches the program's branch table, or null without path probes
     * @param plan the program's probe plan, or null
     */
    public static void describeProgram(
            Properties clientProperties, BranchTable branches, ProbePlanText plan) {
        describeProgram(clientProperties, new Properties(), branches, plan);
    }

    /**
     * As above, with the settings given on the program's command line (the agent's options, keys
     * without the prefix): over the program's settings and under the system properties, and like
     * them the machine's user's, so they may turn path tracing on ({@link PathsConsent}).
     */
    public static void describeProgram(
            Properties clientProperties,
            Properties commandLine,
            BranchTable branches,
            ProbePlanText plan) {
        if (clientProperties == null || commandLine == null) {
            throw new IllegalArgumentException("clientProperties and commandLine must not be null");
        }
        Properties copy = new Properties();
        copy.putAll(clientProperties);
        Properties options = new Properties();
        options.putAll(commandLine);
        program = new Program(copy, options, branches, plan);
    }

    /** Whether the device agent described the program. */
    public static boolean described() {
        return program != null;
    }

    /**
     * The device's configuration: the described settings under {@code fieldprof.*} system
     * properties, as lazy configuration builds it; empty if nothing is described.
     *
     * @throws IllegalArgumentException naming the setting that is invalid
     */
    public static Optional<ClientConfig> config() {
        Program p = program;
        return p == null
                ? Optional.empty()
                : ClientConfig.withSystemProperties(p.clientProperties, p.commandLine);
    }

    /** The described branch table, or null. */
    static BranchTable branches() {
        Program p = program;
        return p == null ? null : p.branches;
    }

    /** The described probe plan, or null. */
    static ProbePlanText plan() {
        Program p = program;
        return p == null ? null : p.plan;
    }

    /**
     * Whether a runtime of {@code config} will trace paths with {@code branches}: opted in, a
     * branch table, and Kafka to send the reports. The agent inserts path probes only then.
     */
    public static boolean tracesPaths(ClientConfig config, BranchTable branches) {
        return DevicePaths.whyOff(config, branches, null) == null;
    }

    /**
     * The id a runtime of {@code config} will have: the configured one, else the one kept in its
     * state directory (created there on first use). A probe plan's variant is a hash of it.
     */
    public static String deviceId(ClientConfig config) throws IOException {
        return DeviceRuntime.deviceIdOf(config);
    }

    /** Counts a class the agent instrumented as it loaded. */
    public static void classInstrumented() {
        CLASSES_INSTRUMENTED.incrementAndGet();
    }

    /** Counts a class of the model the agent left as it was because instrumenting it failed. */
    public static void classLeftAsItWas() {
        CLASSES_LEFT.incrementAndGet();
    }

    public static long classesInstrumented() {
        return CLASSES_INSTRUMENTED.get();
    }

    public static long classesLeftAsTheyWere() {
        return CLASSES_LEFT.get();
    }

    /** Forgets the description and the counts (tests only). */
    static void resetForTests() {
        program = null;
        CLASSES_INSTRUMENTED.set(0);
        CLASSES_LEFT.set(0);
    }
}
