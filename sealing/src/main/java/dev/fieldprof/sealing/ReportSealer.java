package dev.fieldprof.sealing;

import com.google.crypto.tink.HybridEncrypt;
import java.security.GeneralSecurityException;

/**
 * Seals report payloads to the analyst's public key. Thread-safe: Tink's hybrid encryption
 * primitive is, and every seal draws its own ephemeral key from the JVM's secure random source.
 */
public final class ReportSealer {
    private final HybridEncrypt encrypt;
    private final String keyId;

    ReportSealer(HybridEncrypt encrypt, String keyId) {
        this.encrypt = encrypt;
        this.keyId = keyId;
    }

    /**
     * The sealed form of {@code payload} for a report of {@code appVersion} under {@code configId}:
     * what only the matching private key opens, and only for the same pair.
     */
    public byte[] seal(byte[] payload, String appVersion, String configId) throws SealingException {
        try {
            return encrypt.encrypt(payload, SealingContext.of(appVersion, configId));
        } catch (GeneralSecurityException e) {
            throw new SealingException("sealing failed: " + e.getMessage(), e);
        }
    }

    /** The id of the key reports are sealed to (eight hex digits), as the ledger shows it. */
    public String keyId() {
        return keyId;
    }
}
