package dev.fieldprof.it;

import dev.fieldprof.workloads.RandomApiDriver;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.apache.kafka.common.utils.AppInfoParser;

/**
 * The host program of {@link DeviceAgentITCase}, run in its own JVM: a program with its own
 * kafka-clients version (or none) that drives a real library (gson) with the workloads module's
 * seeded driver. It prints which Kafka client it sees and how many calls it made, nothing else.
 *
 * <p>Arguments: LIBRARY_JAR PACKAGE_PREFIX SEED CALLS
 */
public final class AgentHostMain {
    private AgentHostMain() {}

    public static void main(String[] args) throws IOException {
        System.out.println(ownKafkaClient());
        RandomApiDriver driver =
                new RandomApiDriver(
                        AgentHostMain.class.getClassLoader(), classNames(args[0]), args[1]);
        RandomApiDriver.Run run = driver.run(Long.parseLong(args[2]), Integer.parseInt(args[3]));
        System.out.println("calls " + run.calls());
    }

    /** Which Kafka client the program's own class path holds, if any. */
    private static String ownKafkaClient() {
        try {
            return "kafka-clients "
                    + AppInfoParser.getVersion()
                    + " from "
                    + Path.of(
                                    AppInfoParser.class
                                            .getProtectionDomain()
                                            .getCodeSource()
                                            .getLocation()
                                            .getPath())
                            .getFileName();
        } catch (NoClassDefFoundError none) {
            return "no kafka-clients";
        }
    }

    private static List<String> classNames(String jar) throws IOException {
        List<String> names = new ArrayList<>();
        try (JarFile file = new JarFile(jar)) {
            for (JarEntry entry : Collections.list(file.entries())) {
                String name = entry.getName();
                if (name.endsWith(".class") && !name.contains("-info")) {
                    names.add(name.substring(0, name.length() - 6).replace('/', '.'));
                }
            }
        }
        Collections.sort(names);
        return names;
    }
}
