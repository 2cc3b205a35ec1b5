package dev.fieldprof.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.Gson;
import dev.fieldprof.workloads.RandomApiDriver;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A host program in its own JVM for the device agent's tests: gson from Maven Central driven by the
 * workloads module's seeded driver ({@link AgentHostMain}), on a class path that carries its own
 * kafka-clients (another version than the agent's) and SLF4J binding, or no Kafka client at all.
 * The agent jar and the host libraries come from the build (system properties set by the failsafe
 * configuration).
 */
final class AgentHost {
    /** Random API calls each run makes. */
    static final int CALLS = 300;

    final Path agentJar;
    final Path gsonJar;
    private final String classPath;
    private final String ownKafkaClient;
    private final Path work;

    /** What one run of the host printed. */
    record Output(List<String> stdout, List<String> stderr, int exitCode) {}

    /** A host with its own kafka-clients and SLF4J binding on its class path. */
    AgentHost(Path work) throws Exception {
        this(work, true);
    }

    /**
     * @param work where the runs' output files go
     * @param ownKafka whether the host's class path holds its own kafka-clients and SLF4J binding
     */
    AgentHost(Path work, boolean ownKafka) throws Exception {
        this.work = work;
        agentJar = Path.of(System.getProperty("fieldprof.device.jar"));
        Path hostLibs = Path.of(System.getProperty("fieldprof.host.libs"));
        String kafkaVersion = System.getProperty("fieldprof.host.kafka.version");
        ownKafkaClient =
                ownKafka
                        ? "kafka-clients "
                                + kafkaVersion
                                + " from kafka-clients-"
                                + kafkaVersion
                                + ".jar"
                        : "no kafka-clients";
        assertThat(agentJar).isRegularFile();
        gsonJar = jarOf(Gson.class);
        List<String> entries = new ArrayList<>();
        entries.add(jarOf(AgentHostMain.class).toString());
        entries.add(jarOf(RandomApiDriver.class).toString());
        entries.add(gsonJar.toString());
        if (ownKafka) {
            try (Stream<Path> libs = Files.list(hostLibs)) {
                libs.sorted().forEach(lib -> entries.add(lib.toString()));
            }
        }
        classPath = String.join(File.pathSeparator, entries);
    }

    /** The host's stdout of a run: its own Kafka client (or none), then the calls it made. */
    List<String> expectedStdout() {
        return List.of(ownKafkaClient, "calls " + CALLS);
    }

    /** Runs the host with the given JVM options and driver seed, within 120 s. */
    Output run(List<String> jvmOptions, long seed) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx512m");
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(classPath);
        command.add(AgentHostMain.class.getName());
        command.add(gsonJar.toString());
        command.add("com.google.gson");
        command.add(Long.toString(seed));
        command.add(Integer.toString(CALLS));
        Path out = Files.createTempFile(work, "host-", ".out");
        Path err = Files.createTempFile(work, "host-", ".err");
        Process process =
                new ProcessBuilder(command)
                        .redirectOutput(out.toFile())
                        .redirectError(err.toFile())
                        .start();
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("the host did not finish in 120 s: " + command);
        }
        return new Output(lines(out), lines(err), process.exitValue());
    }

    private static List<String> lines(Path file) throws IOException {
        return Files.readAllLines(file, StandardCharsets.UTF_8);
    }

    private static Path jarOf(Class<?> type) throws Exception {
        return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
    }
}
