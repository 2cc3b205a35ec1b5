package dev.fieldprof.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Lazy configuration of the process-wide runtime from {@code fieldprof.*} system properties. */
class ProbesAutoConfigurationTest {
    @TempDir Path dir;
    private Map<String, String> properties;

    private void setProperties(Map<String, String> values) {
        properties = values;
        values.forEach((k, v) -> System.setProperty(ClientConfig.SYSTEM_PREFIX + k, v));
        Probes.resetForTests();
    }

    @AfterEach
    void tearDown() {
        Probes.installed().ifPresent(DeviceRuntime::close);
        if (properties != null) {
            properties.keySet().forEach(k -> System.clearProperty(ClientConfig.SYSTEM_PREFIX + k));
        }
        Probes.install(null);
    }

    @Test
    void configuresItselfOnTheFirstEvent() {
        setProperties(
                Map.of(
                        "app.version", "auto:1",
                        "method.count", "3",
                        "privacy.epsilon", "ln(9)",
                        "privacy.t", "1",
                        "privacy.k", "2",
                        "privacy.mode", "epsilon-t",
                        "privacy.budget", "none",
                        "state.dir", dir.toString(),
                        "transport", "none",
                        "checkpoint.interval", "none"));
        Probes.enter(1);
        Probes.enter(2);
        DeviceRuntime runtime = Probes.installed().orElseThrow();
        assertThat(runtime.config().appVersion()).isEqualTo("auto:1");
        assertThat(runtime.endEpoch().outcome()).isEqualTo(DeviceRuntime.Outcome.REPORTED);
    }

    @Test
    void aBadConfigurationIsRecordedNotThrown() {
        setProperties(
                Map.of(
                        "app.version", "auto:1",
                        "method.count", "-5",
                        "privacy.epsilon", "1",
                        "privacy.t", "1",
                        "privacy.k", "2",
                        "privacy.mode", "epsilon-t",
                        "state.dir", dir.toString()));
        assertThatCode(() -> Probes.enter(1)).doesNotThrowAnyException();
        assertThat(Probes.installed()).isEmpty();
        assertThat(Probes.autoConfigurationFailure())
                .contains("method.count must be in [1, 10000000], got -5");
    }
}
