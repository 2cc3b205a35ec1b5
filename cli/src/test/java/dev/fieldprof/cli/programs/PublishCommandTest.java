package dev.fieldprof.cli.programs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.cli.CliCapture;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PublishCommandTest {
    @TempDir Path dir;

    private final CliCapture cli = new CliCapture();

    @Test
    void missingModelFileIsAUsageErrorNamingTheOption() {
        int exit =
                cli.run(
                        "publish",
                        "--bootstrap",
                        "127.0.0.1:1",
                        "--model",
                        dir.resolve("none").toString());
        assertThat(exit).isEqualTo(2);
        assertThat(cli.err()).startsWith("--model: no such file: ");
    }

    @Test
    void fileThatIsNotAModelFailsWithOneLine() throws Exception {
        Path junk = Files.writeString(dir.resolve("junk.model"), "hello");
        int exit = cli.run("publish", "--bootstrap", "127.0.0.1:1", "--model", junk.toString());
        assertThat(exit).isEqualTo(1);
        assertThat(cli.err()).startsWith("fieldprof: --model " + junk + " is not a program model");
        assertThat(cli.err().lines()).hasSize(1);
    }

    @Test
    void unreachableBrokerFailsWithinTheTimeoutWithOneLineNamingTheBroker() throws Exception {
        Path model = dir.resolve("tiny.model");
        dev.fieldprof.bytecode.model.ProgramModels.write(
                dev.fieldprof.bytecode.model.ProgramModels.build(
                        "tiny:1",
                        java.time.Instant.ofEpochMilli(0),
                        java.util.List.of("<p.A: void a()>"),
                        java.util.List.of(),
                        dev.fieldprof.bytecode.model.ProgramModels.privacyConfig(
                                "default", Math.log(9), 1, 5, 1),
                        java.util.Map.of()),
                model);
        int exit =
                cli.run(
                        "publish",
                        "--bootstrap",
                        "127.0.0.1:1",
                        "--model",
                        model.toString(),
                        "--timeout",
                        "2s");
        assertThat(exit).isEqualTo(1);
        // Asked once before the model is sent, within --timeout.
        assertThat(cli.err())
                .isEqualTo(
                        "fieldprof: no Kafka broker answered at 127.0.0.1:1 within 2 s (is it"
                                + " running, and do security.protocol=PLAINTEXT and the port match"
                                + " its listener?)"
                                + System.lineSeparator());
    }
}
