package dev.fieldprof.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fieldprof.bytecode.instrument.JarInstrumenter;
import dev.fieldprof.bytecode.model.ProgramModels;
import dev.fieldprof.client.ClientConfig;
import dev.fieldprof.schemas.PrivacyConfig;
import dev.fieldprof.schemas.PrivacyMode;
import dev.fieldprof.schemas.ProgramModel;
import dev.fieldprof.schemas.ShufflerTerms;
import java.io.StringReader;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/**
 * A model's shuffled configuration reaches the device: the client properties the instrumenter
 * writes (and the agent hands the SDK) carry its shuffler terms, so the device seals its reports.
 */
class ShuffledClientPropertiesTest {

    private static ProgramModel model(ShufflerTerms terms) {
        PrivacyConfig config =
                PrivacyConfig.newBuilder(ProgramModels.privacyConfig("shuffled", 4.0, 1, 1, 3))
                        .setMode(PrivacyMode.USER_LEVEL)
                        .setShuffler(terms)
                        .build();
        return ProgramModels.build(
                "demo:1.0",
                Instant.EPOCH,
                List.of("a()V", "b()V", "c()V"),
                List.of(),
                config,
                Map.of());
    }

    private static ClientConfig device(ProgramModel model) throws Exception {
        Properties properties = new Properties();
        properties.load(new StringReader(JarInstrumenter.clientProperties(model, null)));
        return ClientConfig.builder().properties(properties).stateDir(Path.of("state")).build();
    }

    @Test
    void aShuffledModelsDevicesKnowTheShufflerTerms() throws Exception {
        ProgramModel shuffled = model(new ShufflerTerms(10_000, 1e-6));
        assertThat(JarInstrumenter.clientProperties(shuffled, null))
                .contains(
                        "privacy.shuffler.min.batch.size=10000\n",
                        "privacy.shuffler.delta=1.0E-6\n");
        ClientConfig config = device(shuffled);
        assertThat(config.shuffler()).contains(new ShufflerTerms(10_000, 1e-6));
        assertThat(config.configId()).isEqualTo("shuffled");
    }

    @Test
    void aLocalOnlyModelsDevicesHaveNone() throws Exception {
        ProgramModel local = model(null);
        assertThat(JarInstrumenter.clientProperties(local, null)).doesNotContain("shuffler");
        assertThat(device(local).shuffler()).isEmpty();
    }
}
