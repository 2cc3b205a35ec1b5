package dev.fieldprof.client.transport.kafka;

import dev.fieldprof.schemas.FrequencyReport;
import dev.fieldprof.schemas.RecordCodec;
import dev.fieldprof.schemas.SealedReport;
import dev.fieldprof.sealing.AnalystKeys;
import dev.fieldprof.sealing.ReportSealer;
import dev.fieldprof.sealing.SealingException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;

/**
 * What a report of the shuffled mode becomes on the wire: the randomized report without its
 * identity (device id empty, sequence 0, creation time 0; its random report id kept, so that a
 * report sent twice still counts once after the shuffler), encoded, sealed to the analyst's public
 * key for its (app version, configuration), inside a {@link SealedReport} that names the device and
 * sequence for the shuffler's deduplication only.
 *
 * <p>Fails closed: without a usable public keyset (none given, unreadable, larger than {@link
 * #MAX_KEYSET_BYTES}, not an HPKE public keyset, or holding a private key) {@link #seal} refuses
 * every report and the caller drops it; a report of the shuffled configuration is never sent
 * unsealed. The keyset is read once, on first use (the transport's publisher thread), never on the
 * host's.
 */
public final class SealedReports {
    /** A public keyset of a few keys is well under 1 KiB; anything this large is not one. */
    public static final int MAX_KEYSET_BYTES = 64 * 1024;

    private static final RecordCodec<FrequencyReport> REPORTS =
            RecordCodec.of(FrequencyReport.class);
    private static final RecordCodec<SealedReport> SEALED = RecordCodec.of(SealedReport.class);

    private final String configId;
    private final Path publicKeyset;
    private ReportSealer sealer; // guarded by this
    private String problem; // guarded by this; set once the keyset was found unusable

    /**
     * @param configId the shuffled configuration: its reports are sealed, others are not touched
     * @param publicKeyset the analyst's public keyset file (Tink JSON), or null when none was given
     */
    public SealedReports(String configId, Path publicKeyset) {
        if (configId == null || configId.isBlank()) {
            throw new IllegalArgumentException("configId must be non-empty");
        }
        this.configId = configId;
        this.publicKeyset = publicKeyset;
    }

    /** Whether {@code report} is of the shuffled configuration, so goes sealed or not at all. */
    public boolean seals(FrequencyReport report) {
        return configId.equals(report.getConfigId());
    }

    /**
     * The {@link SealedReport} bytes of {@code report}.
     *
     * @throws SealingException when there is no usable public keyset or sealing failed
     */
    public byte[] seal(FrequencyReport report) throws SealingException {
        ReportSealer usable = sealer();
        FrequencyReport anonymous =
                FrequencyReport.newBuilder(report)
                        .setDeviceId("")
                        .setSequence(0)
                        .setCreatedAtMillis(Instant.EPOCH)
                        .build();
        byte[] payload;
        try {
            payload = REPORTS.encode(anonymous);
        } catch (RuntimeException e) {
            throw new SealingException("the report cannot be encoded: " + e.getMessage(), e);
        }
        byte[] sealed = usable.seal(payload, report.getAppVersion(), report.getConfigId());
        return SEALED.encode(
                SealedReport.newBuilder()
                        .setDeviceId(report.getDeviceId())
                        .setAppVersion(report.getAppVersion())
                        .setConfigId(report.getConfigId())
                        .setSequence(report.getSequence())
                        .setSealed(ByteBuffer.wrap(sealed))
                        .build());
    }

    /** Why reports cannot be sealed, once a seal was tried and refused; empty otherwise. */
    public synchronized Optional<String> problem() {
        return Optional.ofNullable(problem);
    }

    /** The id of the key reports are sealed to, once the keyset was read. */
    public synchronized Optional<String> keyId() {
        return sealer == null ? Optional.empty() : Optional.of(sealer.keyId());
    }

    private synchronized ReportSealer sealer() throws SealingException {
        if (sealer != null) {
            return sealer;
        }
        if (problem == null) {
            try {
                sealer = AnalystKeys.sealerFromPublicKeysetJson(readKeyset());
                return sealer;
            } catch (SealingException e) {
                problem = e.getMessage();
            } catch (RuntimeException | LinkageError e) {
                problem = "sealing is unavailable: " + e;
            }
        }
        throw new SealingException(problem);
    }

    private String readKeyset() throws SealingException {
        if (publicKeyset == null) {
            throw new SealingException(
                    "no analyst public keyset (shuffler.analyst.public.keyset) is set");
        }
        try {
            long size = Files.size(publicKeyset);
            if (size > MAX_KEYSET_BYTES) {
                throw new SealingException(
                        publicKeyset
                                + " holds "
                                + size
                                + " bytes, more than a public keyset ("
                                + MAX_KEYSET_BYTES
                                + " at most)");
            }
            return Files.readString(publicKeyset, StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            throw new SealingException("cannot read " + publicKeyset + ": " + e, e);
        }
    }
}
