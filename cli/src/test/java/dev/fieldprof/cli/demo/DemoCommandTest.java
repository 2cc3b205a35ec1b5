package dev.fieldprof.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.cli.CliCapture;
import org.junit.jupiter.api.Test;

class DemoCommandTest {
    private final CliCapture cli = new CliCapture();

    @Test
    void rejectsDeviceCountOutOfRangeNamingTheOption() {
        assertThat(cli.run("demo", "--devices", "0")).isEqualTo(2);
        assertThat(cli.err()).startsWith("--devices must be in [1, 1000], got 0");
    }

    @Test
    void rejectsABadDurationNamingTheValue() {
        assertThat(cli.run("demo", "--duration", "forever")).isEqualTo(2);
        assertThat(cli.err()).contains("'forever' is not a duration");
    }

    @Test
    void rejectsPrivacySettingsNoDeviceCouldUseBeforeAnythingStarts() {
        assertThat(cli.run("demo", "--budget", "0")).isEqualTo(2);
        assertThat(cli.err()).startsWith("the budget must be > 0 or none, got 0.0");
        assertThat(new CliCapture().run("demo", "--epsilon", "lots")).isEqualTo(2);
        CliCapture mode = new CliCapture();
        assertThat(mode.run("demo", "--privacy-mode", "central")).isEqualTo(2);
        assertThat(mode.err())
                .startsWith("--privacy-mode must be user-level or epsilon-t, was 'central'");
    }

    @Test
    void missingSampleProgramFailsWithOneLineNamingTheJar() {
        int exit = cli.run("demo", "--program-jar", "/nonexistent/app.jar", "--duration", "1s");
        assertThat(exit).isEqualTo(1);
        assertThat(cli.err())
                .isEqualTo(
                        "fieldprof: sample program jar not found: /nonexistent/app.jar (build it"
                                + " with: mvn -pl samples/demo-app package)"
                                + System.lineSeparator());
    }
}
