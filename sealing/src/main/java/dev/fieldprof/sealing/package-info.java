/**
 * The shuffled mode's encryption. A device seals its randomized report to the analyst's public key
 * ({@link ReportSealer}); the shuffler forwards the sealed bytes without being able to read them;
 * the analyst's frequency job opens them with the private key ({@link ReportOpener}). The analyst's
 * key pair is made and stored by {@link AnalystKeys}.
 *
 * <p>The encryption is HPKE (RFC 9180: X25519, HKDF-SHA256, AES-128-GCM) through Google Tink; no
 * cryptography is written here. The associated data of every seal is a {@link SealingContext}
 * naming the report's app version and privacy configuration, so a payload routed into another group
 * does not open. Keys are stored in Tink's JSON keyset format: a public keyset holds no secret
 * (reading one that does is refused), and a keyset may hold several keys so that reports sealed to
 * a retired key still open after a rotation.
 */
package dev.fieldprof.sealing;
