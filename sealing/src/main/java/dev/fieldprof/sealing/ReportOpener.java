package dev.fieldprof.sealing;

import com.google.crypto.tink.HybridDecrypt;
import java.security.GeneralSecurityException;

/**
 * Opens sealed report payloads with the analyst's private keyset (every key in it, so reports
 * sealed to a key retired by a rotation still open). Thread-safe. A payload that was not sealed to
 * one of these keys, was altered, or names another (app version, configuration) than it was sealed
 * for does not open: {@link SealingException}, never a partial result.
 */
public final class ReportOpener {
    private final HybridDecrypt decrypt;

    ReportOpener(HybridDecrypt decrypt) {
        this.decrypt = decrypt;
    }

    /**
     * The payload sealed in {@code sealed} for a report of {@code appVersion} under {@code
     * configId}.
     */
    public byte[] open(byte[] sealed, String appVersion, String configId) throws SealingException {
        try {
            return decrypt.decrypt(sealed, SealingContext.of(appVersion, configId));
        } catch (GeneralSecurityException e) {
            throw new SealingException(
                    "sealed payload of "
                            + sealed.length
                            + " bytes does not open with the analyst's keys"
                            + " for "
                            + appVersion
                            + " / "
                            + configId,
                    e);
        }
    }
}
