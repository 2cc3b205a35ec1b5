/**
 * The local differential privacy mechanisms of fieldprof, used alike by devices (to randomize) and
 * by the estimators (to know what the randomizer did).
 *
 * <ul>
 *   <li>{@link dev.fieldprof.ldp.LocalRandomizer}: the exact ε-t randomizer of a sampled histogram;
 *       {@link dev.fieldprof.ldp.SubsetSelection}: the user-level mode's frequency oracle;
 *   <li>{@link dev.fieldprof.ldp.BinomialSampler} and {@link
 *       dev.fieldprof.ldp.HypergeometricSampler}: exact samplers (no normal approximation, whose
 *       tails break the ε bound);
 *   <li>{@link dev.fieldprof.ldp.RandomSource}: the only way randomness enters, cryptographically
 *       secure on devices ({@link dev.fieldprof.ldp.ChaCha20RandomSource}, {@link
 *       dev.fieldprof.ldp.SecureRandomSource}), seeded in tests and simulations;
 *   <li>{@link dev.fieldprof.ldp.PrivacyParameters}, {@link dev.fieldprof.ldp.OracleVariance} and
 *       {@link dev.fieldprof.ldp.ExactPrivacyAudit}: the parameters, their variances, and an exact
 *       check of the guarantee on small domains;
 *   <li>{@link dev.fieldprof.ldp.ShuffleAmplification}: the central (ε, δ) of a shuffled batch of
 *       ε₀-LDP reports.
 * </ul>
 *
 * <p>The formulas are in docs/architecture.md, "The privacy contract". Depends on nothing but the
 * schemas' privacy configuration record.
 */
package dev.fieldprof.ldp;
