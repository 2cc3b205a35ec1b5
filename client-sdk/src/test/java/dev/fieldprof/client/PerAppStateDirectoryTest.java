package dev.fieldprof.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.client.DeviceRuntime.Outcome;
import dev.fieldprof.client.transport.CallbackReportTransport;
import dev.fieldprof.ldp.SeededRandomSource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Properties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Without a configured state directory each app keeps its state in {@code ~/.fieldprof/apps/<app>}:
 * its own device id and its own budget, so the apps of two vendors on one machine are not joined by
 * a shared id. A configured directory is used as given.
 */
class PerAppStateDirectoryTest {
    private static final double EPSILON = Math.log(9);
    private static final Clock NOON =
            Clock.fixed(Instant.parse("2026-03-01T12:00:00Z"), ZoneOffset.UTC);
    @TempDir Path dir;
    private String home;

    @BeforeEach
    void pointHomeAtATemporaryDirectory() {
        home = System.getProperty("user.home");
        System.setProperty("user.home", dir.resolve("home").toString());
    }

    @AfterEach
    void restoreHome() {
        System.setProperty("user.home", home);
    }

    /** One report a day (the default budget), no device id configured, no state dir. */
    private static ClientConfig.Builder app(String appVersion) {
        return ClientConfig.builder()
                .appVersion(appVersion)
                .methodCount(4)
                .userLevelPrivacy("default", EPSILON)
                .budget(EPSILON, Duration.ofDays(1))
                .checkpointInterval(null);
    }

    @Test
    void twoAppsWithTheDefaultStateDirectoryHaveTheirOwnDeviceIdAndBudget() throws Exception {
        ClientConfig editor = app("acme-editor:1.0").build();
        ClientConfig player = app("other.player:2.3").build();
        Path apps = dir.resolve("home/.fieldprof/apps");
        assertThat(editor.stateDir()).isEqualTo(apps.resolve("acme-editor"));
        assertThat(player.stateDir()).isEqualTo(apps.resolve("other.player"));

        String editorId;
        String playerId;
        try (CallbackReportTransport transport = new CallbackReportTransport(r -> {}, 8)) {
            try (DeviceRuntime runtime =
                    DeviceRuntime.start(editor, transport, new SeededRandomSource(1), NOON)) {
                editorId = runtime.deviceId();
                runtime.record(1);
                assertThat(runtime.endEpoch().outcome()).isEqualTo(Outcome.REPORTED);
            }
            try (DeviceRuntime runtime =
                    DeviceRuntime.start(player, transport, new SeededRandomSource(2), NOON)) {
                playerId = runtime.deviceId();
                runtime.record(1);
                // Its own budget: the editor's report today did not spend it.
                assertThat(runtime.endEpoch().outcome()).isEqualTo(Outcome.REPORTED);
                runtime.record(2);
                assertThat(runtime.endEpoch().outcome()).isEqualTo(Outcome.SKIPPED_BY_BUDGET);
            }
        }
        assertThat(editorId).isNotEqualTo(playerId);
        assertThat(Files.readString(apps.resolve("acme-editor/device-id")).trim())
                .isEqualTo(editorId);
        assertThat(Files.readString(apps.resolve("other.player/device-id")).trim())
                .isEqualTo(playerId);
        assertThat(dir.resolve("home/.fieldprof/device-id")).doesNotExist();
    }

    @Test
    void anUpgradeKeepsTheAppsStateDirectory() {
        assertThat(app("acme-editor:2.0").build().stateDir())
                .isEqualTo(app("acme-editor:1.0").build().stateDir());
    }

    @Test
    void aConfiguredStateDirectoryIsUsedAsGiven() {
        Path given = dir.resolve("vendor-state");
        assertThat(app("acme-editor:1.0").stateDir(given).build().stateDir()).isEqualTo(given);
        Properties settings = new Properties();
        settings.setProperty(ClientConfig.KEY_STATE_DIR, given.toString());
        assertThat(app("acme-editor:1.0").properties(settings).build().stateDir()).isEqualTo(given);
        assertThat(
                        app("acme-editor:1.0").stateDir(given).build().toBuilder()
                                .appVersion("other:1")
                                .build()
                                .stateDir())
                .isEqualTo(given);
    }

    @Test
    void appNamesBecomeSafeDistinctFileNames() {
        assertThat(AppStateDirectory.appName("acme-editor:1.0")).isEqualTo("acme-editor");
        assertThat(AppStateDirectory.appName("a:b:1.0")).isEqualTo("a:b");
        assertThat(AppStateDirectory.appName("noversion")).isEqualTo("noversion");
        assertThat(AppStateDirectory.fileName("acme-editor")).isEqualTo("acme-editor");
        assertThat(AppStateDirectory.fileName("com.acme/editor"))
                .isEqualTo("com.acme_editor-299aa6a245a5e018");
        assertThat(AppStateDirectory.fileName("a:b")).isEqualTo("a_b-6783a31eabf68ccc");
        assertThat(AppStateDirectory.fileName("..")).isEqualTo("..-5ec1f7e700f37c3d");
        assertThat(AppStateDirectory.fileName("")).isEqualTo("-e3b0c44298fc1c14");
        assertThat(AppStateDirectory.fileName("x".repeat(70)))
                .isEqualTo("x".repeat(64) + "-c71bd109227e2343");
    }
}
