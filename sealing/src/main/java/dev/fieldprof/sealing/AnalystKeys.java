package dev.fieldprof.sealing;

import com.google.crypto.tink.HybridDecrypt;
import com.google.crypto.tink.HybridEncrypt;
import com.google.crypto.tink.InsecureSecretKeyAccess;
import com.google.crypto.tink.KeyTemplates;
import com.google.crypto.tink.KeysetHandle;
import com.google.crypto.tink.RegistryConfiguration;
import com.google.crypto.tink.TinkJsonProtoKeysetFormat;
import com.google.crypto.tink.hybrid.HybridConfig;
import java.security.GeneralSecurityException;
import java.util.Locale;

/**
 * The analyst's key pair for the shuffled mode, in Tink's JSON keyset format.
 *
 * <p>The private keyset stays with the analyst's frequency job; the public keyset goes to devices.
 * Reading a public keyset that holds secret material is refused, so a private key handed to devices
 * by mistake is caught where it would leak. {@link #rotate} adds a new primary key and keeps the
 * old ones, so reports sealed before the rotation still open.
 */
public final class AnalystKeys {
    /** HPKE with X25519, HKDF-SHA256 and AES-128-GCM, ciphertexts prefixed with the key's id. */
    static final String TEMPLATE = "DHKEM_X25519_HKDF_SHA256_HKDF_SHA256_AES_128_GCM";

    private final KeysetHandle privateKeyset;

    private AnalystKeys(KeysetHandle privateKeyset) {
        this.privateKeyset = privateKeyset;
    }

    /** A new key pair, drawn from the JVM's secure random source. */
    public static AnalystKeys generate() throws SealingException {
        register();
        try {
            return new AnalystKeys(KeysetHandle.generateNew(KeyTemplates.get(TEMPLATE)));
        } catch (GeneralSecurityException e) {
            throw new SealingException("cannot generate an HPKE key: " + e.getMessage(), e);
        }
    }

    /** The key pair stored by {@link #privateKeysetJson}. */
    public static AnalystKeys fromPrivateKeysetJson(String json) throws SealingException {
        register();
        try {
            KeysetHandle handle =
                    TinkJsonProtoKeysetFormat.parseKeyset(json, InsecureSecretKeyAccess.get());
            handle.getPrimitive(RegistryConfiguration.get(), HybridDecrypt.class);
            return new AnalystKeys(handle);
        } catch (GeneralSecurityException | RuntimeException e) {
            throw new SealingException(
                    "not an analyst private keyset (Tink JSON, HPKE): " + e.getMessage(), e);
        }
    }

    /**
     * A sealer for the public keyset in {@code json}; refused when the keyset holds any secret key
     * or is not an HPKE public key.
     */
    public static ReportSealer sealerFromPublicKeysetJson(String json) throws SealingException {
        register();
        try {
            KeysetHandle handle = TinkJsonProtoKeysetFormat.parseKeysetWithoutSecret(json);
            HybridEncrypt encrypt =
                    handle.getPrimitive(RegistryConfiguration.get(), HybridEncrypt.class);
            return new ReportSealer(encrypt, hex(handle.getPrimary().getId()));
        } catch (GeneralSecurityException | RuntimeException e) {
            throw new SealingException(
                    "not an analyst public keyset (Tink JSON, HPKE, no secret key): "
                            + e.getMessage(),
                    e);
        }
    }

    /** The private keyset, every key in it, as Tink JSON: keep it where only the analyst reads. */
    public String privateKeysetJson() throws SealingException {
        try {
            return TinkJsonProtoKeysetFormat.serializeKeyset(
                    privateKeyset, InsecureSecretKeyAccess.get());
        } catch (GeneralSecurityException e) {
            throw new SealingException("cannot write the private keyset: " + e.getMessage(), e);
        }
    }

    /** The public keyset as Tink JSON, what devices are given. */
    public String publicKeysetJson() throws SealingException {
        try {
            return TinkJsonProtoKeysetFormat.serializeKeysetWithoutSecret(
                    privateKeyset.getPublicKeysetHandle());
        } catch (GeneralSecurityException e) {
            throw new SealingException("cannot write the public keyset: " + e.getMessage(), e);
        }
    }

    /** The opener for every key of this keyset. */
    public ReportOpener opener() throws SealingException {
        try {
            return new ReportOpener(
                    privateKeyset.getPrimitive(RegistryConfiguration.get(), HybridDecrypt.class));
        } catch (GeneralSecurityException e) {
            throw new SealingException("cannot open with this keyset: " + e.getMessage(), e);
        }
    }

    /** A sealer for this pair's primary public key (what a device given the public keyset has). */
    public ReportSealer sealer() throws SealingException {
        return sealerFromPublicKeysetJson(publicKeysetJson());
    }

    /**
     * These keys with a new primary key added: devices given the new public keyset seal to it, and
     * reports sealed to the old keys still open.
     */
    public AnalystKeys rotate() throws SealingException {
        try {
            KeysetHandle.Builder builder = KeysetHandle.newBuilder(privateKeyset);
            builder.addEntry(
                    KeysetHandle.generateEntryFromParametersName(TEMPLATE)
                            .withRandomId()
                            .makePrimary());
            return new AnalystKeys(builder.build());
        } catch (GeneralSecurityException e) {
            throw new SealingException("cannot add a key: " + e.getMessage(), e);
        }
    }

    /** The primary key's id, eight hex digits, as sealers report it. */
    public String primaryKeyId() {
        return hex(privateKeyset.getPrimary().getId());
    }

    /** How many keys the keyset holds (1 until the first rotation). */
    public int size() {
        return privateKeyset.size();
    }

    private static String hex(int id) {
        return String.format(Locale.ROOT, "%08x", id);
    }

    private static void register() throws SealingException {
        try {
            HybridConfig.register();
        } catch (GeneralSecurityException e) {
            throw new SealingException("Tink's hybrid encryption is unavailable: " + e, e);
        }
    }
}
