package dev.fieldprof.deploy.k8s;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Strimzi's CRDs, made the way Strimzi's own build makes the ones it publishes: its {@code
 * crd-generator} run over its {@code api} model with the arguments of the {@code api} module's pom
 * (both jars from Maven Central). Strimzi publishes no jar that carries the CRD files themselves.
 * For 1.2.0 the output is byte for byte the release's {@code packaging/install/cluster-operator}
 * files (checked when this was written). Both jars are compiled for Java 21, so the generator runs
 * in a child JVM of Java 21 or newer: {@code -Dstrimzi.java=PATH/bin/java}, else this JVM if new
 * enough, else the newest JDK beside this JVM's home (such as {@code /usr/lib/jvm/*}).
 */
final class StrimziCrds {
    private static final String GENERATOR = "io.strimzi.crdgenerator.CrdGenerator";
    private static final int GENERATOR_JAVA = 21;

    /** Model class → file name in Strimzi's install directory, for the kinds deploy/k8s uses. */
    static final Map<String, String> CRDS = crds();

    private static Map<String, String> crds() {
        Map<String, String> crds = new LinkedHashMap<>();
        crds.put("io.strimzi.api.kafka.model.kafka.Kafka", "040-Crd-kafka.yaml");
        crds.put("io.strimzi.api.kafka.model.topic.KafkaTopic", "043-Crd-kafkatopic.yaml");
        crds.put("io.strimzi.api.kafka.model.user.KafkaUser", "044-Crd-kafkauser.yaml");
        crds.put("io.strimzi.api.kafka.model.nodepool.KafkaNodePool", "045-Crd-kafkanodepool.yaml");
        return crds;
    }

    private StrimziCrds() {}

    /** The version of Strimzi's api jar on the class path. */
    static String version() {
        Properties properties = new Properties();
        try (InputStream in =
                StrimziCrds.class
                        .getClassLoader()
                        .getResourceAsStream("META-INF/maven/io.strimzi/api/pom.properties")) {
            if (in == null) {
                throw new IllegalStateException("io.strimzi:api is not on the class path");
            }
            properties.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return properties.getProperty("version");
    }

    /**
     * Generates the CRDs into {@code directory} (unless there already) and adds them to {@code
     * schemas}.
     */
    static void addTo(CustomResourceSchemas schemas, Path directory)
            throws IOException, InterruptedException {
        generate(directory);
        for (String file : CRDS.values()) {
            try (InputStream in = Files.newInputStream(directory.resolve(file))) {
                schemas.add(Manifests.readOne(in));
            }
        }
    }

    private static void generate(Path directory) throws IOException, InterruptedException {
        if (CRDS.values().stream().allMatch(file -> Files.isRegularFile(directory.resolve(file)))) {
            return;
        }
        Files.createDirectories(directory);
        List<String> command = new ArrayList<>();
        command.add(java().toString());
        command.add("-cp");
        command.add(
                System.getProperty(
                        "surefire.test.class.path", System.getProperty("java.class.path")));
        command.add(GENERATOR);
        // The arguments of the crd-generator execution in Strimzi's api/pom.xml.
        command.addAll(
                List.of(
                        "--label",
                        "app:strimzi",
                        "--label",
                        "strimzi.io/crd-install:true",
                        "--target-kube",
                        "1.16+",
                        "--crd-api-version",
                        "v1",
                        "--api-versions",
                        "v1",
                        "--storage-version",
                        "v1",
                        "--yaml"));
        CRDS.forEach(
                (model, file) ->
                        command.add(model + "=" + directory.resolve(file).toAbsolutePath()));
        Path log = directory.resolve("crd-generator.log");
        Process process =
                new ProcessBuilder(command)
                        .redirectErrorStream(true)
                        .redirectOutput(log.toFile())
                        .start();
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException(
                    GENERATOR + " did not finish within 120 s (log: " + log + ")");
        }
        if (process.exitValue() != 0) {
            throw new IllegalStateException(
                    GENERATOR
                            + " exited "
                            + process.exitValue()
                            + ": "
                            + Files.readString(log, StandardCharsets.UTF_8).strip());
        }
    }

    /** A {@code java} launcher of version 21 or newer. */
    static Path java() {
        String configured = System.getProperty("strimzi.java");
        if (configured != null && !configured.isBlank()) {
            return Path.of(configured);
        }
        Path home = Path.of(System.getProperty("java.home"));
        if (Runtime.version().feature() >= GENERATOR_JAVA) {
            return home.resolve("bin/java");
        }
        Optional<Path> sibling = Optional.empty();
        Path jvms = home.getParent();
        if (jvms != null && Files.isDirectory(jvms)) {
            try (Stream<Path> homes = Files.list(jvms)) {
                sibling =
                        homes.filter(jdk -> featureVersion(jdk) >= GENERATOR_JAVA)
                                .filter(jdk -> Files.isExecutable(jdk.resolve("bin/java")))
                                .max(Comparator.comparingInt(StrimziCrds::featureVersion));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return sibling.map(jdk -> jdk.resolve("bin/java"))
                .orElseThrow(
                        () ->
                                new IllegalStateException(
                                        "Strimzi "
                                                + version()
                                                + "'s CRD generator needs Java "
                                                + GENERATOR_JAVA
                                                + " or newer: none beside "
                                                + home
                                                + "; set -Dstrimzi.java=PATH/bin/java"));
    }

    /** The feature version a JDK's {@code release} file names, 0 when it has none. */
    private static int featureVersion(Path jdk) {
        Path release = jdk.resolve("release");
        if (!Files.isRegularFile(release)) {
            return 0;
        }
        try {
            for (String line : Files.readAllLines(release, StandardCharsets.UTF_8)) {
                if (line.startsWith("JAVA_VERSION=")) {
                    String version = line.substring("JAVA_VERSION=".length()).replace("\"", "");
                    return Runtime.Version.parse(version).feature();
                }
            }
        } catch (IOException | IllegalArgumentException e) {
            return 0;
        }
        return 0;
    }
}
