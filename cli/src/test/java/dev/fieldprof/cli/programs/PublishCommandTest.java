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

    @Test
    void unreachableBrokerFailsWithOneLineNamingTopicAndBroker() throws Exception {
        Path model = dir.resolve("tiny.model");
        dev.fieldprof.analysis.model.ProgramModels.write(
                dev.fieldprof.analysis.model.ProgramModels.build(
                        "tiny:1",
                        java.time.Instant.ofEpochMilli(0),
                        java.util.List.of("<p.A: void a()>"),
                        java.util.List.of(),
                        dev.fieldprof.analysis.model.ProgramModels.privacyConfig(
                                "default", Math.log(9), 1, 5, 1),
                        java.util.Map.of()),
                model);
        int exit =
                run(
                        "publish",
                        "--bootstrap",
                        "127.0.0.1:1",
                        "--model",
                        model.toString(),
                        "--timeout",
                        "2s");
        assertThat(exit).isEqualTo(1);
        assertThat(err.toString())
                .startsWith("fieldprof: cannot publish to fieldprof.programs at 127.0.0.1:1: ");
        assertThat(err.toString().lines()).hasSize(1);
    }
}
