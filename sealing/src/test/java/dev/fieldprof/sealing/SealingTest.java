package dev.fieldprof.sealing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class SealingTest {
    private static final byte[] PAYLOAD = "randomized report".getBytes(StandardCharsets.UTF_8);

    @Test
    void opensWhatItsPublicKeySealed() throws Exception {
        AnalystKeys keys = AnalystKeys.generate();
        ReportSealer sealer = AnalystKeys.sealerFromPublicKeysetJson(keys.publicKeysetJson());

        byte[] sealed = sealer.seal(PAYLOAD, "app:1", "cfg");

        assertThat(keys.opener().open(sealed, "app:1", "cfg")).isEqualTo(PAYLOAD);
        assertThat(sealer.keyId()).isEqualTo(keys.primaryKeyId()).hasSize(8);
    }

    @Test
    void twoSealsOfOnePayloadDiffer() throws Exception {
        ReportSealer sealer = AnalystKeys.generate().sealer();

        assertThat(sealer.seal(PAYLOAD, "app:1", "cfg"))
                .isNotEqualTo(sealer.seal(PAYLOAD, "app:1", "cfg"));
    }

    @Test
    void aPayloadMovedToAnotherGroupDoesNotOpen() throws Exception {
        AnalystKeys keys = AnalystKeys.generate();
        byte[] sealed = keys.sealer().seal(PAYLOAD, "app:1", "cfg");

        assertThatThrownBy(() -> keys.opener().open(sealed, "app:2", "cfg"))
                .isInstanceOf(SealingException.class)
                .hasMessageContaining("does not open")
                .hasMessageContaining("app:2 / cfg");
        assertThatThrownBy(() -> keys.opener().open(sealed, "app:1", "other"))
                .isInstanceOf(SealingException.class);
    }

    @Test
    void theContextCannotBeShiftedBetweenItsFields() {
        assertThat(SealingContext.of("a:1", "bc")).isNotEqualTo(SealingContext.of("a:1b", "c"));
    }

    @Test
    void anAlteredPayloadDoesNotOpen() throws Exception {
        AnalystKeys keys = AnalystKeys.generate();
        byte[] sealed = keys.sealer().seal(PAYLOAD, "app:1", "cfg");
        for (int i = 0; i < sealed.length; i++) {
            byte[] altered = sealed.clone();
            altered[i] ^= 1;
            assertThatThrownBy(() -> keys.opener().open(altered, "app:1", "cfg"))
                    .isInstanceOf(SealingException.class);
        }
    }

    @Test
    void anotherAnalystsKeysDoNotOpen() throws Exception {
        byte[] sealed = AnalystKeys.generate().sealer().seal(PAYLOAD, "app:1", "cfg");

        assertThatThrownBy(() -> AnalystKeys.generate().opener().open(sealed, "app:1", "cfg"))
                .isInstanceOf(SealingException.class);
    }

    @Test
    void aPublicKeysetHoldingAPrivateKeyIsRefused() throws Exception {
        String privateJson = AnalystKeys.generate().privateKeysetJson();

        assertThatThrownBy(() -> AnalystKeys.sealerFromPublicKeysetJson(privateJson))
                .isInstanceOf(SealingException.class)
                .hasMessageStartingWith("not an analyst public keyset");
    }

    @Test
    void garbageIsRefusedWithOneLine() {
        assertThatThrownBy(() -> AnalystKeys.sealerFromPublicKeysetJson("{\"key\": 1}"))
                .isInstanceOf(SealingException.class)
                .hasMessageStartingWith("not an analyst public keyset");
        assertThatThrownBy(() -> AnalystKeys.fromPrivateKeysetJson("not json"))
                .isInstanceOf(SealingException.class)
                .hasMessageStartingWith("not an analyst private keyset");
    }

    @Test
    void thePrivateKeysetSurvivesItsJson() throws Exception {
        AnalystKeys keys = AnalystKeys.generate();
        byte[] sealed = keys.sealer().seal(PAYLOAD, "app:1", "cfg");

        AnalystKeys read = AnalystKeys.fromPrivateKeysetJson(keys.privateKeysetJson());

        assertThat(read.opener().open(sealed, "app:1", "cfg")).isEqualTo(PAYLOAD);
        assertThat(read.primaryKeyId()).isEqualTo(keys.primaryKeyId());
    }

    @Test
    void afterARotationOldAndNewSealsOpen() throws Exception {
        AnalystKeys keys = AnalystKeys.generate();
        byte[] before = keys.sealer().seal(PAYLOAD, "app:1", "cfg");

        AnalystKeys rotated = keys.rotate();
        byte[] after = rotated.sealer().seal(PAYLOAD, "app:1", "cfg");

        assertThat(rotated.size()).isEqualTo(2);
        assertThat(rotated.primaryKeyId()).isNotEqualTo(keys.primaryKeyId());
        assertThat(rotated.opener().open(before, "app:1", "cfg")).isEqualTo(PAYLOAD);
        assertThat(rotated.opener().open(after, "app:1", "cfg")).isEqualTo(PAYLOAD);
        assertThatThrownBy(() -> keys.opener().open(after, "app:1", "cfg"))
                .isInstanceOf(SealingException.class);
    }
}
