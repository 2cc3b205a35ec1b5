package dev.fieldprof.cli.programs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.cli.FieldprofCommand;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class PublishCommandTest {
    @TempDir Path dir;

    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cli = FieldprofCommand.commandLine();
        cli.setErr(new PrintWriter(err, true));
        return cli.execute(args);
    }

    @Test
    void missingModelFileIsAUsageErrorNamingTheOption() {
        int exit =
                run(
                        "publish",
                        "--bootstrap",
                        "127.0.0.1:1",
                        "--model",
                        dir.resolve("none").toString());
        assertThat(exit).isEqualTo(2);
        assertThat(err.toString()).startsWith("--model: no such file: ");
    }

    @Test
    void fileThatIsNotAModelFailsWithOneLine() throws Exception {
        Path junk = Files.writeString(dir.resolve("junk.model"), "hello");
        int exit = run("publish", "--bootstrap", "127.0.0.1:1", "--model", junk.toString());
        assertThat(exit).isEqualTo(1);
        assertThat(err.toString())
                .startsWith("fieldprof: --model " + junk + " is not a program model");
        assertThat(err.toString().lines()).hasSize(1);
    }
}
