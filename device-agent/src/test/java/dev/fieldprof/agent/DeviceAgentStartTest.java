package dev.fieldprof.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.bytecode.model.ProgramModels;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the agent says when it cannot start: one line naming the problem, and nothing thrown. */
class DeviceAgentStartTest {
    @TempDir Path dir;
    private final Properties saved = (Properties) System.getProperties().clone();

    @AfterEach
    void restoreProperties() {
        System.setProperties(saved);
    }

    @Test
    void aMissingModelFileIsOneLineOnStderr() {
        Path missing = dir.resolve("no-such.model");
        PrintStream err = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            DeviceAgent.premain("model=" + missing, null);
        } finally {
            System.setErr(err);
        }
        assertThat(captured.toString(StandardCharsets.UTF_8))
                .isEqualTo(
                        "fieldprof agent: cannot read model file "
                                + missing
                                + ": java.nio.file.NoSuchFileException: "
                                + missing
                                + "; the program runs without fieldprof"
                                + System.lineSeparator());
    }

    @Test
    void namesWhatIsWrongWithTheOptionsTheModelOrTheSettings() throws Exception {
        assertThat(DeviceAgent.start(null, null))
                .isEqualTo(
                        "no program model given: use"
                                + " -javaagent:fieldprof-device.jar=model=FILE[,paths]");
        assertThat(DeviceAgent.start("model=a.model,trace", null))
                .isEqualTo(
                        "unknown agent option 'trace': use"
                                + " -javaagent:fieldprof-device.jar=model=FILE[,paths]");
        Path notAModel = Files.writeString(dir.resolve("app.jar"), "PK not a model");
        assertThat(DeviceAgent.start("model=" + notAModel, null))
                .startsWith("not a fieldprof program model: " + notAModel + " (");
        Path model = dir.resolve("app.model");
        ProgramModels.write(
                ProgramModels.build(
                        "app:1",
                        Instant.ofEpochMilli(0),
                        List.of("<a.B: void c()>"),
                        List.of(),
                        ProgramModels.privacyConfig("default", 1.0, 1, 5, 1),
                        Map.of()),
                model);
        System.setProperty("fieldprof.state.dir", dir.resolve("state").toString());
        System.setProperty("fieldprof.transport", "kafka");
        assertThat(DeviceAgent.start("model=" + model, null))
                .isEqualTo(
                        "invalid device setting: transport.kafka.bootstrap.servers is required:"
                                + " host:port[,host:port...] when transport=kafka");
    }

    @Test
    void aModelWhoseEveryReportCostsMoreThanTheBudgetDoesNotStart() throws Exception {
        Path model = dir.resolve("epsilon-t.model");
        ProgramModels.write(
                ProgramModels.build(
                        "app:2",
                        Instant.ofEpochMilli(0),
                        List.of("<a.B: void c()>"),
                        List.of(),
                        ProgramModels.privacyConfig("default", 1.0, 1, 5, 1),
                        Map.of()),
                model);
        System.setProperty("fieldprof.state.dir", dir.resolve("state-2").toString());
        // eps 1 per event, k = 5: each report costs 5, the default budget ln 9 a day.
        assertThat(DeviceAgent.start("model=" + model, null))
                .isEqualTo(
                        "each report of app:2 costs user-level eps 5.000, more than the device"
                                + " budget eps 2.197 per PT24H: none could ever be sent; set"
                                + " -Dfieldprof.privacy.budget (a larger eps, or none)");
        System.setProperty("fieldprof.privacy.budget", "none");
        System.setProperty("fieldprof.transport", "none");
        assertThat(AgentSetup.transformer(AgentOptions.parse("model=" + model))).isNotNull();
    }

    /** What premain prints on stdout and on stderr for {@code arguments}. */
    private static String[] printedBy(String arguments) {
        PrintStream out = System.out;
        PrintStream err = System.err;
        ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
        ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
        System.setOut(new PrintStream(outBytes, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(errBytes, true, StandardCharsets.UTF_8));
        try {
            DeviceAgent.premain(arguments, null);
        } finally {
            System.setOut(out);
            System.setErr(err);
        }
        return new String[] {
            outBytes.toString(StandardCharsets.UTF_8), errBytes.toString(StandardCharsets.UTF_8)
        };
    }

    private void assertOnlyLine(String arguments, String problem) {
        String[] printed = printedBy(arguments);
        assertThat(printed[0]).isEmpty();
        assertThat(printed[1])
                .isEqualTo(
                        "fieldprof agent: "
                                + problem
                                + "; the program runs without fieldprof"
                                + System.lineSeparator());
    }

    @Test
    void everyFailClosedStartPrintsExactlyItsOneLineAndNothingElse() throws Exception {
        Path model = dir.resolve("app.model");
        ProgramModels.write(
                ProgramModels.build(
                        "app:3",
                        Instant.ofEpochMilli(0),
                        List.of("<a.B: void c()>"),
                        List.of(),
                        ProgramModels.privacyConfig("default", 1.0, 1, 5, 1),
                        Map.of()),
                model);
        System.setProperty("fieldprof.state.dir", dir.resolve("state-3").toString());
        System.setProperty("fieldprof.transport", "none");
        // Bad options.
        assertOnlyLine(
                "model=" + model + ",trace",
                "unknown agent option 'trace': use"
                        + " -javaagent:fieldprof-device.jar=model=FILE[,paths]");
        // A model that cannot be read: a directory.
        assertOnlyLine(
                "model=" + dir,
                "cannot read model file " + dir + ": java.io.IOException: Is a directory");
        // A truncated model.
        byte[] whole = Files.readAllBytes(model);
        Path truncated = dir.resolve("truncated.model");
        Files.write(truncated, java.util.Arrays.copyOf(whole, whole.length / 2));
        String[] printed = printedBy("model=" + truncated);
        assertThat(printed[0]).isEmpty();
        assertThat(printed[1])
                .startsWith("fieldprof agent: not a fieldprof program model: " + truncated)
                .endsWith("; the program runs without fieldprof" + System.lineSeparator())
                .hasLineCount(1);
        // Every report over the budget.
        assertOnlyLine(
                "model=" + model,
                "each report of app:3 costs user-level eps 5.000, more than the device"
                        + " budget eps 2.197 per PT24H: none could ever be sent; set"
                        + " -Dfieldprof.privacy.budget (a larger eps, or none)");
        // An invalid setting whose value holds a line break and an escape sequence: still one
        // line, and nothing a terminal would act on.
        System.setProperty("fieldprof.privacy.budget", "none");
        System.setProperty("fieldprof.transport", "kafka\nfieldprof agent: started\u001b[2J");
        assertOnlyLine(
                "model=" + model,
                "invalid device setting: transport must be one of none, file, kafka, got"
                        + " 'kafka fieldprof agent: started [2J'");
    }
}
