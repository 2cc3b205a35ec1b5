package dev.fieldprof.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.cli.FieldprofCommand;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class DemoCommandTest {
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cli = FieldprofCommand.commandLine();
        cli.setErr(new PrintWriter(err, true));
        return cli.execute(args);
    }

    @Test
    void rejectsDeviceCountOutOfRangeNamingTheOption() {
        assertThat(run("demo", "--devices", "0")).isEqualTo(2);
        assertThat(err.toString()).startsWith("--devices must be in [1, 1000], got 0");
    }

    @Test
    void rejectsABadDurationNamingTheValue() {
        assertThat(run("demo", "--duration", "forever")).isEqualTo(2);
        assertThat(err.toString()).contains("'forever' is not a duration");
    }

    @Test
    void missingSampleProgramFailsWithOneLineNamingTheJar() {
        int exit = run("demo", "--program-jar", "/nonexistent/app.jar", "--duration", "1s");
        assertThat(exit).isEqualTo(1);
        assertThat(err.toString())
                .isEqualTo(
                        "fieldprof: sample program jar not found: /nonexistent/app.jar (build it"
                                + " with: mvn -pl samples/demo-app install)"
                                + System.lineSeparator());
    }
}
