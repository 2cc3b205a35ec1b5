package dev.fieldprof.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.client.tracing.PathReportSink;
import dev.fieldprof.paths.ArrayBranchTable;
import dev.fieldprof.paths.BranchTable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Path tracing is the machine's user's to turn on: a system property, the agent's command line or
 * the consent file in the user's state directory, never the program's own client.properties.
 */
class PathsConsentTest {
    private static final String ENABLED = ClientConfig.SYSTEM_PREFIX + "paths.enabled";
    private static final String DEBUG = ClientConfig.SYSTEM_PREFIX + "paths.debug";
    private static final String STATE_DIR = ClientConfig.SYSTEM_PREFIX + "state.dir";
    private static final BranchTable TABLE = ArrayBranchTable.builder(4).branch(1, 0, 2).build();
    private static final PathReportSink SINK = report -> {};

    @TempDir Path dir;
    private String home;

    @BeforeEach
    void rememberHome() {
        home = System.getProperty("user.home");
    }

    @AfterEach
    void clear() {
        System.clearProperty(ENABLED);
        System.clearProperty(DEBUG);
        System.clearProperty(STATE_DIR);
        System.setProperty("user.home", home);
    }

    /** A vendor's client.properties asking for tracing and raw events, state in its own folder. */
    private Properties vendorResource() throws Exception {
        Path vendorState = dir.resolve("vendor-state");
        Files.createDirectories(vendorState);
        // Shipped with the program: a consent file in the state directory the program names.
        Files.writeString(
                vendorState.resolve("consent.properties"),
                "paths.enabled=true\npaths.debug=true\n");
        Properties p = new Properties();
        p.setProperty("app.version", "vendor:1");
        p.setProperty("method.count", "4");
        p.setProperty("transport", "none");
        p.setProperty("state.dir", vendorState.toString());
        p.setProperty("paths.enabled", "true");
        p.setProperty("paths.debug", "true");
        return p;
    }

    private static String whyOff(ClientConfig config) {
        return DevicePaths.whyOff(config, TABLE, SINK);
    }

    @Test
    void theProgramsOwnClientPropertiesCannotTurnItOn() throws Exception {
        System.setProperty("user.home", dir.resolve("home").toString()); // no consent file there
        ClientConfig config = ClientConfig.withSystemProperties(vendorResource()).orElseThrow();
        assertThat(config.pathsEnabled()).isFalse();
        assertThat(config.pathsDebug()).isFalse();
        assertThat(config.programAskedForPaths()).isTrue();
        assertThat(whyOff(config))
                .isEqualTo(
                        "not enabled: the program's settings ask for it, but only the machine's"
                                + " user can turn it on (-Dfieldprof.paths.enabled=true, or"
                                + " paths.enabled=true in consent.properties in the user's state"
                                + " directory)");
    }

    @Test
    void theUsersSystemPropertyTurnsItOnAndRawEventsOnlyWhenAskedToo() throws Exception {
        System.setProperty("user.home", dir.resolve("home").toString());
        System.setProperty(ENABLED, "true");
        ClientConfig config = ClientConfig.withSystemProperties(vendorResource()).orElseThrow();
        assertThat(config.pathsEnabled()).isTrue();
        assertThat(config.pathsDebug()).as("the vendor's paths.debug").isFalse();
        assertThat(whyOff(config)).isNull();
        System.setProperty(DEBUG, "true");
        assertThat(ClientConfig.withSystemProperties(vendorResource()).orElseThrow().pathsDebug())
                .isTrue();
    }

    @Test
    void theConsentFileInTheUsersStateDirectoryTurnsItOnUnlessASystemPropertySaysNo()
            throws Exception {
        Path userState = dir.resolve("user-state");
        Files.createDirectories(userState);
        Files.writeString(
                userState.resolve("consent.properties"), "paths.enabled=true\npaths.debug=true\n");
        System.setProperty(STATE_DIR, userState.toString());
        ClientConfig config = ClientConfig.withSystemProperties(vendorResource()).orElseThrow();
        assertThat(config.stateDir()).isEqualTo(userState);
        assertThat(config.pathsEnabled()).isTrue();
        assertThat(config.pathsDebug()).isTrue();
        System.setProperty(ENABLED, "false");
        assertThat(ClientConfig.withSystemProperties(vendorResource()).orElseThrow().pathsEnabled())
                .isFalse();
    }

    @Test
    void theConsentFileInTheUsersHomeCountsWhereverTheProgramKeepsItsState() throws Exception {
        Path home = dir.resolve("home");
        Files.createDirectories(home.resolve(".fieldprof"));
        Files.writeString(home.resolve(".fieldprof/consent.properties"), "paths.enabled=true\n");
        System.setProperty("user.home", home.toString());
        ClientConfig config = ClientConfig.withSystemProperties(vendorResource()).orElseThrow();
        assertThat(config.pathsEnabled()).isTrue();
        assertThat(config.pathsDebug()).isFalse();
    }

    @Test
    void theAgentsPathsOptionOnTheCommandLineTurnsItOn() throws Exception {
        System.setProperty("user.home", dir.resolve("home").toString());
        Properties commandLine = new Properties();
        commandLine.setProperty("paths.enabled", "true");
        ClientConfig config =
                ClientConfig.withSystemProperties(vendorResource(), commandLine).orElseThrow();
        assertThat(config.pathsEnabled()).isTrue();
        assertThat(config.pathsDebug()).isFalse();
    }
}
