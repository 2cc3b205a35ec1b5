package dev.fieldprof.cli.device;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.cli.CliCapture;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DeviceJarCommandTest {
    @TempDir Path dir;
    private final String home = System.getProperty("fieldprof.home");

    @AfterEach
    void restoreHome() {
        if (home == null) {
            System.clearProperty("fieldprof.home");
        } else {
            System.setProperty("fieldprof.home", home);
        }
    }

    @Test
    void copiesTheCheckoutsDeviceArtifactUnderAStableName() throws Exception {
        Path target = Files.createDirectories(dir.resolve("checkout/device-agent/target"));
        byte[] bytes = new byte[1_500_000];
        bytes[7] = 42;
        Files.write(target.resolve("fieldprof-device-9.9.jar"), bytes);
        Files.write(target.resolve("original-fieldprof-device-9.9.jar"), new byte[] {1});
        System.setProperty("fieldprof.home", dir.resolve("checkout").toString());
        Path out = dir.resolve("lib");

        CliCapture cli = new CliCapture();
        assertThat(cli.run("device-jar", "--out", out.toString())).isZero();

        assertThat(Files.readAllBytes(out.resolve("fieldprof-device.jar"))).isEqualTo(bytes);
        assertThat(cli.out())
                .isEqualTo(
                        "fieldprof-device-9.9.jar (1.5 MB) copied to "
                                + out.resolve("fieldprof-device.jar")
                                + System.lineSeparator()
                                + "run a device: java -javaagent:"
                                + out.resolve("fieldprof-device.jar")
                                + "=model=APP.model -Dfieldprof.transport=kafka"
                                + " -Dfieldprof.transport.kafka.bootstrap.servers=HOST:PORT"
                                + " -jar app.jar"
                                + System.lineSeparator());
        assertThat(cli.err()).isEmpty();
    }
}
