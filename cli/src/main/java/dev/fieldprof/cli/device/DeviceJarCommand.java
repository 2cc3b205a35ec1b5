package dev.fieldprof.cli.device;

import dev.fieldprof.cli.support.CheckoutArtifacts;
import dev.fieldprof.cli.support.CliFailure;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code fieldprof device-jar --out DIR}: copies the device artifact that the device-agent module
 * builds ({@code device-agent/target/fieldprof-device-<version>.jar}: the client SDK with its
 * dependencies relocated, and the {@code -javaagent}) to {@code DIR/fieldprof-device.jar}, a name
 * that stays the same across versions for the devices' start scripts.
 */
@Command(
        name = "device-jar",
        mixinStandardHelpOptions = true,
        description =
                "Copy the device artifact (the client SDK with its dependencies relocated, and a"
                        + " -javaagent that instruments a program model's classes as they load) to"
                        + " DIR/fieldprof-device.jar.")
public final class DeviceJarCommand implements Callable<Integer> {
    /** What the device-agent module builds. */
    static final String ARTIFACT_GLOB = "fieldprof-device-*.jar";

    /** The copy's name. */
    static final String COPY_NAME = "fieldprof-device.jar";

    @Option(
            names = "--out",
            required = true,
            paramLabel = "DIR",
            description = "Directory to copy fieldprof-device.jar into (created if needed).")
    Path out;

    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        Path artifact =
                CheckoutArtifacts.find("device-agent", ARTIFACT_GLOB)
                        .orElseThrow(
                                () ->
                                        new CliFailure(
                                                "no device artifact found (device-agent/target/"
                                                        + ARTIFACT_GLOB
                                                        + "): build it with 'mvn -q -pl"
                                                        + " device-agent -am package"
                                                        + " -DskipTests'"));
        Path copy = out.resolve(COPY_NAME);
        long bytes;
        try {
            Files.createDirectories(out);
            Files.copy(artifact, copy, StandardCopyOption.REPLACE_EXISTING);
            bytes = Files.size(copy);
        } catch (IOException e) {
            throw new CliFailure("cannot write " + copy + ": " + e.getMessage());
        }
        PrintWriter stdout = spec.commandLine().getOut();
        stdout.println(
                String.format(
                        Locale.ROOT,
                        "%s (%.1f MB) copied to %s",
                        artifact.getFileName(),
                        bytes / 1e6,
                        copy));
        stdout.println(
                "run a device: java -javaagent:"
                        + copy
                        + "=model=APP.model -Dfieldprof.transport=kafka"
                        + " -Dfieldprof.transport.kafka.bootstrap.servers=HOST:PORT -jar app.jar");
        stdout.flush();
        return 0;
    }
}
