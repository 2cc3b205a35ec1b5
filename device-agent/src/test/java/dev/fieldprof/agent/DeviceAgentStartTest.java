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
}
