package dev.fieldprof.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The declarations themselves, and docs/client-config.md as their text. After changing a setting,
 * rewrite the docs with {@code mvn -o -B -q -pl client-sdk -am test -Dtest=ClientSettingsTest
 * -Dsurefire.failIfNoSpecifiedTests=false -Dfieldprof.docs.write=true}.
 */
class ClientSettingsTest {
    private static final Path DOCS = Path.of("../docs/client-config.md");

    /** docs/client-config.md lists the settings as declared: it cannot drift from the parser. */
    @Test
    void theDocsAreTheDeclarations() throws Exception {
        if (Boolean.getBoolean("fieldprof.docs.write")) {
            Files.writeString(DOCS, ClientSettings.markdown());
        }
        assertThat(Files.readString(DOCS)).isEqualTo(ClientSettings.markdown());
    }

    @Test
    void everyKeyIsDeclaredOnceAndEveryKeyConstantIsDeclared() {
        Set<String> keys = new HashSet<>();
        ClientSettings.ALL.forEach(setting -> assertThat(keys.add(setting.key())).isTrue());
        assertThat(keys).hasSize(40);
        assertThat(keys)
                .contains(
                        ClientConfig.KEY_APP_VERSION,
                        ClientConfig.KEY_FILE_PATH,
                        ClientConfig.KEY_KAFKA_CONFIG_FILE,
                        ClientConfig.KEY_PATHS_MAX_REPORT_BYTES,
                        ClientConfig.KEY_SHUFFLER_MIN_BATCH,
                        ClientConfig.KEY_SHUFFLER_DELTA,
                        ClientConfig.KEY_ANALYST_PUBLIC_KEYSET,
                        ClientConfig.KEY_SHUFFLER_TOPIC);
    }

    private static java.util.Properties minBatchOnly() {
        java.util.Properties properties = new java.util.Properties();
        properties.setProperty("privacy.shuffler.min.batch.size", "100");
        return properties;
    }

    /**
     * A model's shuffled configuration carries its terms to the device; half of them is refused.
     */
    @Test
    void theShufflerTermsComeFromTheModelAndGoTogether() {
        dev.fieldprof.schemas.PrivacyConfig shuffled =
                new dev.fieldprof.schemas.PrivacyConfig(
                        "shuffled",
                        4.0,
                        1,
                        1,
                        dev.fieldprof.schemas.PrivacyMode.USER_LEVEL,
                        new dev.fieldprof.schemas.ShufflerTerms(10_000, 1e-6));
        ClientConfig config =
                ClientConfig.builder()
                        .appVersion("demo:1.0")
                        .methodCount(10)
                        .stateDir(Path.of("state"))
                        .privacy(shuffled)
                        .build();
        assertThat(config.shuffler())
                .contains(new dev.fieldprof.schemas.ShufflerTerms(10_000, 1e-6));
        assertThat(config.shufflerTopic()).isEqualTo("fieldprof.shuffler.input");
        assertThat(config.analystPublicKeyset()).isNull();
        shuffled.setShuffler(null);
        assertThat(
                        ClientConfig.builder()
                                .appVersion("demo:1.0")
                                .methodCount(10)
                                .stateDir(Path.of("state"))
                                .shuffled(100, 1e-6)
                                .privacy(shuffled)
                                .build()
                                .shuffler())
                .as("a local-only configuration clears earlier terms")
                .isEmpty();
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () ->
                                ClientConfig.builder()
                                        .appVersion("demo:1.0")
                                        .methodCount(10)
                                        .stateDir(Path.of("state"))
                                        .properties(minBatchOnly())
                                        .build())
                .hasMessage("privacy.shuffler.delta is required: both shuffler terms or neither");
    }

    @Test
    void aRowSaysWhatTheSettingAcceptsItsDefaultAndMeaning() {
        assertThat(ClientSettings.CHECKPOINT_INTERVAL.accepts())
                .isEqualTo("ISO-8601 duration, `none`; must be 'none' or a duration >= PT1S");
        assertThat(ClientSettings.CHECKPOINT_INTERVAL.defaultText()).isEqualTo("`PT1M`");
        assertThat(ClientSettings.METHOD_COUNT.accepts())
                .isEqualTo("integer; must be in [1, 10000000]");
        assertThat(ClientSettings.METHOD_COUNT.defaultText()).isEqualTo("required");
        assertThat(ClientSettings.KAFKA_CONFIG_FILE.defaultText()).isEqualTo("none");
        assertThat(ClientSettings.BUDGET.defaultText()).isEqualTo("`ln(9)`");
        assertThat(ClientSettings.markdown())
                .contains(
                        "| `paths.enabled` | true\\|false | `false` | opt-in to path tracing;"
                                + " path reports are not randomized. The machine's user's switch:"
                                + " never taken from the program's own settings |\n");
    }

    @Test
    void aDeclarationParsesWordsInAnyCaseAndNamesItsKeyInEveryMessage() {
        assertThat(ClientSettings.BUDGET.parse("NONE")).isEqualTo(Double.POSITIVE_INFINITY);
        assertThat(ClientSettings.BUDGET.parse("ln(9)")).isEqualTo(Math.log(9));
        assertThat(ClientSettings.EPOCH_SPAN.parse("Manual")).isNull();
        assertThat(ClientSettings.EPOCH_SPAN.parse("pt2h")).isEqualTo(Duration.ofHours(2));
        assertThatThrownBy(() -> ClientSettings.EPOCH_SPAN.parse("2h"))
                .hasMessage("epoch.span must be an ISO-8601 duration such as PT1H, got '2h'");
        assertThatThrownBy(() -> ClientSettings.QUEUE_CAPACITY.validated(0))
                .hasMessage("transport.queue.capacity must be in [1, 1000000], got 0");
        assertThatThrownBy(() -> ClientSettings.APP_VERSION.validated("  "))
                .hasMessage("app.version is required: a non-empty 'app:version'");
        assertThat(ClientSettings.APP_VERSION.validated(" a:1 ")).isEqualTo("a:1");
        assertThat(ClientSettings.DEVICE_ID.validated(" ")).isNull();
    }
}
