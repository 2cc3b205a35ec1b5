package dev.fieldprof.cli.privacy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.cli.CliCapture;
import dev.fieldprof.client.ClientConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code fieldprof privacy paths-consent} writes the consent file the SDK reads: a program run with
 * that state directory traces paths after {@code --on} and not after {@code --off}.
 */
class PathsConsentCommandTest {
    private static final String STATE_DIR = ClientConfig.SYSTEM_PREFIX + "state.dir";

    @TempDir Path dir;
    private final CliCapture cli = new CliCapture();

    @AfterEach
    void clear() {
        System.clearProperty(STATE_DIR);
    }

    /** What a program of the user (state directory {@code state}) decides about path tracing. */
    private static ClientConfig programRunWith(Path state) {
        System.setProperty(STATE_DIR, state.toString());
        Properties program = new Properties();
        program.setProperty("app.version", "traced:1");
        program.setProperty("method.count", "4");
        program.setProperty("transport", "none");
        return ClientConfig.withSystemProperties(program).orElseThrow();
    }

    @Test
    void onWritesTheConsentFileTheSdkReadsAndOffTakesItBack() throws Exception {
        Path state = dir.resolve("user-state");
        Path file = state.resolve("consent.properties").toAbsolutePath();
        assertThat(programRunWith(state).pathsEnabled()).isFalse();

        assertThat(cli.run("privacy", "paths-consent", "--on", "--state-dir", state.toString()))
                .isZero();
        assertThat(cli.out().lines()).containsExactly("path tracing on: wrote " + file);
        ClientConfig on = programRunWith(state);
        assertThat(on.pathsEnabled()).isTrue();
        assertThat(on.pathsDebug()).isFalse();

        assertThat(cli.run("privacy", "paths-consent", "--off", "--state-dir", state.toString()))
                .isZero();
        assertThat(cli.out().lines())
                .containsExactly(
                        "path tracing on: wrote " + file, "path tracing off: wrote " + file);
        assertThat(programRunWith(state).pathsEnabled()).isFalse();
        assertThat(Files.readAllLines(file))
                .containsExactly(
                        "# fieldprof: path tracing, the machine's user's choice (path reports are"
                                + " not randomized)",
                        "paths.enabled=false",
                        "paths.debug=false");
    }

    @Test
    void debugGoesWithOnOnly() throws Exception {
        Path state = dir.resolve("user-state");
        assertThat(
                        cli.run(
                                "privacy",
                                "paths-consent",
                                "--on",
                                "--debug",
                                "--state-dir",
                                state.toString()))
                .isZero();
        assertThat(programRunWith(state).pathsDebug()).isTrue();
        assertThat(
                        cli.run(
                                "privacy",
                                "paths-consent",
                                "--off",
                                "--debug",
                                "--state-dir",
                                state.toString()))
                .isEqualTo(1);
        assertThat(cli.err().trim()).isEqualTo("fieldprof: --debug goes with --on");
        assertThat(programRunWith(state).pathsDebug()).as("unchanged").isTrue();
    }

    @Test
    void onAndOffTogetherAreRefused() {
        assertThat(
                        cli.run(
                                "privacy",
                                "paths-consent",
                                "--on",
                                "--off",
                                "--state-dir",
                                dir.toString()))
                .isEqualTo(2);
        assertThat(dir.resolve("consent.properties")).doesNotExist();
    }
}
