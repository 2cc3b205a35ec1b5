package dev.fieldprof.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.paths.ArrayBranchTable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Properties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Lazy configuration from the device agent's description of the program instead of resources. */
class LoadTimeInstrumentationTest {
    @TempDir Path dir;

    @AfterEach
    void tearDown() {
        Probes.installed().ifPresent(DeviceRuntime::close);
        System.clearProperty("fieldprof.state.dir");
        System.clearProperty("fieldprof.transport");
        System.clearProperty("fieldprof.device.id");
        LoadTimeInstrumentation.resetForTests();
        Probes.install(null);
    }

    private static Properties described() {
        Properties p = new Properties();
        p.setProperty("app.version", "agent:1");
        p.setProperty("method.count", "4");
        p.setProperty("privacy.config.id", "default");
        p.setProperty("privacy.epsilon", "2.0");
        p.setProperty("privacy.t", "1");
        p.setProperty("privacy.k", "2");
        p.setProperty("privacy.mode", "epsilon-t");
        p.setProperty("privacy.budget", "none");
        return p;
    }

    /** The agent's {@code paths} option, given on the program's command line. */
    private static Properties pathsOnTheCommandLine() {
        Properties p = new Properties();
        p.setProperty("paths.enabled", "true");
        return p;
    }

    @Test
    void theFirstEventStartsTheRuntimeFromTheDescriptionUnderSystemProperties() {
        System.setProperty("fieldprof.state.dir", dir.toString());
        System.setProperty("fieldprof.transport", "none");
        Probes.resetForTests();
        LoadTimeInstrumentation.describeProgram(
                described(),
                pathsOnTheCommandLine(),
                ArrayBranchTable.builder(4).branch(1, 0, 2).build(),
                null);
        Probes.enter(1);
        Probes.enter(3);
        DeviceRuntime runtime = Probes.installed().orElseThrow();
        assertThat(runtime.config().appVersion()).isEqualTo("agent:1");
        assertThat(runtime.config().methodCount()).isEqualTo(4);
        assertThat(runtime.config().endEpochAtExit()).isTrue(); // epoch.span=run by default
        // The described table was seen: only the transport keeps path tracing off.
        assertThat(runtime.pathTracingOffReason())
                .contains("path reports need transport=kafka, not NONE");
        assertThat(runtime.endEpoch().outcome()).isEqualTo(DeviceRuntime.Outcome.REPORTED);
    }

    @Test
    void theDeviceIdTheAgentPicksAVariantByIsTheOneTheRuntimeKeeps() throws IOException {
        System.setProperty("fieldprof.state.dir", dir.toString());
        System.setProperty("fieldprof.transport", "none");
        LoadTimeInstrumentation.describeProgram(described(), pathsOnTheCommandLine(), null, null);
        ClientConfig config = LoadTimeInstrumentation.config().orElseThrow();
        String id = LoadTimeInstrumentation.deviceId(config);
        assertThat(LoadTimeInstrumentation.tracesPaths(config, null)).isFalse();
        try (DeviceRuntime runtime = DeviceRuntime.start(config)) {
            assertThat(runtime.deviceId()).isEqualTo(id);
        }
        System.setProperty("fieldprof.device.id", "fixed-7");
        assertThat(LoadTimeInstrumentation.deviceId(LoadTimeInstrumentation.config().orElseThrow()))
                .isEqualTo("fixed-7");
    }
}
