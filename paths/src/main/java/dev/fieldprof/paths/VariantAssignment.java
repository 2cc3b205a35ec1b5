package dev.fieldprof.paths;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * Which probe-plan variant a device traces: a stable, salted hash of its device id, so a device
 * keeps its variant across runs and releases of the SDK and a new plan (a new salt) deals the
 * variants again (docs/architecture.md, "Probe plans").
 *
 * <p>The hash is fixed and must never change, because the server decides from it which devices
 * could have traced which methods: {@code SHA-256(salt as 8 big-endian bytes || deviceId as UTF-8
 * bytes)}, its first 8 bytes read as an unsigned big-endian number, modulo {@code variantCount}.
 * The modulo bias is below {@code variantCount / 2^64}, negligible.
 *
 * <pre>{@code
 * VariantAssignment variants = new VariantAssignment(plan.getSalt(), plan.getVariantCount());
 * int variant = variants.variantOf(deviceId); // 0 <= variant < variantCount
 * }</pre>
 *
 * <p>Immutable and thread-safe. No dependency beyond the JDK.
 */
public final class VariantAssignment {

    private final long salt;
    private final int variantCount;

    /**
     * @param salt any value; the probe plan's salt
     * @param variantCount the plan's number of variants, {@code >= 1}
     * @throws IllegalArgumentException if {@code variantCount < 1}
     */
    public VariantAssignment(long salt, int variantCount) {
        if (variantCount < 1) {
            throw new IllegalArgumentException("variantCount must be >= 1, was " + variantCount);
        }
        this.salt = salt;
        this.variantCount = variantCount;
    }

    public long salt() {
        return salt;
    }

    public int variantCount() {
        return variantCount;
    }

    /**
     * The variant of a device, in {@code [0, variantCount)}.
     *
     * @throws IllegalArgumentException if {@code deviceId} is null
     */
    public int variantOf(String deviceId) {
        if (deviceId == null) {
            throw new IllegalArgumentException("deviceId must not be null");
        }
        return (int) Long.remainderUnsigned(hash(salt, deviceId), variantCount);
    }

    /** The first 8 bytes of SHA-256(salt || UTF-8 device id), big-endian. */
    static long hash(long salt, String deviceId) {
        MessageDigest sha256;
        try {
            sha256 = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            // Every Java platform must provide SHA-256 (MessageDigest's Javadoc).
            throw new IllegalStateException("SHA-256 missing from this JVM", e);
        }
        sha256.update(ByteBuffer.allocate(Long.BYTES).putLong(salt).array());
        sha256.update(deviceId.getBytes(StandardCharsets.UTF_8));
        return ByteBuffer.wrap(sha256.digest()).getLong();
    }
}
