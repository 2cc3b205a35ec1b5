package dev.fieldprof.paths;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class VariantAssignmentTest {

    // Pinned by an independent computation (Python hashlib: sha256(struct.pack('>q', salt) +
    // id.encode('utf-8'))[:8] big-endian). A change here re-deals every deployed device.
    @Test
    void hashIsTheFirstEightBytesOfSha256OfSaltThenDeviceId() {
        assertThat(VariantAssignment.hash(0L, "device-1")).isEqualTo(0x7744732e332499a8L);
        assertThat(VariantAssignment.hash(0L, "device-2")).isEqualTo(0x9aea718e55348296L);
        assertThat(VariantAssignment.hash(42L, "device-1")).isEqualTo(0xbf74494565c65931L);
        assertThat(VariantAssignment.hash(-7L, "ä-device")).isEqualTo(0xbc25ad740b0b1648L);
        assertThat(VariantAssignment.hash(123456789L, "")).isEqualTo(0x5d82e57c3bc9071bL);
    }

    @Test
    void variantIsTheUnsignedHashModuloTheVariantCount() {
        assertThat(new VariantAssignment(0L, 36).variantOf("device-1")).isEqualTo(24);
        assertThat(new VariantAssignment(0L, 36).variantOf("device-2")).isEqualTo(34);
        assertThat(new VariantAssignment(42L, 36).variantOf("device-1")).isEqualTo(13);
        assertThat(new VariantAssignment(-7L, 3).variantOf("ä-device")).isEqualTo(0);
        assertThat(new VariantAssignment(123456789L, 10).variantOf("")).isEqualTo(5);
        assertThat(new VariantAssignment(42L, 1).variantOf("device-1")).isEqualTo(0);
    }

    @Test
    void everyVariantReceivesDevicesAndAllStayInRange() {
        VariantAssignment variants = new VariantAssignment(99L, 7);
        int[] devices = new int[7];
        for (int i = 0; i < 7_000; i++) {
            int variant = variants.variantOf("device-" + i);
            assertThat(variant).isBetween(0, 6);
            devices[variant]++;
        }
        assertThat(java.util.Arrays.stream(devices).min().getAsInt()).isPositive();
    }

    @Test
    void aNewSaltDealsVariantsAgain() {
        int moved = 0;
        for (int i = 0; i < 100; i++) {
            String id = "device-" + i;
            if (new VariantAssignment(1L, 10).variantOf(id)
                    != new VariantAssignment(2L, 10).variantOf(id)) {
                moved++;
            }
        }
        assertThat(moved).isGreaterThan(50);
    }

    @Test
    void rejectsVariantCountBelowOne() {
        assertThatThrownBy(() -> new VariantAssignment(0L, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("variantCount must be >= 1, was 0");
        assertThatThrownBy(() -> new VariantAssignment(0L, 2).variantOf(null))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
